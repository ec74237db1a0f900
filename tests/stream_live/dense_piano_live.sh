#!/usr/bin/env bash
# dense_piano_live.sh flac|wav: the generated dense piano (bench/DensePiano.h: 240
# stereo files of 1.5-15 s at 44.1 kHz, 4 layers) and 20 s of its song (held 64-note
# chords every 2.5 s, repeated notes, pedalled glissandi; 256 voices saturate) played in
# real time into spindle --headless through --midi-device (a FIFO), on a dummy jackd at
# 256 frames, 48 kHz: once with the page cache cold (every sample file dropped with
# posix_fadvise DONTNEED), once warm. Passes with 0 stream underruns in both runs.
# SPINDLE_DENSE_SECONDS sets the song's length (default 20; the benchmark's is 45).
source "$SPINDLE_LIVE_SUPPORT"
source "$(dirname "$0")/play_events.sh"
need jackd jack_lsp mkfifo python3
format=${1:-flac}
seconds=${SPINDLE_DENSE_SECONDS:-20}
piano="$LIVE_TMP/piano"
"$SPINDLE_BENCH_PIANO" "$piano" --no-sf2 --seconds "$seconds" $([ "$format" = wav ] && echo --wav) \
  || fail "cannot write the piano"
start_jackd "spindle-dense-$$"

# play_song LABEL: one run of the whole song; prints and checks its stream underruns.
play_song() {
  # Each event written at its time, then 3 s of tails.
  play_events "$piano/piano.sfz" "$piano/song.events" 3.0 --polyphony 256
  local underruns
  underruns=$(stream_underruns)
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
