# Helpers for a whole cluster on the NetJACK2 rig (sourced after net_support.sh): the
# cluster secret, slaves whose Spindle takes only signed OSC on their own address, a
# master Spindle that drives and routes them (--host NAME=ADDR:PORT@CLIENT), and its
# OSC asked with the secret (spindle-osc).
CLUSTER_PORT=$(( 21000 + NET_ID % 4000 ))  # every Spindle's OSC port, apart from other rigs'

# cluster_secret: 32 random bytes, mode 0600, in $CLUSTER_SECRET.
cluster_secret() {
  CLUSTER_SECRET="$LIVE_TMP/cluster.secret"
  head -c 32 /dev/urandom >"$CLUSTER_SECRET"
  chmod 600 "$CLUSTER_SECRET"
}
cluster_ip() { echo "$NET_SUBNET.$((10 + $1))"; }

# cluster_quiet: $CLUSTER_QUIET, an instrument that plays key 0 only (the probe's notes
# are keys 36..83): what a Spindle starts with when it should play nothing.
cluster_quiet() {
  CLUSTER_QUIET="$LIVE_TMP/inst/quiet.sfz"
  echo "<region> sample=impulse.wav lokey=0 hikey=0" >"$CLUSTER_QUIET"
}

# cluster_slave H L: host H's jackd -d net (-l L) and a headless Spindle playing
# nothing (cluster_quiet), its OSC on the host's address, signed only.
cluster_slave() {
  net_slave "$1" "$2" --instrument "$CLUSTER_QUIET" --osc-bind "$(cluster_ip "$1")" --osc-port "$CLUSTER_PORT" \
    --osc-secret-file "$CLUSTER_SECRET" --osc-require-signed
}

# cluster_master ARGS...: the master Spindle on the master's jackd, client "master",
# playing nothing itself, its OSC on the bridge address with the secret; ARGS are its
# --host options.
cluster_master() {
  "$SPINDLE_EXE" --headless --backend jack --name master --instrument "$CLUSTER_QUIET" --osc-bind "$NET_MASTER_IP" --osc-port "$CLUSTER_PORT" \
    --osc-secret-file "$CLUSTER_SECRET" "$@" >"$LIVE_TMP/master_spindle.out" 2>"$LIVE_TMP/master_spindle.err" &
  MASTER_SPINDLE=$!
  track "$MASTER_SPINDLE"
  wait_until 15 port_exists master:midi_in || fail "the master spindle's ports did not appear"
}

# osc_signed [NS] ADDR /path [types args...]: spindle-osc with the secret (from
# namespace NS when it is one of the rig's hosts' numbers); replies in $LIVE_TMP/signed.out.
osc_signed() {
  local ns=()
  if [[ "$1" =~ ^[0-9]+$ ]]; then ns=(ip netns exec "$(net_ns "$1")"); shift; fi
  local addr=$1; shift
  "${ns[@]}" "$SPINDLE_OSC" --secret-file "$CLUSTER_SECRET" --identity cluster-test --wait 400 "$addr" \
    "$CLUSTER_PORT" "$@" >"$LIVE_TMP/signed.out" 2>&1
}
# master_osc /path [types args...]: the master asked with the secret; its reply of the
# same path on stdout (none for a command).
master_osc() {
  osc_signed "$NET_MASTER_IP" "$@" || fail "spindle-osc to the master failed: $(cat "$LIVE_TMP/signed.out")"
  grep "^$1 " "$LIVE_TMP/signed.out" | tail -1 || [ $? -eq 1 ]  # a command has no reply
}
# reply_field LINE KEY: the value after "KEY" in a reply's (name, value) pairs.
reply_field() {
  python3 - "$1" "$2" <<'PY'
import shlex, sys
words = shlex.split(sys.argv[1])[2:]
print(next((words[i + 1] for i in range(len(words) - 1) if words[i] == sys.argv[2]), ""))
PY
}
# host_trip H: net_round_trip_frames of host hH as the master reports it (/spindle/host/status).
host_trip() {
  local v
  v=$(reply_field "$(master_osc /spindle/host/status s "h$1")" net_round_trip_frames)
  echo "${v%%.*}"
}
# host_listed H STATE [ROUTED]: the master's /spindle/host/list has host hH in STATE
# (with routed ROUTED: 3 MIDI and audio linked, 0 client absent).
host_listed() {
  master_osc /spindle/host/list | python3 -c '
import shlex, sys
w = shlex.split(sys.stdin.read())[2:]
rows = [w[i:i + 6] for i in range(0, len(w) - 5, 6)]
sys.exit(0 if any(r[0] == "h" + sys.argv[1] and r[1] == sys.argv[2] and (len(sys.argv) < 4 or r[5] == sys.argv[3]) for r in rows) else 1)' "$@"
}
# host_loaded H PART NAME: the master's /spindle/host/parts has host hH's PART loaded
# with the instrument NAME (as the host's /spindle/load/done named it).
host_loaded() {
  master_osc /spindle/host/parts s "h$1" | python3 -c '
import shlex, sys
w = shlex.split(sys.stdin.read())[3:]
sys.exit(0 if any(w[i] == sys.argv[1] and w[i + 3] == sys.argv[2] for i in range(0, len(w) - 4, 5)) else 1)' "$2" "$3"
}
# master_dropped H: the master's graph, read, has no client of host H.
master_dropped() {
  local ports
  ports=$(jack_lsp) || return 1
  ! grep -qE "^spindle_host$1(-[0-9]+)?:midi_to_slave_1\$" <<<"$ports"
}
# settled H: the master's graph holds one client of host H. A slave whose first sync
# failed comes back while netmanager still holds the client of the failed one (dropped
# after NetJACK2's 2 s timeout); both exchange packets with it meanwhile.
settled() {
  local ports
  ports=$(jack_lsp) || return 1
  [ "$(grep -cE "^spindle_host$1(-[0-9]+)?:midi_to_slave_1\$" <<<"$ports")" = 1 ]
}
# routed_client H: host hH's client as the master's /spindle/host/list names it (the
# one it routes: spindle_hostH, or spindle_hostH-NN beside an old one not yet dropped).
routed_client() {
  master_osc /spindle/host/list | python3 -c '
import shlex, sys
w = shlex.split(sys.stdin.read())[2:]
print(next((w[i + 4] for i in range(0, len(w) - 5, 6) if w[i] == "h" + sys.argv[1]), ""))' "$1"
}
# routed H: the master linked master:to_hH to host H's client and that client's audio back.
routed() {
  local c
  c=$(routed_client "$1")
  [ -n "$c" ] && jack_lsp -c "master:to_h$1" | grep -qx "   $c:midi_to_slave_1" &&
    jack_lsp -c "$c:from_slave_1" | grep -q "^   system:playback_1$"
}
