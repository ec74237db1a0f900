#!/usr/bin/env bash
# End to end on a real jackd (dummy backend, -R, period 256): 240 note-ons at offsets
# spread over the period must sound at exactly their frame, none lost, and Spindle's
# reported latency must equal the measured one for every note.
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp
make_instrument
start_jackd "spindle-lat-$$"
start_spindle --backend jack
run_probe --notes 240 --latency 64
kill -USR1 "$SPINDLE_PID"
wait_until 5 grep -q "note-on latency" "$LIVE_TMP/spindle.out" || fail "no stats on SIGUSR1"
stop_spindle
cat "$LIVE_TMP/spindle.out"
grep -Eq "(240|480|720) notes, total min 1.333 / mean 1.333 / max 1.333" "$LIVE_TMP/spindle.out" || fail "summary latency"
echo PASSED
