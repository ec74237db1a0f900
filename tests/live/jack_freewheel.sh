#!/usr/bin/env bash
# JACK freewheel with a streamed instrument on a slow disk (every read 20 ms, a test
# hook): while the server runs cycles as fast as it can, Spindle waits for the disk
# between blocks, so 24 notes streaming a 20 s sample at up to 4x speed render with no
# underrun (without the wait: hundreds); then it follows the server out of freewheel.
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp jack_freewheel
make_instrument
start_jackd "spindle-fw-$$"
SPINDLE_TEST_DISK_DELAY_MS=20 "$SPINDLE_EXE" --headless --instrument "$LIVE_TMP/inst/streamed.sfz" --name spindle --backend jack --osc-port 0 \
  >"$LIVE_TMP/spindle.out" 2>"$LIVE_TMP/spindle.err" &
SPINDLE_PID=$!
track "$SPINDLE_PID"
wait_until 15 port_exists spindle:midi_in || fail "spindle's ports did not appear"
jack_freewheel y || fail "jack_freewheel y"
wait_until 5 bash -c "kill -USR1 $SPINDLE_PID; sleep 0.2; grep -q '(freewheeling)' '$LIVE_TMP/spindle.out'" ||
  fail "spindle did not see freewheel start"
"$SPINDLE_PROBE" chord --target spindle --keys 24 || fail "cannot send the chord"
sleep 3
underruns=$(stats_line "stream underruns:" | sed -E 's/stream underruns: +([0-9]+).*/\1/')
frames=$(stats_line "backend:" | sed -E 's/.*period [0-9]+ frames, ([0-9]+) frames processed.*/\1/')
peak=$(stats_line "voices:" | sed -E 's/.* ([0-9]+) peak.*/\1/')
jack_freewheel n || fail "jack_freewheel n"
# 3 s of freewheel must have rendered more than 3 s of audio, or it did not freewheel.
[ "$frames" -gt $((48000 * 6)) ] || fail "only $frames frames processed: no freewheel"
[ "$peak" -eq 24 ] || fail "$peak voices, not 24"
[ "$underruns" -eq 0 ] || fail "$underruns stream underruns in freewheel"
wait_until 5 bash -c "kill -USR1 $SPINDLE_PID; sleep 0.2; grep '^backend:' '$LIVE_TMP/spindle.out' | tail -1 | grep -q 'processed, '" ||
  fail "spindle did not see freewheel end"
stop_spindle
cat "$LIVE_TMP/spindle.out"
echo PASSED
