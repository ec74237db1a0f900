#!/usr/bin/env bash
# MIDI clock through a real JACK MIDI port: clocks at 90, then 140 BPM set Spindle's tempo
# (to 0.1 BPM), a stopped clock leaves its tempo, and a set tempo then replaces it.
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp oscsend oscdump python3
make_instrument
OSC_PORT=$(free_port)
start_jackd "spindle-clock-$$"
start_spindle --backend jack --osc-port "$OSC_PORT" --tempo 100
start_dump
# tempo_reply: a fresh /spindle/tempo reply, e.g. <time> /spindle/tempo fsf 90.000000 "clock" 100.000000
tempo_reply() {
  local before
  before=$(count_matches '/spindle/tempo ' "$LIVE_TMP/dump.txt")
  oscsend 127.0.0.1 "$OSC_PORT" /spindle/tempo/get
  wait_until 5 count_above '/spindle/tempo ' "$before" || fail "no /spindle/tempo reply"
  grep '/spindle/tempo ' "$LIVE_TMP/dump.txt" | tail -1
}
# expect BPM SOURCE: the tempo playing is BPM within 0.1, from SOURCE.
expect() {
  local line
  line=$(tempo_reply)
  echo "$line"
  python3 - "$line" "$1" "$2" <<'PY' || fail "expected $1 BPM from $2, got: $line"
import sys
fields = sys.argv[1].split()
at = fields.index("/spindle/tempo")  # oscdump prints a timestamp first
bpm, source = float(fields[at + 2]), fields[at + 3].strip('"')
sys.exit(0 if abs(bpm - float(sys.argv[2])) <= 0.1 and source == sys.argv[3] else 1)
PY
}
expect 100 set
"$SPINDLE_PROBE" clock --target spindle --bpm 90 --seconds 2 >"$LIVE_TMP/clock90.out" 2>&1 || fail "the clock probe failed"
cat "$LIVE_TMP/clock90.out"
expect 90 clock
"$SPINDLE_PROBE" clock --target spindle --bpm 140 --seconds 2 --stop 1 >"$LIVE_TMP/clock140.out" 2>&1 ||
  fail "the clock probe failed"
cat "$LIVE_TMP/clock140.out"
expect 140 clock
sleep 0.5
expect 140 clock  # stopped: its tempo stays
oscsend 127.0.0.1 "$OSC_PORT" /spindle/tempo f 96.5
sleep 0.2
expect 96.5 set
stop_spindle
echo PASSED
