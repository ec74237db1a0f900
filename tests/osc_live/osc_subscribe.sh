#!/usr/bin/env bash
# Pushed status arrives at the asked rate and stops on unsubscribe; TCP works too.
source "$SPINDLE_LIVE_SUPPORT"
source "$SPINDLE_OSC_SUPPORT"
make_instrument
start_jackd "spindle-osc-sub"
OSC_PORT=$(free_port)
SPINDLE_NAME=oscsub
start_osc_spindle "$SPINDLE_NAME" --backend jack
start_dump

count_in_window() {  # RATE SECONDS: status messages pushed in the window
  local before after
  osc /spindle/subscribe f "$1"
  sleep 0.5                                      # settle on the new rate
  before=$(replies "/spindle/status ")
  sleep "$2"
  after=$(replies "/spindle/status ")
  echo $((after - before))
}
got=$(count_in_window 10 2)
echo "10 Hz for 2 s: $got"
[ "$got" -ge 15 ] && [ "$got" -le 25 ] || fail "10 Hz for 2 s gave $got messages"
got=$(count_in_window 30 2)
echo "30 Hz for 2 s: $got"
[ "$got" -ge 50 ] && [ "$got" -le 70 ] || fail "30 Hz for 2 s gave $got messages"
osc /spindle/unsubscribe
sleep 0.3
before=$(replies "/spindle/status ")
sleep 1
[ "$(replies "/spindle/status ")" -eq "$before" ] || fail "status still pushed after unsubscribe"

# TCP (liblo's TCP client): the reply port applies to the host, so the pong arrives.
pongs=$(replies /spindle/pong)
oscsend "osc.tcp://127.0.0.1:$OSC_PORT" /spindle/ping || fail "TCP oscsend failed"
wait_replies /spindle/pong $((pongs + 1)) 5 || fail "no pong for a TCP ping"
stop_spindle
echo PASSED
