#!/usr/bin/env bash
# Signed OSC across a network: spindle bound to a veth address in one network namespace
# with a secret, clients in another. Plain oscsend is refused (the level does not change)
# and counted; spindle-osc with the secret works and its replies verify; the same signed
# packet sent twice is refused the second time; a wrong secret is refused; each refusal
# is counted in /spindle/auth and in spindle's summary. Without a secret, or with a secret file open to others,
# spindle refuses to start. Skips (77) where network namespaces are not permitted.
source "$SPINDLE_LIVE_SUPPORT"
source "$SPINDLE_OSC_SUPPORT"
need ip oscsend
[ -x "${SPINDLE_OSC:-}" ] || skip "spindle-osc not built"

RUN_ID=$$
NS_S="spx${RUN_ID}s"
NS_C="spx${RUN_ID}c"
VETH_S="vsx${RUN_ID}s"
VETH_C="vsx${RUN_ID}c"
net_cleanup() {
  osc_cleanup
  # Teardown. Deleting a namespace removes its veth end, and the pair with it.
  ip netns del "$NS_S" 2>/dev/null || echo "($NS_S was gone)"
  ip netns del "$NS_C" 2>/dev/null || echo "($NS_C was gone)"
  ip link del "$VETH_S" 2>/dev/null || [ ! -e "/sys/class/net/$VETH_S" ]
}
trap net_cleanup EXIT
ip netns add "$NS_S" 2>/dev/null || skip "ip netns add is not permitted here"
ip netns add "$NS_C" || fail "cannot add a second network namespace"
ip link add "$VETH_S" type veth peer name "$VETH_C" || skip "veth pairs are not permitted here"
ip link set "$VETH_S" netns "$NS_S" && ip link set "$VETH_C" netns "$NS_C" || fail "cannot move the veth ends"
ip -n "$NS_S" addr add 10.77.0.1/24 dev "$VETH_S" && ip -n "$NS_C" addr add 10.77.0.2/24 dev "$VETH_C" ||
  fail "cannot address the veth pair"
for ns in "$NS_S" "$NS_C"; do ip -n "$ns" link set lo up; done
ip -n "$NS_S" link set "$VETH_S" up && ip -n "$NS_C" link set "$VETH_C" up || fail "cannot bring the veth pair up"

make_instrument
start_jackd "spindle-osc-auth"
OSC_PORT=$(free_port)
SPINDLE_NAME=oscauth
umask 077
head -c 32 /dev/urandom | base64 >"$LIVE_TMP/secret"
head -c 32 /dev/urandom | base64 >"$LIVE_TMP/wrong"
cp "$LIVE_TMP/secret" "$LIVE_TMP/open" && chmod 644 "$LIVE_TMP/open"

# The spindle command in the server namespace, OSC on 10.77.0.1.
SPINDLE_IN_NS=(ip netns exec "$NS_S" "$SPINDLE_EXE" --headless --instrument "$LIVE_TMP/inst/impulse.sfz"
  --name "$SPINDLE_NAME" --no-connect --osc-port "$OSC_PORT" --osc-bind 10.77.0.1 --backend jack)
# refuses_to_start PATTERN ARGS...: spindle exits with an error matching PATTERN.
refuses_to_start() {
  local pattern=$1; shift
  if timeout 20 "${SPINDLE_IN_NS[@]}" "$@" >"$LIVE_TMP/refused.out" 2>&1; then fail "spindle started with: $*"; fi
  grep -q -- "$pattern" "$LIVE_TMP/refused.out" || fail "no error naming '$pattern': $(cat "$LIVE_TMP/refused.out")"
  echo "refused to start ($*): $(grep -- "$pattern" "$LIVE_TMP/refused.out" | head -n 1)"
}
refuses_to_start "--osc-secret-file"
refuses_to_start "$LIVE_TMP/open" --osc-secret-file "$LIVE_TMP/open"

"${SPINDLE_IN_NS[@]}" --osc-secret-file "$LIVE_TMP/secret" >"$LIVE_TMP/spindle.out" 2>"$LIVE_TMP/spindle.err" &
SPINDLE_PID=$!
track "$SPINDLE_PID"
wait_until 15 port_exists "$SPINDLE_NAME:out_L" || fail "spindle's ports did not appear"

