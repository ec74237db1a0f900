#!/usr/bin/env bash
# /spindle/part/controls end to end: load an instrument that labels its
# controls (label_cc) over OSC, move one with /spindle/cc, and read the labelled
# controls back with their values from the running engine.
source "$SPINDLE_LIVE_SUPPORT"
source "$SPINDLE_OSC_SUPPORT"
make_instrument
labelled=$LIVE_TMP/labelled.sfz
printf '%s\n' '<control> label_cc7=Master Vol label_cc74=Brightness label_cc300=Room mic' \
  '<region> sample=*sine' >"$labelled"
start_jackd "spindle-osc-controls"
OSC_PORT=$(free_port)
start_osc_spindle oscctl --backend jack
start_dump

osc /spindle/load is 2 "$labelled"
wait_replies "/spindle/load/done" 1 30 || fail "no /spindle/load/done"
osc /spindle/cc iii 2 74 64
sleep 0.3  # the CC is played one period later; the engine publishes its value after that
osc /spindle/part/controls i 2
wait_replies "/spindle/part/controls " 1 5 || fail "no /spindle/part/controls"
reply=$(grep -- "/spindle/part/controls " "$LIVE_TMP/dump.txt" | tail -n 1)
echo "$reply"
# CC7 starts at 100 (the MIDI default), CC74 was set to 64, controller 300 was never set.
grep -q '/spindle/part/controls iisfisfisf 2 7 "Master Vol" 0.787402 74 "Brightness" 0.503937 300 "Room mic" 0.000000' \
  <<<"$reply" || fail "wrong reply: $reply"
osc /spindle/part/controls i 1  # the impulse instrument labels nothing
wait_replies "/spindle/part/controls i 1" 1 5 || fail "no reply for part 1"
stop_spindle
echo PASSED
