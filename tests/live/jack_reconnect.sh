#!/usr/bin/env bash
# jackd killed and started again during playback: Spindle reconnects by itself and
# plays again, sample-accurately, with no restart.
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp
make_instrument
start_jackd "spindle-rec-$$"
start_spindle --backend jack
run_probe --notes 40
stop_pid "$JACKD_PID"
wait_until 10 grep -q "server went away" "$LIVE_TMP/spindle.err" || fail "spindle did not notice the server going away"
kill -0 "$SPINDLE_PID" || fail "spindle died with the server"
sleep 1
start_jackd "$JACK_DEFAULT_SERVER"
wait_until 15 port_exists spindle:midi_in || fail "spindle did not reconnect"
grep -q "reconnected" "$LIVE_TMP/spindle.err" || fail "no reconnect message"
# The note log keeps growing in one file: the probe compares only the new lines.
lines=$(wc -l <"$LIVE_TMP/notes.log")
run_probe --notes 40 --skip-lines "$lines"
stop_spindle
grep -q "1 reconnects" "$LIVE_TMP/spindle.out" || fail "summary does not count the reconnect"
cat "$LIVE_TMP/spindle.out" "$LIVE_TMP/spindle.err"
echo PASSED
