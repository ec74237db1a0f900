#!/usr/bin/env bash
# Malformed OSC on a running spindle: every message of the table gets one
# /spindle/error naming its address, Spindle keeps playing and answering.
source "$SPINDLE_LIVE_SUPPORT"
source "$SPINDLE_OSC_SUPPORT"
make_instrument
start_jackd "spindle-osc-bad"
OSC_PORT=$(free_port)
SPINDLE_NAME=oscbad
start_osc_spindle "$SPINDLE_NAME" --backend jack --polyphony 64
start_dump

# address | types | values...   (one malformed message per line)
table=(
  "/spindle/bogus"
  "/other/path|i|1"
  "/spindle/note_on|ii|1 60"
  "/spindle/note_on|iiii|1 60 100 1"
  "/spindle/note_on|sii|one 60 100"
  "/spindle/note_on|ifi|1 60.5 100"
  "/spindle/note_on|iii|0 60 100"
  "/spindle/note_on|iii|17 60 100"
  "/spindle/note_on|iii|1 128 100"
  "/spindle/note_off"
  "/spindle/cc|iii|1 200 0"
  "/spindle/pitchbend|ii|1 9000"
  "/spindle/program|iT|1"
  "/spindle/load|i|1"
  "/spindle/load|is|99 /x.sfz"
  "/spindle/load|ii|1 5"
  "/spindle/load|is|1 /nonexistent/spindle/none.sfz"
  "/spindle/unload|i|-3"
  "/spindle/part/volume|if|1 40"
  "/spindle/part/pan|is|1 left"
  "/spindle/part/mute|ii|1 2"
  "/spindle/polyphony|i|1000"
  "/spindle/preload|i|10"
  "/spindle/quality|i|4"
  "/spindle/panic|i|1"
  "/spindle/subscribe|f|100"
  "/spindle/subscribe|s|fast"
  "/spindle/unsubscribe"
  "/spindle/reply_port|h|70000"
  "/spindle/session/load|s|/nonexistent-dir/x.spindle"
  "/spindle/session/save|s|/nonexistent-dir/x.spindle"
)
n=0
for row in "${table[@]}"; do
  IFS='|' read -r address types values <<<"$row"
  # shellcheck disable=SC2086
  oscsend 127.0.0.1 "$OSC_PORT" "$address" $types $values || fail "oscsend $row"
  n=$((n + 1))
  wait_replies "/spindle/error ss \"$address\"" 1 5 || fail "no error for: $row"
  wait_replies "/spindle/error" "$n" 5 || fail "not exactly one error per message at: $row"
done
# Not OSC at all, through bash's /dev/udp.
printf 'this is not OSC' >"/dev/udp/127.0.0.1/$OSC_PORT"
n=$((n + 1))
wait_replies '/spindle/error ss "" "unreadable OSC packet' 1 5 || fail "no error for a garbage packet"
sleep 0.3
[ "$(replies /spindle/error)" -eq "$n" ] || fail "$(replies /spindle/error) errors for $n malformed messages"
echo "$n malformed messages, $n errors:"
grep /spindle/error "$LIVE_TMP/dump.txt" | cut -d' ' -f2- | head -n 40

kill -0 "$SPINDLE_PID" || fail "spindle died"
record 2 "$LIVE_TMP/after.wav"
sleep 0.5
osc /spindle/note_on iii 1 60 100
wait_until 10 bash -c "! kill -0 $REC_PID" || fail "jack_rec did not finish"
[ "$(onsets "$LIVE_TMP/after.wav" | wc -l)" -eq 1 ] || fail "no note after the malformed messages"
pongs=$(replies /spindle/pong)
osc /spindle/ping
wait_replies /spindle/pong $((pongs + 1)) 5 || fail "no pong after the malformed messages"
stop_spindle
echo PASSED
