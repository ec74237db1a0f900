#!/usr/bin/env bash
# Spindle on two NetJACK2 slaves. A master jackd (dummy, period 256) with netmanager on a
# bridge; two hosts, each a network namespace on its own link to the master, delayed by
# spindle-netdelay (NET_DELAY, default 1 ms +- 0.3 ms; empty: a veth on the bridge,
# undelayed), running jackd -d net (host 1 -l 2, host 2 -l 1) and
# spindle --headless with the impulse instrument. On the master the probe sends notes to
# each host's midi_to_slave_1 and times the onsets on its from_slave_1:
#   1. both hosts: every onset returns, at one constant offset per host, equal to the
#      round trip that host's Spindle reports ((L + 1) periods: 768 and 512 frames);
#   2. host 2 lost while host 1 plays (NET_LOSS: "both", the default, SIGKILL to its
#      jackd and spindle and its link down; "kill" the processes only; "down" the link
#      only): host 1 still returns every onset at its offset with no frame gap, the
#      master keeps running, NetJACK2 drops host 2 within NET_DROP_MS (its receive
#      timeout is 2 s), the master logs at most NET_LOSS_XRUNS xruns blamed on host 2's
#      client (the master's jackd runs with -t NET_TIMEOUT_MS, see net_master) and no
#      more others than in a quiet window (at most NET_STALLS, VM stalls); once
#      dropped, host 1 plays with no more xruns than that either. A run where host 1
#      lost or displaced a note (a cycle the master broke, NetJACK2 holding the graph
#      while it waits for the lost host), or with more frame gaps or unblamed xruns
#      than NET_STALLS, is void and measured again with host 2 started and lost once
#      more; a third such run fails;
#   3. host 2 restarted: it comes back in the master's graph, the rig connects it again
#      and its onsets return at the same offset as before.
source "$SPINDLE_LIVE_SUPPORT"
source "$(dirname "${BASH_SOURCE[0]}")/net_support.sh"
NET_DELAY=${NET_DELAY-"1ms 0.3ms"}
NET_STALLS=${NET_STALLS:-6}  # master xruns a window may log from VM stalls (one stall logs 1-3)
NET_LOSS=${NET_LOSS:-both}
NET_DROP_MS=${NET_DROP_MS:-3000}   # loss to NetJACK2's "connection lost" (2 s timeout)
NET_LOSS_XRUNS=${NET_LOSS_XRUNS:-4}  # xruns blamed on the lost host: the first cycle it
                                     # missed, one after the switch JACK makes when it
                                     # gives up on that cycle, one more per VM stall that
                                     # forces a switch meanwhile (measured 1-3)
net_usable
make_instrument
net_bridge
net_host 1
net_host 2
echo "links: $NET_LINK_DELAY"
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
  "$SPINDLE_PROBE" net --to "$to" --from "$from" --expect "$expect" --notes-out "$LIVE_TMP/${out%.out}.notes" \
    "${PROBE_ARGS[@]}" | tee "$LIVE_TMP/$out"
}
probe_clean() { probe_retry probe_hosts "$@"; }

PROBE_ARGS=(--notes 160)
probe_clean both.out 1 2 || fail "both hosts: lost notes or an offset other than the reported round trip"

# quiet_window OUT NOTES: host 1 alone for NOTES notes; its master xruns in $quiet. A
# window over NET_STALLS (a burst of VM stalls) is measured again, at most twice.
quiet_window() {
  local attempt before
  for attempt in 1 2 3; do
    before=$(master_xruns)
    PROBE_ARGS=(--notes "$2" --every 4)
    probe_clean "$1" 1 || fail "host 1 alone: lost notes or a wrong offset"
    quiet=$(( $(master_xruns) - before ))
    [ "$quiet" -le "$NET_STALLS" ] && return 0
    echo "VOID WINDOW $attempt: $quiet master xruns with nothing lost (VM stalls); measuring again"
  done
  return 1
}
quiet_window quiet.out 120 || fail "$quiet master xruns while nothing was lost, in three windows"
alone=$quiet

# lose_host2: host 2 lost the NET_LOSS way; then the milliseconds until NetJACK2 on the
# master says it lost the host, in $LIVE_TMP/drop_ms (empty when it did not within 10 s).
# Fails (non-zero) when its processes could not be killed or its link taken down.
lose_host2() {
  local start
  sleep 1.0
  start=$(date +%s%N)
  case "$NET_LOSS" in
    kill|both) kill -KILL "$SLAVE_SPINDLE_2" "$SLAVE_JACKD_2" || return 1 ;;
  esac
  case "$NET_LOSS" in
    down|both) ip link set "$(net_link 2)" down || return 1 ;;
  esac
  : >"$LIVE_TMP/drop_ms"
  if wait_until 10 grep -q "Recv connection lost.*spindle_host2" "$LIVE_TMP/master.out"; then
    echo $(( ($(date +%s%N) - start) / 1000000 )) >"$LIVE_TMP/drop_ms"
  fi
}
case "$NET_LOSS" in kill|down|both) ;; *) fail "NET_LOSS is kill, down or both, not $NET_LOSS" ;; esac

