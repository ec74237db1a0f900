#!/usr/bin/env bash
# burst_live.sh wav|flac: 64 notes on 64 different files whose pages are not in the page
# cache (posix_fadvise DONTNEED), started in one period (the probe's chord client: one
# JACK MIDI cycle) on spindle --headless with its live defaults, on a dummy jackd at 256
# frames, 48 kHz: every stream starts while its voice plays the preload. Passes with 64
# notes in the note log, all in one period, 64 voices sounding at the peak and 0 stream
# underruns.
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp python3
format=${1:-wav}
lib="$LIVE_TMP/burst"
"$SPINDLE_BENCH_LIVE" burst "$lib" >/dev/null || fail "cannot write the burst library"
python3 -c "
import os, sys
for name in os.listdir(sys.argv[1]):
    fd = os.open(os.path.join(sys.argv[1], name), os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)
" "$lib"
start_jackd "spindle-burst-$$"
"$SPINDLE_EXE" --headless --instrument "$lib/burst_$format.sfz" --name spindle --osc-port 0 \
  --note-log "$LIVE_TMP/notes.log" >"$LIVE_TMP/spindle.out" 2>"$LIVE_TMP/spindle.err" &
SPINDLE_PID=$!
track "$SPINDLE_PID"
wait_until 30 port_exists spindle:midi_in || fail "spindle's ports did not appear"
send_chord 64
sleep 3  # the notes stream on, from disk, for seconds past their preloads
stop_spindle
cat "$LIVE_TMP/spindle.out"
[ "$(wc -l <"$LIVE_TMP/notes.log")" -eq 64 ] || fail "$(wc -l <"$LIVE_TMP/notes.log") notes logged, not 64"
periods=$(sed -nE 's/.* scheduled=([0-9]+) .*/\1/p' "$LIVE_TMP/notes.log" | awk '{print int($1 / 256)}' | sort -u | wc -l)
[ "$periods" -eq 1 ] || fail "the 64 notes were scheduled in $periods periods, not one"
grep -qE '^voices: +64 active, 64 peak' "$LIVE_TMP/spindle.out" || fail "not 64 voices sounding"
underruns=$(sed -nE 's/^stream underruns: +([0-9]+).*/\1/p' "$LIVE_TMP/spindle.out")
[ "${underruns:-x}" = 0 ] || fail "${underruns:-no} stream underruns"
grep -E '^disk streaming' "$LIVE_TMP/spindle.out" | grep -q "64 streams" || fail "not 64 streams"
echo PASSED
