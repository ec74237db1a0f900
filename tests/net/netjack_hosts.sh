#!/usr/bin/env bash
# Spindle on two NetJACK2 slaves. A master jackd (dummy, period 256) with netmanager on a
# bridge; two hosts, each a network namespace on a veth link (netem delay and jitter when
# the kernel has it), running jackd -d net (host 1 -l 2, host 2 -l 1) and
# spindle --headless with the impulse instrument. On the master the probe sends notes to
# each host's midi_to_slave_1 and times the onsets on its from_slave_1:
#   1. both hosts: every onset returns, at one constant offset per host, equal to the
#      round trip that host's Spindle reports ((L + 1) periods: 768 and 512 frames);
#   2. host 2 killed (SIGKILL to its jackd and spindle, its link down) while host 1
#      plays: host 1 still returns every onset at its offset with no frame gap, the
#      master keeps running, and every xrun it reports in that window is one it blames
#      on host 2's client (its netmanager client does not finish a cycle until NetJACK2
#      drops the host, about 1.3 s); once dropped, host 1 plays with no more xruns than
#      in a quiet window (at most NET_STALLS, VM stalls);
#   3. host 2 restarted: it comes back in the master's graph, the rig connects it again
#      and its onsets return at the same offset as before.
source "$SPINDLE_LIVE_SUPPORT"
source "$(dirname "${BASH_SOURCE[0]}")/net_support.sh"
NET_DELAY=${NET_DELAY:-"1ms 0.2ms"}
NET_STALLS=${NET_STALLS:-6}  # master xruns a window may log from VM stalls (one stall logs 1-3)
net_usable
make_instrument
net_bridge
net_host 1
net_host 2
net_master
net_slave 1 2
net_slave 2 1
wait_until 20 master_has 1 || fail "host 1 did not appear in the master's graph"
wait_until 20 master_has 2 || fail "host 2 did not appear in the master's graph"
trip1=$(reported_round_trip 1)
trip2=$(reported_round_trip 2)
echo "reported round trips: host 1 $trip1 frames, host 2 $trip2 frames"
[ "$trip1" = 768 ] && [ "$trip2" = 512 ] || fail "round trips: expected 768 (-l 2) and 512 (-l 1) frames at period 256"
osc1=$(osc_round_trip 1)
echo "host 1's /spindle/status: net_round_trip_frames, net_round_trip_periods = ${osc1:-(no oscsend)}"
[ -z "$osc1" ] || [ "$osc1" = "768 3" ] || fail "host 1's /spindle/status reports $osc1, not 768 frames in 3 periods"

# probe_hosts OUT H...: the probe against hosts H..., expecting their reported trips.
probe_hosts() {
  local out=$1 to= from= expect= h c t; shift
  for h in "$@"; do
    c=$(master_client "$h")
    t="trip$h"
    to+="${to:+,}$c:midi_to_slave_1"; from+="${from:+,}$c:from_slave_1"; expect+="${expect:+,}${!t}"
  done
  "$SPINDLE_PROBE" net --to "$to" --from "$from" --expect "$expect" "${PROBE_ARGS[@]}" | tee "$LIVE_TMP/$out"
}
# probe_clean OUT H...: probe_hosts; a void run (exit 4: a note lost in a cycle where
# the master broke, a VM stall the probe saw) is measured again, at most twice.
probe_clean() {
  local attempt rc
  for attempt in 1 2 3; do
    rc=0
    probe_hosts "$@" || rc=$?
    [ $rc -ne 4 ] && return $rc
    echo "VOID RUN $attempt: a note lost in a cycle the master broke; measuring again"
  done
  return 1
}

PROBE_ARGS=(--notes 160)
probe_clean both.out 1 2 || fail "both hosts: lost notes or an offset other than the reported round trip"

quiet_before=$(master_xruns)
PROBE_ARGS=(--notes 120 --every 4)
probe_clean quiet.out 1 || fail "host 1 alone: lost notes or a wrong offset"
quiet=$(( $(master_xruns) - quiet_before ))
[ "$quiet" -le "$NET_STALLS" ] || fail "$quiet master xruns while nothing was lost"

kill_before=$(master_xruns)
kill_blamed_before=$(master_xruns spindle_host2)
(
  sleep 1.0
  kill -KILL "$SLAVE_SPINDLE_2" "$SLAVE_JACKD_2" 2>/dev/null
  ip link set "$(net_link 2)" down
) &
killer=$!
PROBE_ARGS=(--notes 120 --every 4)
rc=0
probe_hosts kill.out 1 || rc=$?
# This run cannot be repeated: a void one (a note lost where the probe saw the master
# break a cycle) is printed and passes; anything else fails.
[ $rc -eq 4 ] && echo "VOID RUN while host 2 was killed: a note lost in a cycle the master broke"
[ $rc -eq 0 ] || [ $rc -eq 4 ] || fail "host 1 while host 2 was killed: lost notes or a wrong offset"
wait "$killer"
killed=$(( $(master_xruns) - kill_before ))
kill -0 "$JACKD_PID" || fail "the master jackd died with host 2"
blamed=$(( $(master_xruns spindle_host2) - kill_blamed_before ))
echo "master xruns: $quiet while host 1 played alone; $killed while host 2 was killed (the same play), $blamed of them blamed on spindle_host2"
[ "$(probe_gaps kill.out)" -le "$NET_STALLS" ] || fail "frame gaps on the master while host 2 was killed"
[ $(( killed - blamed )) -le "$NET_STALLS" ] || fail "$((killed - blamed)) master xruns not caused by the lost host"
wait_until 30 master_lacks 2 || fail "the master did not drop the lost host 2"
after_before=$(master_xruns)
PROBE_ARGS=(--notes 60 --every 4)
probe_clean after.out 1 || fail "host 1 after host 2 was dropped: lost notes or a wrong offset"
after=$(( $(master_xruns) - after_before ))
echo "master xruns after host 2 was dropped: $after"
[ "$after" -le "$NET_STALLS" ] || fail "the master still xruns after the lost host was dropped"

ip link set "$(net_link 2)" up
net_slave 2 1
wait_until 30 master_has 2 || fail "host 2 did not come back in the master's graph"
echo "host 2 is back as $(master_client 2)"
[ "$(reported_round_trip 2)" = "$trip2" ] || fail "host 2 reports another round trip after its restart"
PROBE_ARGS=(--notes 160)
probe_clean back.out 1 2 || fail "after host 2's restart: lost notes or an offset other than before"
echo "netem: $NET_NETEM ($NET_DELAY)"
echo PASSED
