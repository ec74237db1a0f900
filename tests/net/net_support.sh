# Helpers for the NetJACK2 rig (sourced after tests/live/support.sh): a bridge in the
# root namespace with the master on it, one network namespace per slave host joined to
# it by a veth pair. Everything made here is recorded and removed on exit, processes by
# PID (support.sh), links and namespaces by name, and the JACK files in /dev/shm of the
# servers this rig named.
NET_ID=$(( $$ % 10000 ))
NET_SUBNET="10.$(( 200 + $$ % 50 )).$(( $$ / 50 % 250 ))"
NET_MASTER_IP="$NET_SUBNET.1"
NET_BRIDGE="spnb$NET_ID"
NET_NAMESPACES=()
NET_LINKS=()
NET_SERVERS=()

net_cleanup() {
  local name
  live_cleanup
  # Teardown: a link or namespace may be gone with what held it.
  for name in "${NET_LINKS[@]}"; do ip link del "$name" 2>/dev/null || echo "($name was gone)"; done
  for name in "${NET_NAMESPACES[@]}"; do ip netns del "$name" 2>/dev/null || echo "($name was gone)"; done
  ip link del "$NET_BRIDGE" 2>/dev/null || echo "($NET_BRIDGE was gone)"
  for name in "${NET_SERVERS[@]}"; do
    net_reclaim_server "$name"
    rm -rf /dev/shm/jack_sem.*_"${name}"_* /dev/shm/jack_"${name}"_* "/dev/shm/jack_db-$(id -u)/$name"
  done
}

# net_reclaim_server NAME: a server killed with SIGKILL stays in JACK's shm registry,
# which holds 8 servers for the whole machine; JACK reclaims a dead server's entry only
# when a server of the same name starts. So a dummy jackd of that name starts and stops.
net_reclaim_server() {
  grep -qaF ":$1:" /dev/shm/jack-shm-registry 2>/dev/null || return 0
  jackd -n "$1" -d dummy -r 48000 -p 256 >/dev/null 2>&1 &
  local pid=$!
  wait_until 5 bash -c "! grep -qaF ':$1:' /dev/shm/jack-shm-registry || JACK_DEFAULT_SERVER='$1' jack_lsp" ||
    echo "(the stale JACK server $1 was not reclaimed)"
  stop_pid "$pid"
}
trap net_cleanup EXIT

# net_usable: root, network namespaces and JACK's net driver and netmanager, else skip.
net_usable() {
  need jackd jack_lsp jack_load ip
  [ "$(id -u)" = 0 ] || skip "network namespaces need root"
  local probe="spnp$NET_ID"
  ip netns add "$probe" 2>/dev/null || skip "cannot make a network namespace"
  ip netns del "$probe"
  local help
  help=$(jackd -d net --help 2>&1; echo "(exit $?)")  # its status varies; its text tells
  [[ "$help" == *--latency* ]] || skip "jackd has no net driver (NetJACK2)"
  local dir found=
  dir=$(dirname "$(readlink -f "$(command -v jackd)")")/..
  for so in /usr/lib/*/jack/netmanager.so /usr/lib/jack/netmanager.so "$dir"/lib/*/jack/netmanager.so; do
    [ -e "$so" ] && found=1
  done
  [ -n "$found" ] || skip "JACK's netmanager is not installed"
}

# net_bridge: the bridge the master listens on.
net_bridge() {
  ip link add "$NET_BRIDGE" type bridge || fail "cannot make bridge $NET_BRIDGE"
  ip addr add "$NET_MASTER_IP/24" dev "$NET_BRIDGE"
  ip link set "$NET_BRIDGE" up
}

