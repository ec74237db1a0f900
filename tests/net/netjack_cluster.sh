#!/usr/bin/env bash
# The whole cluster: a master jackd with netmanager, two NetJACK2 slaves (host 1 -l 2,
# host 2 -l 1), each with a headless Spindle that takes only signed OSC (the cluster
# secret), and a master Spindle driving both with --host hH=ADDR:PORT@spindle_hostH:
#   1. the master routes by itself: master:to_hH -> spindle_hostH:midi_to_slave_1 and
#      the host's audio back to where master:out_L/out_R go (the test connects nothing);
#      the master loads each host's part over its OSC (impulse instrument: host 1's part
#      1, host 2's part 2, with a level and CC91 on host 2);
#   2. the probe plays into the master's midi_in (channel 1 for host 1, 2 for host 2)
#      and times onsets on each host client's from_slave_1: every note returns, at a
#      constant offset per host equal to the round trip the master reports for it;
#   3. host 2 killed (SIGKILL, jackd and spindle): host 1 plays on with nothing lost,
#      the master lists h2 as lost; the master's xruns blamed on host 2 are printed. A
#      run excused by NetJACK2's 2 s stall (only notes sent between the kill and the
#      master dropping host 2 lost, from timestamps) or void is measured again with host
#      2 restored and killed once more (frame gaps over NET_STALLS void a run too); a third such run fails;
#   4. host 2 restarted playing nothing (an instrument on key 0 only): the master restores its part (library,
#      level, CC) and its routes, and its onsets return at the same offset as before;
#      then its link down for a while and up, its processes untouched: rejoined,
#      routed again, its outputs linked again on the slave, its onsets as before;
#      then a graceful stop (SIGTERM of host 2's jackd), its master xruns printed;
#   5. from a third namespace: plain oscsend to the master is refused and counted, a
#      replayed signed packet too, spindle-osc with the secret works.
source "$SPINDLE_LIVE_SUPPORT"
source "$(dirname "${BASH_SOURCE[0]}")/net_support.sh"
source "$(dirname "${BASH_SOURCE[0]}")/net_cluster.sh"
NET_DELAY=${NET_DELAY-"1ms 0.3ms"}  # spindle-netdelay links (net_delay); empty: veth links
NET_STALLS=${NET_STALLS:-6}  # master xruns or probe gaps a window may log from VM stalls
[ -x "${SPINDLE_OSC:-}" ] || skip "spindle-osc not built"
need python3 oscsend
net_usable
make_instrument
IMPULSE="$LIVE_TMP/inst/impulse.sfz"
cluster_quiet
cluster_secret
net_bridge
net_host 1
net_host 2
net_host 3
net_master
cluster_slave 1 2
cluster_slave 2 1
wait_until 20 master_has 1 || fail "host 1 did not appear in the master's graph"
wait_until 20 master_has 2 || fail "host 2 did not appear in the master's graph"
wait_until 10 settled 1 || fail "host 1 has several clients on the master: $(jack_lsp | grep spindle_host1)"
wait_until 10 settled 2 || fail "host 2 has several clients on the master: $(jack_lsp | grep spindle_host2)"
cluster_master --host "h1=$(cluster_ip 1):$CLUSTER_PORT@spindle_host1" --host "h2=$(cluster_ip 2):$CLUSTER_PORT@spindle_host2"

wait_until 10 routed 1 || fail "the master did not route host 1: $(jack_lsp -c master:to_h1)"
wait_until 10 routed 2 || fail "the master did not route host 2: $(jack_lsp -c master:to_h2)"
echo "routed by the master: $(jack_lsp -c master:to_h1 | tr -s ' \n' ' '); $(jack_lsp -c spindle_host2:from_slave_1 | tr -s ' \n' ' ')"
wait_until 10 host_listed 1 connected 3 || fail "h1 is not connected and routed: $(master_osc /spindle/host/list)"
wait_until 10 host_listed 2 connected 3 || fail "h2 is not connected and routed: $(master_osc /spindle/host/list)"
master_osc /spindle/host/load sis h1 1 "$IMPULSE" >/dev/null
master_osc /spindle/host/load sis h2 2 "$IMPULSE" >/dev/null
master_osc /spindle/host/part/volume sif h2 2 -6.0 >/dev/null
master_osc /spindle/host/part/cc siii h2 2 91 17 >/dev/null
wait_until 10 host_loaded 1 1 impulse || fail "host 1's part 1 did not load: $(master_osc /spindle/host/parts s h1)"
wait_until 10 host_loaded 2 2 impulse || fail "host 2's part 2 did not load: $(master_osc /spindle/host/parts s h2)"
trip1=$(host_trip 1)
trip2=$(host_trip 2)
echo "round trips the master reports: h1 $trip1 frames, h2 $trip2 frames"
[ "$trip1" = 768 ] && [ "$trip2" = 512 ] || fail "round trips: expected 768 (-l 2) and 512 (-l 1) frames at period 256"