# lost_once: host 1 measured while host 2 is lost (the checks above); 4 when the run was
# void (a note lost in a cycle the master broke, or more frame gaps or xruns than
# NET_STALLS), 0 when it passed.
lost_once() {
  local rc=0 gaps killer kill_before kill_blamed_before after_blamed_before killed blamed drop_ms
  kill_before=$(master_xruns)
  kill_blamed_before=$(master_xruns spindle_host2)
  lose_host2 &
  killer=$!
  PROBE_ARGS=(--notes 120 --every 4)
  probe_hosts kill.out 1 || rc=$?
  # A note host 1 lost or played displaced while host 2 was lost: NetJACK2's own limit
  # (README "A slave lost": the master waits its fixed 2 s for the lost host's packet,
  # JACK's engine holding the whole graph meanwhile) or a VM stall; the run is void.
  case $rc in
    0|4) ;;
    1) echo "host 1 lost or displaced a note while host 2 was lost (the graph held up: void)"; rc=4 ;;
    *) fail "the probe could not play while host 2 was lost (exit $rc)" ;;
  esac
  wait "$killer" || fail "host 2 could not be lost the $NET_LOSS way (kill or link down failed)"
  killed=$(( $(master_xruns) - kill_before ))
  kill -0 "$JACKD_PID" || fail "the master jackd died with host 2"
  blamed=$(( $(master_xruns spindle_host2) - kill_blamed_before ))
  drop_ms=$(cat "$LIVE_TMP/drop_ms")
  echo "host 2 lost ($NET_LOSS): NetJACK2 dropped it after ${drop_ms:-(never)} ms; master xruns: $alone while host 1 played alone; $killed while host 2 was lost (the same play), $blamed of them blamed on spindle_host2"
  [ -n "$drop_ms" ] && [ "$drop_ms" -le "$NET_DROP_MS" ] || fail "NetJACK2 did not drop the lost host 2 within $NET_DROP_MS ms"
  # More frame gaps or unblamed xruns than a quiet window allows: a burst of VM stalls
  # or the loss disturbing the master; the run is void, and the same in the next fails.
  # In such a burst any late client is blamed, host 2's too: its bound is checked in a
  # run without one.
  gaps=$(probe_gaps kill.out)
  if [ "${gaps:-0}" -gt "$NET_STALLS" ] || [ $(( killed - blamed )) -gt "$NET_STALLS" ]; then
    echo "${gaps:-0} frame gaps and $((killed - blamed)) master xruns not blamed on host 2 (at most $NET_STALLS each)"
    rc=4
  elif [ "$blamed" -gt "$NET_LOSS_XRUNS" ]; then
    fail "$blamed master xruns blamed on the lost host (at most $NET_LOSS_XRUNS)"
  fi
  wait_until 30 master_lacks 2 || fail "the master did not drop the lost host 2"
  after_blamed_before=$(master_xruns spindle_host2)
  quiet_window after.out 60 || fail "the master still xruns after the lost host was dropped ($quiet in a window)"
  echo "master xruns after host 2 was dropped: $quiet, $(( $(master_xruns spindle_host2) - after_blamed_before )) of them blamed on spindle_host2"
  return $rc
}

# host2_back: host 2's processes (still running after "down") stopped, its link up, and
# host 2 started again: it comes back in the master's graph.
host2_back() {
  stop_pid "$SLAVE_SPINDLE_2"; stop_pid "$SLAVE_JACKD_2"
  ip link set "$(net_link 2)" up
  net_slave 2 1
  wait_until 30 master_has 2 || fail "host 2 did not come back in the master's graph"
}

# A run where host 1 lost a note in a cycle the master broke (a VM stall; the probe saw
# it) is measured again, host 2 started and lost once more; a third such run fails.
for attempt in 1 2 3; do
  rc=0
  lost_once || rc=$?
  host2_back
  [ $rc -eq 0 ] && break
  echo "VOID RUN $attempt while host 2 was lost: a note lost in a cycle the master broke, or over $NET_STALLS gaps or xruns; measuring again"
  [ "$attempt" -lt 3 ] || fail "notes lost in cycles the master broke, or over $NET_STALLS frame gaps or xruns, in 3 runs while host 2 was lost"
done
echo "host 2 is back as $(master_client 2)"
[ "$(reported_round_trip 2)" = "$trip2" ] || fail "host 2 reports another round trip after its restart"
PROBE_ARGS=(--notes 160)
probe_clean back.out 1 2 || fail "after host 2's restart: lost notes or an offset other than before"
echo "links: $NET_LINK_DELAY"
net_delay_stats 1
net_delay_stats 2
echo PASSED