# net_delay H NS: host H's link, a point-to-point pair of TUN devices joined by
# spindle-netdelay ($SPINDLE_NETDELAY), which delays every packet by $NET_DELAY ("DELAY
# [JITTER]", netem's format: "1ms 0.3ms"; units ms, us or s): DELAY + uniform(-JITTER,
# +JITTER), never reordering (tests/net/NetDelay.cpp). In the root namespace the TUN has
# NET_MASTER_IP with the host as its peer (every host's TUN shares that address), in
# NS the host's address with NET_MASTER_IP as its peer. The TUNs take the veth's names,
# so net_link is the same. Its stats go to $LIVE_TMP/netdelayH.stats when it stops.
net_delay() {
  local h=$1 ns=$2 outer="spnv${NET_ID}h$1" inner="spnp${NET_ID}h$1" out="$LIVE_TMP/netdelay$1.out" rt=()
  local shape
  shape=$(net_delay_ms $NET_DELAY) || fail "NET_DELAY '$NET_DELAY': expected \"DELAY [JITTER]\" with units ms, us or s"
  chrt -f 60 true 2>/dev/null && rt=(chrt -f 60)  # a link late under load would add jitter of its own
  "${rt[@]}" "$SPINDLE_NETDELAY" $shape --stats "$LIVE_TMP/netdelay$h.stats" "$outer" "$inner" >"$out" 2>&1 &
  eval "NET_DELAY_PID_$h=$!"
  track $!
  wait_until 5 grep -q "^ready:" "$out" || fail "host $h: spindle-netdelay did not start: $(cat "$out")"
  NET_LINKS+=("$outer")
  ip link set "$inner" netns "$ns" || fail "cannot move $inner into $ns"
  # IPv4 only: IPv6's own packets at link-up would meet a peer still down (a drop).
  if [ -d /proc/sys/net/ipv6 ]; then
    sysctl -qw "net.ipv6.conf.$outer.disable_ipv6=1" || fail "cannot turn IPv6 off on $outer"
    ip netns exec "$ns" sysctl -qw "net.ipv6.conf.$inner.disable_ipv6=1" || fail "cannot turn IPv6 off on $inner"
  fi
  ip addr add "$NET_MASTER_IP" peer "$NET_SUBNET.$((10 + h))" dev "$outer"
  ip link set "$outer" up
  ip netns exec "$ns" ip addr add "$NET_SUBNET.$((10 + h))" peer "$NET_MASTER_IP" dev "$inner"
  ip netns exec "$ns" ip link set "$inner" up
  NET_LINK_DELAY="spindle-netdelay, $(sed -E 's/^ready: [^,]*, //' "$out")"
}
# net_delay_ms "DELAY [JITTER]": "--delay MS --jitter MS" for spindle-netdelay.
net_delay_ms() {
  local ms=() t
  for t in "$@"; do
    [[ "$t" =~ ^([0-9]+(\.[0-9]+)?)(ms|us|s)$ ]] || return 1
    ms+=("$(awk -v v="${BASH_REMATCH[1]}" -v u="${BASH_REMATCH[3]}" \
      'BEGIN { printf "%.3f", v * (u == "s" ? 1000 : u == "us" ? 0.001 : 1) }')")
  done
  [ ${#ms[@]} -ge 1 ] && [ ${#ms[@]} -le 2 ] || return 1
  echo "--delay ${ms[0]} --jitter ${ms[1]:-0}"
}
# net_delay_stats H: stops host H's spindle-netdelay and prints what it added per direction.
net_delay_stats() {
  local pid="NET_DELAY_PID_$1"
  [ -n "${!pid:-}" ] || return 0
  stop_pid "${!pid}"
  sed "s/^/host $1 link: /" "$LIVE_TMP/netdelay$1.stats"
}

# net_host H: namespace spindle-net-ID-H with address SUBNET.(10+H), linked to the
# bridge by a veth pair, or, when NET_DELAY is set and spindle-netdelay built, to the
# master by a delayed link (net_delay).
NET_LINK_DELAY=none
net_host() {
  local h=$1 ns="spindle-net-$NET_ID-$1" outer="spnv${NET_ID}h$1" inner="spnp${NET_ID}h$1"
  ip netns add "$ns" || fail "cannot make namespace $ns"
  NET_NAMESPACES+=("$ns")
  ip netns exec "$ns" ip link set lo up
  if [ -n "${NET_DELAY:-}" ] && [ -x "${SPINDLE_NETDELAY:-}" ] && [ -c /dev/net/tun ]; then
    net_delay "$h" "$ns"
    return
  fi
  [ -z "${NET_DELAY:-}" ] || echo "NET_DELAY: spindle-netdelay is not built (SPINDLE_NETDELAY) or no /dev/net/tun: links without added delay"
  ip link add "$outer" type veth peer name "$inner" || fail "cannot make veth $outer"
  NET_LINKS+=("$outer")
  ip link set "$inner" netns "$ns"
  ip link set "$outer" master "$NET_BRIDGE"
  ip link set "$outer" up
  ip netns exec "$ns" ip addr add "$NET_SUBNET.$((10 + h))/24" dev "$inner"
  ip netns exec "$ns" ip link set "$inner" up
}
net_ns() { echo "spindle-net-$NET_ID-$1"; }
net_link() { echo "spnv${NET_ID}h$1"; }

# net_master: jackd (dummy, 48 kHz, period 256, client timeout -t NET_TIMEOUT_MS) and
# netmanager listening on the bridge. A slave lost without a word blocks its netmanager
# client in recv() for NetJACK2's fixed 2 s receive timeout; JACK's engine logs an xrun
# on the first cycle that client has not finished after each graph switch, and switches
# without it only once the client timeout has passed. With JACK's default (two periods)
# that is an xrun every other period for 2 s; with a timeout longer than 2 s it is the
# first cycle only (README "A slave lost").
NET_TIMEOUT_MS=${NET_TIMEOUT_MS:-3000}
net_master() {
  NET_MASTER="spindle-netm-$$"
  NET_SERVERS+=("$NET_MASTER")
  export JACK_DEFAULT_SERVER=$NET_MASTER
  jackd -n "$NET_MASTER" -R -P 70 -t "$NET_TIMEOUT_MS" -d dummy -r 48000 -p 256 \
    >"$LIVE_TMP/master.out" 2>&1 &
  JACKD_PID=$!
  track "$JACKD_PID"
  wait_until 15 jack_lsp || fail "jackd $NET_MASTER did not start"
  jack_load netmanager netmanager -i "-a $NET_MASTER_IP" >"$LIVE_TMP/jack_load.out" 2>&1 ||
    fail "cannot load netmanager: $(cat "$LIVE_TMP/jack_load.out")"
}

# net_slave H L [ARGS...]: jackd -d net in host H's namespace with -l L, 1 MIDI in, 2
# audio out, named spindle_hostH on the master; then spindle --headless on it with ARGS
# (default: the impulse instrument). It connects its outputs to system:playback_1/2
# and system:midi_capture_1 to midi_in by itself.
net_slave() {
  local h=$1 latency=$2 ns server="spindle-nets$1-$$" deadline=$((SECONDS + 30))
  shift 2
  local args=("$@")
  [ ${#args[@]} -gt 0 ] || args=(--instrument "$LIVE_TMP/inst/impulse.sfz")
  ns=$(net_ns "$h")
  NET_SERVERS+=("$server")
  # JACK registers at most 8 servers on a machine (its shm registry, shared by every
  # namespace): while other servers hold them all, wait for a free one.
  while :; do
    ip netns exec "$ns" jackd -n "$server" -R -P 70 -d net -a "$NET_MASTER_IP" -l "$latency" \
      -C 0 -P 2 -i 1 -o 0 -n "spindle_host$h" >"$LIVE_TMP/slave$h.out" 2>&1 &
    eval "SLAVE_JACKD_$h=$!"
    track $!
    sleep 0.5
    grep -q "Too many servers" "$LIVE_TMP/slave$h.out" || break
    [ $SECONDS -ge $deadline ] && fail "host $h: JACK has no free server slot (8 servers active)"
  done
  ip netns exec "$ns" env JACK_DEFAULT_SERVER="$server" "$SPINDLE_EXE" --headless --backend jack \
    --name spindle "${args[@]}" >"$LIVE_TMP/spindle$h.out" 2>"$LIVE_TMP/spindle$h.err" &
  eval "SLAVE_SPINDLE_$h=$!"
  track $!
  wait_until 30 net_spindle_connected "$h" || fail "host $h: spindle did not connect to its jackd -d net"
}
net_spindle_connected() {
  ip netns exec "$(net_ns "$1")" env JACK_DEFAULT_SERVER="spindle-nets$1-$$" jack_lsp -c spindle:out_L |
    grep -q "system:playback_1"
}

# master_client H: the master's client of host H (spindle_hostH, or spindle_hostH-NN
# when the master still held the old one when it came back), empty when absent.
master_client() {
  jack_lsp | sed -n -E "s/^(spindle_host$1(-[0-9]+)?):midi_to_slave_1\$/\\1/p" | tail -1
}
master_has() { [ -n "$(master_client "$1")" ]; }
master_lacks() { [ -z "$(master_client "$1")" ]; }

# reported_round_trip H: the round trip host H's spindle reports (its stats, SIGUSR1).
reported_round_trip() {
  local pid_var="SLAVE_SPINDLE_$1" before
  before=$(count_matches "^network:" "$LIVE_TMP/spindle$1.out")
  kill -USR1 "${!pid_var}"
  wait_until 5 bash -c "[ \$(grep -c '^network:' '$LIVE_TMP/spindle$1.out') -gt $before ]" ||
    fail "host $1: spindle reports no network round trip"
  grep "^network:" "$LIVE_TMP/spindle$1.out" | tail -1 | sed -E 's/.*round trip ([0-9]+) frames.*/\1/'
}

# master_xruns [CLIENT]: the xruns the master's jackd has logged so far (those it
# blamed on CLIENT: "JackEngine::XRun: client = CLIENT was not finished").
master_xruns() {
  if [ $# -eq 0 ]; then count_matches "XRun" "$LIVE_TMP/master.out"
  else count_matches "XRun: client = $1 was not finished" "$LIVE_TMP/master.out"; fi
}
# probe_retry FN OUT ARGS...: FN OUT ARGS (a probe run, its report in $LIVE_TMP/OUT),
# measured again, at most four times (a second apart), when void: exit 4 (a note lost in
# a cycle where the master broke), a failure in a run where the probe saw the master
# break cycles (xrun callbacks, frame gaps: a VM stall, after which NetJACK2 may
# realign), or one whose every note not back exact is excused on its way (path_void: a
# link's stall, a host's xrun). The last run must pass.
probe_retry() {
  local attempt rc before
  for attempt in 1 2 3 4 5; do
    rc=0
    before=$(hosts_xruns)
    "$@" || rc=$?
    [ $rc -eq 0 ] && return 0
    if [ $rc -eq 4 ] || grep -qE '^probe: ([1-9][0-9]* xrun callbacks|[0-9]+ xrun callbacks, [1-9][0-9]* frame gaps)' "$LIVE_TMP/$2"; then
      echo "VOID RUN $attempt: the master broke cycles in it; measuring again after a second"
    elif path_void "$2" $(($(hosts_xruns) - before)); then
      echo "VOID RUN $attempt: its notes were lost on their way (a link stalled, a host's Spindle missed cycles); measuring again after a second"
    else
      return $rc
    fi
    sleep 1  # the VM's stalls come in bursts: the next run starts after this one's
  done
  return 1
}

# path_void OUT XRUNS: whether every note of OUT's run not back exact (the probe's
# --notes-out file, OUT with .notes) is excused on its way: sent from 6 ms before to
# 40 ms after a stall of a link (spindle-netdelay's "stall:" lines: how late it woke,
# and when), or, one note each, by the XRUNS the hosts' Spindles counted in the run.
# Prints each note not excused; false when there is none to excuse (a failure for
# another reason: an extra onset, a wrong offset).
path_void() {
  python3 - "$LIVE_TMP/${1%.out}.notes" "$2" "$LIVE_TMP"/netdelay*.out <<'PY'
import os, re, sys
notes_path, xruns, links = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
stalls = []
for link in (path for path in links if os.path.exists(path)):
    for line in open(link):
        m = re.match(r"stall: ([0-9.]+) ms \(\d+ so far\) at (\d+) us", line)
        if m:
            stalls.append((int(m.group(2)) - float(m.group(1)) * 1000, int(m.group(2))))
try:
    notes = [line.split() for line in open(notes_path)]
except OSError:
    sys.exit(1)
bad = [n for n in notes if n[3] not in ("exact", "excused")]
near = lambda sent: any(begin <= sent + 40000 and end >= sent - 6000 for begin, end in stalls)
left = [n for n in bad if not near(int(n[2]))]
for host, frame, sent, fate, offset in left[xruns:]:
    print("not excused: host %s, note at frame %s sent at %s us, %s (offset %s)" % (host, frame, sent, fate, offset))
sys.exit(0 if bad and len(left) <= xruns else 1)
PY
}

# hosts_xruns: the xruns the hosts' Spindles have counted so far (host_gaps).
hosts_xruns() { echo $(($(host_gaps 1) + $(host_gaps 2))); }
# host_gaps H: the xruns host H's Spindle has counted, the more of its backend's and the
# frame gaps it found (its stats, SIGUSR1); 0 when it is not running.
host_gaps() {
  local pid_var="SLAVE_SPINDLE_$1" before
  kill -0 "${!pid_var:-0}" 2>/dev/null || { echo 0; return; }
  before=$(count_matches "^xruns:" "$LIVE_TMP/spindle$1.out")
  kill -USR1 "${!pid_var}"
  wait_until 5 bash -c "[ \$(grep -c '^xruns:' '$LIVE_TMP/spindle$1.out') -gt $before ]" || { echo 0; return; }
  grep "^xruns:" "$LIVE_TMP/spindle$1.out" | tail -1 |
    sed -E 's/^xruns: *([0-9]+) reported by the backend, ([0-9]+) detected from frame gaps.*/\1 \2/' |
    awk '{ print ($1 > $2 ? $1 : $2) }'
}
# probe_gaps FILE: the frame gaps on the probe's last xrun line in FILE.
probe_gaps() { sed -n -E 's/^probe: [0-9]+ xrun callbacks, ([0-9]+) frame gaps$/\1/p' "$LIVE_TMP/$1" | tail -1; }

# mono_us: now on the clock of JACK's jack_get_time() (CLOCK_MONOTONIC_RAW), microseconds.
mono_us() { python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW) // 1000)'; }

# stall_window NOTES FROM_US TO_US: whether every note that the probe's --notes-out file
# NOTES has lost or displaced was sent between FROM_US and TO_US (mono_us), but for
# those it lost next to a cycle the master broke (its void-run excuse, a VM stall);
# prints how many were, and each one that was not.
stall_window() {
  python3 - "$@" <<'PY'
import sys
notes = [line.split() for line in open(sys.argv[1])]
low, high = int(sys.argv[2]), int(sys.argv[3])
bad = [n for n in notes if n[3] in ("lost", "displaced", "lost-in-xrun")]
inside = [n for n in bad if low <= int(n[2]) <= high]
outside = [n for n in bad if n not in inside and n[3] != "lost-in-xrun"]
for host, frame, usecs, fate, offset in outside:
    print("host %s: note at frame %s %s, sent %.1f ms after the window's start" % (host, frame, fate, (int(usecs) - low) / 1000.0))
print("host 2's loss: %d notes lost or displaced, %d of them sent in the %.0f ms from the kill to NetJACK2 dropping host 2"
      % (len(bad), len(inside), (high - low) / 1000.0))
sys.exit(1 if outside or not bad else 0)  # a failure without such a note: no excuse
PY
}

# osc_round_trip H: net_round_trip_frames and net_round_trip_periods of host H's
# /spindle/status (its OSC server on 127.0.0.1:9951 inside the namespace), or nothing
# when oscsend/oscdump are missing.
osc_round_trip() {
  command -v oscsend >/dev/null && command -v oscdump >/dev/null || return 0
  local ns dump="$LIVE_TMP/osc$1.txt" port=$((20000 + $1)) deadline=$((SECONDS + 10))
  ns=$(net_ns "$1")
  : >"$dump"
  ip netns exec "$ns" oscdump -L "$port" >>"$dump" 2>&1 &
  local dumper=$!  # called in $(...): track would not reach the caller's list, so stopped here
  until grep -q "/spindle/status" "$dump"; do
    [ $SECONDS -ge $deadline ] && { kill "$dumper"; fail "host $1: no /spindle/status reply"; }
    sleep 0.2
    # Until spindle listens, a send may fail: the reply above is the check.
    ip netns exec "$ns" oscsend 127.0.0.1 9951 /spindle/reply_port i "$port" || continue
    ip netns exec "$ns" oscsend 127.0.0.1 9951 /spindle/status || continue
  done
  kill "$dumper" 2>/dev/null
  wait "$dumper" 2>/dev/null
  grep /spindle/status "$dump" | tail -1 |
    sed -E 's/.*"net_round_trip_frames" ([0-9]+) "net_round_trip_periods" ([0-9]+).*/\1 \2/'
}
