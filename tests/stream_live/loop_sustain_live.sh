#!/usr/bin/env bash
# loop_sustain_live.sh: loop_sustain releases played live. A 5 s stereo WAV whose
# 400-frame sustain loop lies past the preload (so the loop streams), 48 notes fed in
# real time into spindle --headless through --midi-device (a FIFO) on a dummy jackd at
# 256 frames, 48 kHz, each released after 2.3-2.8 s, while it cycles through the loop.
# With a loop this short, every release comes less than two blocks' reading before the
# loop's end: the frames past it may be needed before the disk thread has taken the
# Exit order. Passes with 0 stream underruns: those frames come from the exit frames
# kept in RAM (core/LoopTail.h). Without them: 3 and 4 underruns in two runs.
source "$SPINDLE_LIVE_SUPPORT"
source "$(dirname "$0")/play_events.sh"
need jackd jack_lsp mkfifo python3
inst="$LIVE_TMP/sustain"
mkdir -p "$inst"
python3 - "$inst" <<'PY' || fail "cannot write the instrument"
import math, struct, sys, wave
folder = sys.argv[1]
frames, rate = 240000, 48000
with wave.open(folder + "/pad.wav", "wb") as w:
    w.setnchannels(2)
    w.setsampwidth(2)
    w.setframerate(rate)
    data = bytearray()
    for i in range(frames):
        v = int(12000 * math.sin(2 * math.pi * 240.0 * i / rate))  # 240 Hz: 200 frames a cycle
        data += struct.pack("<hh", v, -v)
    w.writeframes(bytes(data))
with open(folder + "/sustain.sfz", "w") as sfz:
    sfz.write("<region> sample=pad.wav lokey=0 hikey=127 pitch_keycenter=60 loop_mode=loop_sustain"
              " loop_start=100000 loop_end=100399 ampeg_release=0.3\n")
# 48 notes 0.3 s apart, held 2.3 to 2.8 s (past frame 100000 at every key used).
with open(folder + "/song.events", "w") as song:
    events = []
    for i in range(48):
        on, key = 0.5 + 0.3 * i, 60 + (i % 5) - 2
        events += [(on, 0x90, key, 100), (on + 2.3 + 0.5 * ((i * 7) % 11) / 10.0, 0x80, key, 0)]
    for seconds, status, key, velocity in sorted(events):
        song.write("%.4f %d %d %d\n" % (seconds, status, key, velocity))
PY
start_jackd "spindle-loopsus-$$"
play_events "$inst/sustain.sfz" "$inst/song.events" 1.5
notes=$(sed -nE 's/^midi: +[0-9]+ events, ([0-9]+) note-ons.*/\1/p' "$LIVE_TMP/spindle.out")
underruns=$(stream_underruns)
echo "note-ons ${notes:-?}, stream underruns ${underruns:-?}"
[ "${notes:-x}" = 48 ] || fail "${notes:-no} note-ons reached spindle, not 48"
[ "${underruns:-x}" = 0 ] || fail "${underruns:-no} stream underruns"
echo PASSED
