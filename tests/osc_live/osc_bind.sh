#!/usr/bin/env bash
# The OSC server is reachable on loopback only, unless --osc-bind opts in: every INET
# socket spindle owns is bound to 127.0.0.1 (from /proc/PID/fd and /proc/PID/net/*);
# --osc-bind 0.0.0.0 without a secret refuses to start unless --osc-insecure opts in
# twice; with it the port is bound to any address.
source "$SPINDLE_LIVE_SUPPORT"
source "$SPINDLE_OSC_SUPPORT"
make_instrument
start_jackd "spindle-osc-bind"

# bound_sockets PID: "proto address:port" for each INET socket of PID (addresses in /proc's hex).
bound_sockets() {
  python3 - "$1" <<'PY'
import os, sys
pid = sys.argv[1]
inodes = set()
for fd in os.listdir(f"/proc/{pid}/fd"):
    try:
        target = os.readlink(f"/proc/{pid}/fd/{fd}")
    except OSError:
        continue
    if target.startswith("socket:["):
        inodes.add(target[8:-1])
for proto in ("udp", "tcp", "udp6", "tcp6"):
    for line in open(f"/proc/{pid}/net/{proto}").readlines()[1:]:
        f = line.split()
        if f[9] in inodes:
            address, port = f[1].split(":")
            print(proto, address + ":" + str(int(port, 16)))
PY
}

OSC_PORT=$(free_port)
SPINDLE_NAME=oscbind
start_osc_spindle "$SPINDLE_NAME" --backend jack
start_dump
bound_sockets "$SPINDLE_PID" | tee "$LIVE_TMP/sockets.txt"
grep -qx "udp 0100007F:$OSC_PORT" "$LIVE_TMP/sockets.txt" || fail "no UDP socket on 127.0.0.1:$OSC_PORT"
grep -qx "tcp 0100007F:$OSC_PORT" "$LIVE_TMP/sockets.txt" || fail "no TCP socket on 127.0.0.1:$OSC_PORT"
if grep -v " 0100007F:" "$LIVE_TMP/sockets.txt"; then fail "spindle has a socket on a non-loopback address"; fi

# A second address of this host: spindle must not answer there. Where the host has none
# (a machine with no network), one is made on a veth pair.
other=$(hostname -I | tr ' ' '\n' | awk '/^[0-9.]+$/ && !/^127\./ { print; exit }')
if [ -z "$other" ]; then
  [ "$(id -u)" = 0 ] || skip "this host has no non-loopback address, and making one needs root"
  OTHER_LINK="spob$$"
  other="10.213.$(( $$ % 250 )).1"
  ip link add "$OTHER_LINK" type veth peer name "spoc$$" || fail "cannot make a veth pair for a second address"
  bind_cleanup() { osc_cleanup; ip link del "$OTHER_LINK"; }
  trap bind_cleanup EXIT
  ip addr add "$other/24" dev "$OTHER_LINK" && ip link set "$OTHER_LINK" up && ip link set "spoc$$" up ||
    fail "cannot give $OTHER_LINK the address $other"
fi
pongs=$(replies /spindle/pong)
oscsend "$other" "$OSC_PORT" /spindle/ping || fail "oscsend to $other failed"
sleep 0.5
[ "$(replies /spindle/pong)" -eq "$pongs" ] || fail "spindle answered on $other"
echo "no answer on $other:$OSC_PORT, as it should be"
stop_spindle

if timeout 20 "$SPINDLE_EXE" --headless --instrument "$LIVE_TMP/inst/impulse.sfz" --name "$SPINDLE_NAME" \
    --osc-port "$OSC_PORT" --backend jack --osc-bind 0.0.0.0 >"$LIVE_TMP/refused.out" 2>&1; then
  fail "--osc-bind 0.0.0.0 started without a secret or --osc-insecure"
fi
grep -q -- "--osc-insecure" "$LIVE_TMP/refused.out" || fail "the refusal does not name --osc-insecure"
start_osc_spindle "$SPINDLE_NAME" --backend jack --osc-bind 0.0.0.0 --osc-insecure
wait_osc_ready
bound_sockets "$SPINDLE_PID" | tee "$LIVE_TMP/sockets-open.txt"
grep -qx "udp 00000000:$OSC_PORT" "$LIVE_TMP/sockets-open.txt" || fail "--osc-bind 0.0.0.0 did not bind any address"
pongs=$(replies /spindle/pong)
oscsend "$other" "$OSC_PORT" /spindle/reply_port i "$DUMP_PORT" || fail "oscsend to $other failed"
oscsend "$other" "$OSC_PORT" /spindle/ping || fail "oscsend to $other failed"
wait_replies /spindle/pong $((pongs + 1)) 5 || fail "no answer on $other with --osc-bind 0.0.0.0"
stop_spindle
echo PASSED