# probe_cluster OUT H...: notes into master:midi_in on host H's channel, onsets on its
# client's from_slave_1, each expected at the trip the master reports for it.
probe_cluster() {
  local out=$1 to= from= expect= channels= h t; shift
  for h in "$@"; do
    t="trip$h"
    to+="${to:+,}master:midi_in"; from+="${from:+,}$(routed_client "$h"):from_slave_1"
    expect+="${expect:+,}${!t}"; channels+="${channels:+,}$h"
  done
  "$SPINDLE_PROBE" net --to "$to" --from "$from" --expect "$expect" --channels "$channels" "${PROBE_ARGS[@]}" \
    --notes-out "$LIVE_TMP/${out%.out}.notes" | tee "$LIVE_TMP/$out"
}
probe_clean() { probe_retry probe_cluster "$@"; }
PROBE_ARGS=(--notes 160)
probe_clean both.out 1 2 || fail "both hosts through the master: lost notes or an offset other than the reported round trip"

# kill_host2: host 2 killed (SIGKILL, jackd and spindle) while host 1 plays; the master
# lists h2 lost and drops its client. 0 when host 1 played every note (exact, or
# displaced next to a cycle the master broke); 5 when its run is excused: NetJACK2's own
# limit (README "A slave lost"): when the kill falls while the master's client waits
# for host 2's packet, it waits its fixed 2 s and JACK's engine holds the whole graph
# meanwhile, host 1's client included, and the engine's switch once it drops the client
# breaks a cycle or two. Excused only when every note host 1 lost or played displaced
# was sent between 50 ms before the kill and 300 ms after the master said it lost host 2
# (stall_window, from timestamps), or lost next to a cycle the master broke (a void
# run). Any other loss fails.
kill_host2() {
  local rc=0 killer watcher gaps kill_before kill_blamed_before drops
  kill_blamed_before=$(master_xruns spindle_host2)
  kill_before=$(master_xruns)
  drops=$(count_matches "Recv connection lost.*'spindle_host2'" "$LIVE_TMP/master.out")
  rm -f "$LIVE_TMP/kill_us" "$LIVE_TMP/drop_us"
  ( sleep 0.5; mono_us >"$LIVE_TMP/kill_us"; kill -KILL "$SLAVE_SPINDLE_2" "$SLAVE_JACKD_2" ) &
  killer=$!
  ( wait_until 15 drop_logged "$drops" && mono_us >"$LIVE_TMP/drop_us" ) &
  watcher=$!
  PROBE_ARGS=(--notes 120 --every 4 --notes-out "$LIVE_TMP/kill.notes")
  probe_cluster kill.out 1 || rc=$?
  wait "$killer" || fail "host 2's spindle and jackd could not be killed"
  wait "$watcher" || fail "NetJACK2 on the master never said it lost host 2"
  gaps=$(probe_gaps kill.out)
  wait_until 10 host_listed 2 lost || fail "the master does not list h2 as lost: $(master_osc /spindle/host/list)"
  wait_until 10 master_dropped 2 || fail "NetJACK2 did not drop the killed host 2: $(jack_lsp | grep spindle_host2)"
  wait_until 5 host_listed 2 lost 0 || fail "the master still lists h2 as routed: $(master_osc /spindle/host/list)"
  echo "host 2 killed: the master lists h2 lost; master xruns $(( $(master_xruns) - kill_before )), blamed on spindle_host2: $(( $(master_xruns spindle_host2) - kill_blamed_before )); probe frame gaps: ${gaps:-0}"
  stop_pid "$SLAVE_SPINDLE_2"; stop_pid "$SLAVE_JACKD_2"
  # More frame gaps than a quiet window allows: a burst of VM stalls or the loss
  # disturbing the master; the run is void, as in the next attempt it fails.
  if [ "${gaps:-0}" -gt "$NET_STALLS" ]; then
    echo "$gaps frame gaps on the master while host 2 was killed (at most $NET_STALLS)"
    return 5
  fi
  case $rc in
    0) return 0 ;;
    1|4) stall_window "$LIVE_TMP/kill.notes" "$(($(cat "$LIVE_TMP/kill_us") - 50000))" "$(($(cat "$LIVE_TMP/drop_us") + 300000))" ||
           fail "host 1 while host 2 was killed: notes lost or displaced outside NetJACK2's stall"
         return 5 ;;
    *) fail "the probe could not play while host 2 was killed (exit $rc)" ;;
  esac
}
drop_logged() { [ "$(count_matches "Recv connection lost.*'spindle_host2'" "$LIVE_TMP/master.out")" -gt "$1" ]; }

