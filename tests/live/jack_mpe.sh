#!/usr/bin/env bash
# MPE over JACK: spindle --headless --mpe lower with the impulse instrument on part 1
# only (parts 2..16 unloaded over OSC). The probe plays 150 notes cycling through member
# channels 2..16 at offsets spread over the period: each plays part 1's instrument, its
# onset at its exact frame plus the declared latency, and the note log names its own
# channel. Then /spindle/mpe lower 0 switches the zone off: the same notes on channel 2
# start no voice (part 2 is empty), and /spindle/status says mpe_lower 0.
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp oscsend
start_jackd "spindle-mpe-$$"
make_instrument
OSC_PORT=$(free_port)
start_spindle --mpe lower --osc-port "$OSC_PORT"
for part in $(seq 2 16); do oscsend 127.0.0.1 "$OSC_PORT" /spindle/unload i "$part" || fail "oscsend failed"; done
sleep 0.5
run_probe --notes 150 --channels 2-16 --latency 64
for ch in 2 9 16; do
  grep -q "^note ch=$ch key=.* voices=[1-9]" "$LIVE_TMP/notes.log" || fail "no note on member channel $ch started a voice"
done
grep -q "voices=0" "$LIVE_TMP/notes.log" && fail "a note of the zone started no voice: $(grep -m1 voices=0 "$LIVE_TMP/notes.log")"

oscsend 127.0.0.1 "$OSC_PORT" /spindle/mpe si lower 0 || fail "oscsend failed"
sleep 0.3
lines=$(wc -l <"$LIVE_TMP/notes.log")
rc=0
"$SPINDLE_PROBE" run --target spindle --note-log "$LIVE_TMP/notes.log" --skip-lines "$lines" --notes 20 \
  --channels 1-2 --latency 64 >"$LIVE_TMP/plain.out" || rc=$?
[ "$rc" -ne 0 ] || fail "with the zone off, the probe should find channel 2's notes lost (part 2 is empty)"
tail -n +"$((lines + 1))" "$LIVE_TMP/notes.log" >"$LIVE_TMP/plain.log"
[ "$(grep -c '^note ch=2 .* voices=0' "$LIVE_TMP/plain.log")" -eq 10 ] ||
  fail "with the zone off, channel 2's 10 notes should start no voice: $(grep -c '^note ch=2 ' "$LIVE_TMP/plain.log") logged"
[ "$(grep -c '^note ch=1 .* voices=[1-9]' "$LIVE_TMP/plain.log")" -eq 10 ] || fail "with the zone off, channel 1's notes did not all play"
stop_spindle
echo PASSED
