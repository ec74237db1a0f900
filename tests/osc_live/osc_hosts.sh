#!/usr/bin/env bash
# One Spindle drives two others (--host): a master and two headless "remote" Spindles
# on other OSC ports, each on its own dummy jackd. They share a cluster secret and the
# hosts require signing from every peer: the master signs all it sends them and reads
# only their signed replies. A library loaded on host a's part 1
# through the master (with a volume and a controller) reaches host a; host a killed
# (SIGKILL) shows as lost in the master while b stays connected; host a started again
# with another instrument gets part 1 back as the master asked it (library, volume,
# controller) without touching the master. Host a's own state is read from the
# session it saves (spindle-osc, signed: /spindle/session/save), so no reply port on host a is
# taken from the master's client on the same address.
source "$SPINDLE_LIVE_SUPPORT"
source "$SPINDLE_OSC_SUPPORT"
make_instrument
library=$LIVE_TMP/labelled.sfz
printf '%s\n' '<control> label_cc74=Brightness' '<region> sample=*sine' >"$library"
secret=$LIVE_TMP/cluster.secret
printf '%s\n' 'osc-hosts-cluster-secret-0123456789' >"$secret"
chmod 600 "$secret"

# start_host NAME SERVER PORT: spindle --headless on the impulse instrument, on jackd SERVER.
start_host() {
  JACK_DEFAULT_SERVER=$2 "$SPINDLE_EXE" --headless --instrument "$LIVE_TMP/inst/impulse.sfz" --name "$1" \
    --osc-port "$3" --osc-secret-file "$secret" --osc-require-signed --backend jack \
    >"$LIVE_TMP/$1.out" 2>"$LIVE_TMP/$1.err" &
  HOST_PID=$!
  track "$HOST_PID"
  JACK_DEFAULT_SERVER=$2 wait_until 15 port_exists "$1:out_L" || fail "host $1's ports did not appear"
}

start_jackd spindle-osc-hosts-a
start_jackd spindle-osc-hosts-b
start_jackd spindle-osc-hosts-m
PORT_A=$(free_port)
PORT_B=$(free_port)
start_host hosta spindle-osc-hosts-a "$PORT_A"
PID_A=$HOST_PID
start_host hostb spindle-osc-hosts-b "$PORT_B"
OSC_PORT=$(free_port)
SPINDLE_NAME=master
start_osc_spindle master --backend jack --osc-secret-file "$secret" --host "a=127.0.0.1:$PORT_A" --host "b=127.0.0.1:$PORT_B"
start_dump

# host_list: the master's last /spindle/host/list reply, after asking again.
host_list() {
  local n
  n=$(replies "/spindle/host/list ")
  osc /spindle/host/list
  wait_replies "/spindle/host/list " $((n + 1)) 5 || fail "no /spindle/host/list reply"
  grep -- "/spindle/host/list " "$LIVE_TMP/dump.txt" | tail -n 1
}
hosts_are() {  # STATE_A STATE_B
  host_list | grep -q "\"a\" \"$1\" \"127.0.0.1\" $PORT_A \"\" 0 \"b\" \"$2\" \"127.0.0.1\" $PORT_B \"\" 0"
}
# host_a_session: host a's part 1 as its own saved session has it.
host_a_session() {
  rm -f "$LIVE_TMP/a.spindle"
  "$SPINDLE_OSC" --secret-file "$secret" 127.0.0.1 "$PORT_A" /spindle/session/save s "$LIVE_TMP/a.spindle" >/dev/null ||
    return 1
  wait_until 3 test -s "$LIVE_TMP/a.spindle" || return 1
  sed -n '/^\[part 1\]/,/^$/p' "$LIVE_TMP/a.spindle"
}
part1_restored() {
  local part
  part=$(host_a_session) || return 1
  grep -qx "instrument = $library" <<<"$part" && grep -qx "volume = -6" <<<"$part" && grep -qx "reverb-send = 40" <<<"$part"
}

wait_until 10 hosts_are connected connected || fail "hosts not connected: $(host_list)"
osc /spindle/host/load sis a 1 "$library"
osc /spindle/host/part/volume sif a 1 -6
osc /spindle/host/part/cc siii a 1 91 40
wait_until 15 part1_restored || fail "host a's part 1 is not what the master asked: $(host_a_session)"
echo "host a loaded: $(host_a_session | tr '\n' ' ')"
osc /spindle/host/parts s a
wait_replies '/spindle/host/parts s' 1 5 || fail "no /spindle/host/parts reply"
grep -- '/spindle/host/parts ' "$LIVE_TMP/dump.txt" | tail -n 1 |
  grep -qF "\"a\" 1 \"$library\" -6.000000 \"labelled\" \"\"" || fail "wrong parts: $(grep -- '/spindle/host/parts ' "$LIVE_TMP/dump.txt" | tail -n 1)"
# host_status: the master's last /spindle/host/status reply for host a, after asking again.
host_status() {
  local n
  n=$(replies "/spindle/host/status ")
  osc /spindle/host/status s a
  wait_replies "/spindle/host/status " $((n + 1)) 5 || fail "no /spindle/host/status reply"
  grep -- "/spindle/host/status " "$LIVE_TMP/dump.txt" | tail -n 1
}
status=$(host_status)
echo "$status"
grep -q '"a" "connected" [0-9.]* [0-9.]* "voices" 0.000000 .*"underruns" 0.000000 .*"memory_bytes" [1-9]' <<<"$status" ||
  fail "wrong host status: $status"
grep -q '"auth_unsigned" 0.000000 "auth_bad_mac" 0.000000 .*"audio_round_trip_ms" -1.000000 "signed" 1.000000 "refused_replies" 0.000000 "routed" 0.000000$' \
  <<<"$status" || fail "control to host a is not signed and verified: $status"
# Plain OSC to a host that requires signing is refused and counted; the master's signed
# control goes on.
oscsend 127.0.0.1 "$PORT_A" /spindle/ping
unsigned_refused() { host_status | grep -q '"auth_unsigned" 1.000000 "auth_bad_mac" 0.000000 .*"signed" 1.000000 "refused_replies" 0.000000 "routed" 0.000000$'; }
wait_until 5 unsigned_refused || fail "host a did not count the unsigned ping: $(host_status)"

# The master's session keeps the hosts and what it asked of them.
osc /spindle/session/save s "$LIVE_TMP/master.spindle"
wait_until 5 test -s "$LIVE_TMP/master.spindle" || fail "the master wrote no session"
grep -A5 '^\[host a\]' "$LIVE_TMP/master.spindle" | tr '\n' '|' |
  grep -qF "address = 127.0.0.1:$PORT_A|part 1 instrument = $library|part 1 volume = -6|part 1 cc 91 = 40|" ||
  fail "the master's session lacks host a: $(cat "$LIVE_TMP/master.spindle")"

kill -KILL "$PID_A"
killed=$SECONDS
wait_until 8 hosts_are lost connected || fail "the master does not show a lost and b connected: $(host_list)"
echo "host a lost after $((SECONDS - killed)) s; list: $(host_list)"

start_host hosta2 spindle-osc-hosts-a "$PORT_A"
started=$SECONDS
wait_until 15 part1_restored || fail "host a's part 1 was not restored: $(host_a_session)"
echo "host a restored $((SECONDS - started)) s after its start: $(host_a_session | tr '\n' ' ')"
wait_until 10 hosts_are connected connected || fail "host a not connected again: $(host_list)"
stop_spindle
echo PASSED