# host2_restored: host 2 back with nothing loaded: the master restores its part and its
# routes; the milliseconds that took in $restore_ms.
host2_restored() {
  local restart
  restart=$(date +%s%N)
  cluster_slave 2 1
  wait_until 30 master_has 2 || fail "host 2 did not come back in the master's graph"
  wait_until 10 settled 2 || fail "host 2 has several clients on the master: $(jack_lsp | grep spindle_host2)"
  wait_until 20 routed 2 || fail "the master did not route host 2 again: $(jack_lsp -c master:to_h2)"
  wait_until 20 host_listed 2 connected 3 || fail "h2 is not connected again: $(master_osc /spindle/host/list)"
  wait_until 10 host_loaded 2 2 impulse || fail "the master did not restore host 2's part: $(master_osc /spindle/host/parts s h2)"
  restore_ms=$(( ($(date +%s%N) - restart) / 1000000 ))
}

# An excused run is measured again (host 2 restored, killed once more); a third fails.
for attempt in 1 2 3; do
  rc=0
  kill_host2 || rc=$?
  host2_restored
  [ $rc -eq 0 ] && break
  [ "$attempt" -lt 3 ] || fail "NetJACK2 stalls, void runs or frame gaps over NET_STALLS in 3 runs while host 2 was killed"
  echo "EXCUSED RUN $attempt while host 2 was killed; measuring again"
done
# part2_restored: host 2's own session save has part 2 as the master set it (the library
# comes first: its level and CC follow, so the save is asked again until they are in).
part2_restored() {
  if ! osc_signed 2 "$(cluster_ip 2)" /spindle/session/save s "$LIVE_TMP/host2.spindle"; then
    part2="(its session save failed: $(cat "$LIVE_TMP/signed.out"))"
    return 1
  fi
  part2=$(awk '/^\[part 2\]/ {p = 1} p && /^(instrument|volume|reverb-send) = / {printf "%s ", $3} /^\[part 3/ {p = 0}' "$LIVE_TMP/host2.spindle")
  [ "$part2" = "$IMPULSE -6 17 " ]
}
wait_until 10 part2_restored || fail "host 2's part 2 is '$part2', not the impulse at -6 dB with CC91 17"
echo "host 2 restarted as $(routed_client 2): restored and routed after $restore_ms ms; its part 2: $part2"
[ "$(host_trip 2)" = "$trip2" ] || fail "host 2 reports another round trip after its restart"
PROBE_ARGS=(--notes 160)
probe_clean back.out 1 2 || fail "after host 2's restart: lost notes or an offset other than before"

# Host 2 drops off the network for a few seconds, its processes untouched: NetJACK2 drops its
# client on the master, the slave's driver restarts and joins again once the link is
# back; the master routes the new client, host 2's Spindle connects its outputs to the
# slave's system:playback ports again, and its part plays as it was, at the same latency.
ip link set "$(net_link 2)" down
wait_until 10 master_dropped 2 || fail "NetJACK2 did not drop host 2 with its link down"
wait_until 10 host_listed 2 lost || fail "the master does not list h2 as lost: $(master_osc /spindle/host/list)"
PROBE_ARGS=(--notes 60 --every 4)
probe_retry probe_cluster linkdown.out 1 || fail "host 1 while host 2's link was down: lost notes or a wrong offset"
ip link set "$(net_link 2)" up
rejoin=$(date +%s%N)
if ! wait_until 30 master_has 2; then
  # Host 2's NetJACK2 driver, back at "Waiting for a master...", did not find the master
  # again: JACK's own loop, in which nothing of Spindle's runs (seen once in CI). The link
  # goes down and up once more; a second miss fails.
  echo "VOID: host 2's NetJACK2 driver did not rejoin within 30 s; its link goes down and up once more"
  tail -n 4 "$LIVE_TMP/slave2.out"
  ip link set "$(net_link 2)" down
  sleep 1
  ip link set "$(net_link 2)" up
  rejoin=$(date +%s%N)
  wait_until 30 master_has 2 || fail "host 2 did not join again after its link came back, twice"
