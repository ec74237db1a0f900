#!/usr/bin/env bash
# dense_piano_live.sh flac|wav: the generated dense piano (bench/DensePiano.h: 240
# stereo files of 1.5-15 s at 44.1 kHz, 4 layers) and its 45 s song (3,396 notes: held
# 64-note chords, repeated notes, pedalled glissandi; 256 voices saturate) played in
# real time into spindle --headless through --midi-device (a FIFO), on a dummy jackd at
# 256 frames, 48 kHz: once with the page cache cold (every sample file dropped with
# posix_fadvise DONTNEED), once warm. Passes with 0 stream underruns in both runs.
# SPINDLE_DENSE_SECONDS shortens the song (default 45).
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp mkfifo python3
format=${1:-flac}
seconds=${SPINDLE_DENSE_SECONDS:-45}
piano="$LIVE_TMP/piano"
"$SPINDLE_BENCH_PIANO" "$piano" --no-sf2 --seconds "$seconds" $([ "$format" = wav ] && echo --wav) \
  || fail "cannot write the piano"
start_jackd "spindle-dense-$$"

# play_song LABEL: one run of the whole song; prints and checks its stream underruns.
play_song() {
  rm -f "$LIVE_TMP/midi.fifo"
  mkfifo "$LIVE_TMP/midi.fifo"
  "$SPINDLE_EXE" --headless --instrument "$piano/piano.sfz" --name spindle --polyphony 256 \
    --midi-device "$LIVE_TMP/midi.fifo" >"$LIVE_TMP/spindle.out" 2>"$LIVE_TMP/spindle.err" &
  SPINDLE_PID=$!
  track "$SPINDLE_PID"
  wait_until 60 port_exists spindle:midi_in || fail "spindle's ports did not appear"
  # The feeder: each event written at its time (monotonic clock), then 3 s of tails.
  python3 - "$piano/song.events" "$LIVE_TMP/midi.fifo" <<'PY' || fail "the MIDI feeder failed"
import sys, time
events = [line.split() for line in open(sys.argv[1])]
with open(sys.argv[2], "wb", buffering=0) as fifo:
    start = time.monotonic()
    for seconds, status, d1, d2 in events:
        delay = start + float(seconds) - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        fifo.write(bytes([int(status), int(d1), int(d2)]))
    time.sleep(3.0)
PY
  stop_spindle
  local underruns
  underruns=$(sed -nE 's/^stream underruns: +([0-9]+).*/\1/p' "$LIVE_TMP/spindle.out")
  echo "$1: stream underruns ${underruns:-?}; $(grep -E '^(xruns|backend xruns|process)' "$LIVE_TMP/spindle.out" | tr '\n' ' ')"
  [ "${underruns:-x}" = 0 ] || fail "$1: ${underruns:-no} stream underruns"
}

python3 -c "
import os, sys
for name in os.listdir(sys.argv[1]):
    fd = os.open(os.path.join(sys.argv[1], name), os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)
" "$piano"
play_song "$format, cold page cache"
cat "$piano"/*."$format" >/dev/null
play_song "$format, warm page cache"
echo PASSED