# signed SECRET ARGS...: spindle-osc from the client namespace; its output in $LIVE_TMP/signed.out.
signed() {
  local secret=$1; shift
  ip netns exec "$NS_C" "$SPINDLE_OSC" --secret-file "$secret" --identity test-master --wait 400 "$@" \
    >"$LIVE_TMP/signed.out" 2>&1
}
ping_ok() { signed "$LIVE_TMP/secret" 10.77.0.1 "$OSC_PORT" /spindle/ping && grep -qx "/spindle/pong " "$LIVE_TMP/signed.out"; }
wait_until 10 ping_ok || fail "no verified /spindle/pong over the veth pair: $(cat "$LIVE_TMP/signed.out")"
# part1_volume: part 1's volume as a signed session save writes it.
part1_volume() {
  signed "$LIVE_TMP/secret" 10.77.0.1 "$OSC_PORT" /spindle/session/save s "$LIVE_TMP/now.spindle" ||
    fail "signed session save failed: $(cat "$LIVE_TMP/signed.out")"
  grep -q "^/spindle/session/saved " "$LIVE_TMP/signed.out" || fail "no verified /spindle/session/saved"
  awk '/^\[part 1\]/ {p = 1} p && /^volume = / {print $3; exit}' "$LIVE_TMP/now.spindle"
}
# auth_count FIELD: a count of the verified /spindle/auth reply (unsigned, bad_mac, replayed, stale).
auth_count() {
  signed "$LIVE_TMP/secret" 10.77.0.1 "$OSC_PORT" /spindle/auth/get || fail "signed /spindle/auth/get failed"
  python3 - "$1" "$LIVE_TMP/signed.out" <<'PY'
import shlex, sys
line = next(l for l in open(sys.argv[2]) if l.startswith("/spindle/auth "))
words = shlex.split(line)[2:]
print(dict(zip(["mode", "verified", "unsigned", "bad_mac", "replayed", "stale"], words))[sys.argv[1]])
PY
}
[ "$(auth_count mode)" = signed_remote ] || fail "mode is $(auth_count mode), not signed_remote"
[ "$(part1_volume)" = 0 ] || fail "part 1 does not start at 0 dB"

ip netns exec "$NS_C" oscsend 10.77.0.1 "$OSC_PORT" /spindle/part/volume if 1 -12.0 || fail "oscsend failed"
sleep 0.3
[ "$(part1_volume)" = 0 ] || fail "an unsigned oscsend changed the volume to $(part1_volume)"
[ "$(auth_count unsigned)" = 1 ] || fail "unsigned refusals: $(auth_count unsigned), not 1"
echo "plain oscsend refused and counted"

signed "$LIVE_TMP/secret" 10.77.0.1 "$OSC_PORT" /spindle/part/volume if 1 -12.0 || fail "signed set failed"
[ "$(part1_volume)" = -12 ] || fail "a signed volume set gave $(part1_volume), not -12"
echo "spindle-osc with the secret sets the volume"

signed "$LIVE_TMP/secret" --dump-packet "$LIVE_TMP/packet.bin" 10.77.0.1 "$OSC_PORT" /spindle/part/volume if 1 -3.0 ||
  fail "signed set (dumped) failed"
[ "$(part1_volume)" = -3 ] || fail "the dumped packet's set gave $(part1_volume), not -3"
signed "$LIVE_TMP/secret" 10.77.0.1 "$OSC_PORT" /spindle/part/volume if 1 -9.0 || fail "signed set to -9 failed"
if signed "$LIVE_TMP/secret" --send-packet "$LIVE_TMP/packet.bin" 10.77.0.1 "$OSC_PORT"; then
  fail "the replayed packet got no error: $(cat "$LIVE_TMP/signed.out")"
fi
grep -q "^unsigned /spindle/error .*replayed" "$LIVE_TMP/signed.out" || fail "no replay error: $(cat "$LIVE_TMP/signed.out")"
[ "$(part1_volume)" = -9 ] || fail "the replayed packet set the volume back to $(part1_volume)"
[ "$(auth_count replayed)" = 1 ] || fail "replay refusals: $(auth_count replayed), not 1"
echo "the same signed packet sent again is refused and counted"

if signed "$LIVE_TMP/wrong" 10.77.0.1 "$OSC_PORT" /spindle/part/volume if 1 -20.0; then
  fail "a wrong secret got no error"
fi
grep -q "^unsigned /spindle/error .*signature does not match" "$LIVE_TMP/signed.out" ||
  fail "no bad-signature error: $(cat "$LIVE_TMP/signed.out")"
[ "$(part1_volume)" = -9 ] || fail "a wrong secret set the volume to $(part1_volume)"
[ "$(auth_count bad_mac)" = 1 ] || fail "bad-MAC refusals: $(auth_count bad_mac), not 1"
[ "$(auth_count unsigned)" = 1 ] && [ "$(auth_count stale)" = 0 ] || fail "other refusal counts changed"
echo "a wrong secret is refused and counted"
stop_spindle
grep "^osc: " "$LIVE_TMP/spindle.out" || fail "no osc line in spindle's summary"
grep -q "^osc: .* signed accepted; refused: 1 unsigned, 1 bad_mac, 1 replayed, 0 stale, 0 misaddressed, 0 too_many_senders$" "$LIVE_TMP/spindle.out" ||
  fail "the summary's refusal counts are not 1 unsigned, 1 bad_mac, 1 replayed, 0 stale, 0 misaddressed, 0 too_many_senders"
echo PASSED