fi
wait_until 10 settled 2 || fail "host 2 has several clients on the master: $(jack_lsp | grep spindle_host2)"
wait_until 20 routed 2 || fail "the master did not route host 2 after its link came back"
wait_until 20 host_listed 2 connected 3 || fail "h2 is not connected again: $(master_osc /spindle/host/list)"
wait_until 10 net_spindle_connected 2 || fail "host 2's spindle did not connect its outputs to the slave's playback again"
echo "host 2's link down and up: rejoined, routed and its outputs linked again after $(( ($(date +%s%N) - rejoin) / 1000000 )) ms"
PROBE_ARGS=(--notes 160)
probe_clean relinked.out 1 2 || fail "after host 2's link came back: lost notes or an offset other than before"

# A graceful stop: host 2's jackd ends (SIGTERM) and tells the master.
stop_blamed_before=$(master_xruns spindle_host2)
stop_before=$(master_xruns)
kill -TERM "$SLAVE_JACKD_2"
wait_until 10 master_dropped 2 || fail "the master kept host 2's client after its jackd stopped"
sleep 0.5
echo "host 2 stopped (SIGTERM to its jackd): master xruns $(( $(master_xruns) - stop_before )), blamed on spindle_host2: $(( $(master_xruns spindle_host2) - stop_blamed_before ))"
stop_pid "$SLAVE_SPINDLE_2"; stop_pid "$SLAVE_JACKD_2"

# Control from another machine (namespace 3): only signed and fresh.
auth_count() {  # FIELD of the master's /spindle/auth (mode verified unsigned bad_mac replayed stale)
  osc_signed "$NET_MASTER_IP" /spindle/auth/get || fail "/spindle/auth/get failed: $(cat "$LIVE_TMP/signed.out")"
  grep "^/spindle/auth " "$LIVE_TMP/signed.out" | tail -1 | python3 -c '
import shlex, sys
w = shlex.split(sys.stdin.read())[2:]
print(dict(zip(["mode", "verified", "unsigned", "bad_mac", "replayed", "stale"], w))[sys.argv[1]])' "$1"
}
unsigned_before=$(auth_count unsigned)
ip netns exec "$(net_ns 3)" oscsend "$NET_MASTER_IP" "$CLUSTER_PORT" /spindle/host/part/volume sif h1 1 -20.0 ||
  fail "oscsend failed"
sleep 0.3
[ "$(auth_count unsigned)" = $((unsigned_before + 1)) ] || fail "the plain oscsend was not refused and counted"
ip netns exec "$(net_ns 3)" "$SPINDLE_OSC" --secret-file "$CLUSTER_SECRET" --identity third --wait 400 \
  --dump-packet "$LIVE_TMP/packet.bin" "$NET_MASTER_IP" "$CLUSTER_PORT" /spindle/host/list >"$LIVE_TMP/signed.out" 2>&1 ||
  fail "spindle-osc from namespace 3 failed: $(cat "$LIVE_TMP/signed.out")"
grep -q '^/spindle/host/list .*"h1" "connected"' "$LIVE_TMP/signed.out" || fail "no verified host list for namespace 3"
replayed_before=$(auth_count replayed)
if ip netns exec "$(net_ns 3)" "$SPINDLE_OSC" --send-packet "$LIVE_TMP/packet.bin" "$NET_MASTER_IP" "$CLUSTER_PORT" \
  >"$LIVE_TMP/replay.out" 2>&1; then
  fail "the replayed packet got no error: $(cat "$LIVE_TMP/replay.out")"
fi
[ "$(auth_count replayed)" = $((replayed_before + 1)) ] || fail "the replayed packet was not refused and counted"
echo "namespace 3: plain oscsend refused and counted, a replayed packet refused and counted, spindle-osc works"
echo "links: $NET_LINK_DELAY"
net_delay_stats 1
net_delay_stats 2
echo PASSED
