#!/usr/bin/env bash
# spindle-netdelay's link, measured. Three hosts on the rig's links (net_host, NET_DELAY):
# host 1 at 0 ms (what the tool and the echo cost by themselves), hosts 2 and 3 at
# LINK_DELAY (default "2ms 0.5ms"). A UDP echo in each namespace (udp_echo.py; ping may
# be missing) answers:
#   host 1: 50 datagrams 20 ms apart, the baseline round trip; its link's stats: 50
#           packets each way, none dropped, under 0.5 ms added, 0.15 ms on average;
#   host 2: the same; nothing lost or reordered, the round trip's mean minus the
#           baseline's within 2 x DELAY +- 0.5 ms, its min at least 2 x (DELAY - JITTER),
#           9 in 10 at most 2 x (DELAY + JITTER) + the baseline's mean + 0.5 ms; the
#           link's own stats: 50 packets each way, none dropped, each direction's added
#           delay within [DELAY - JITTER, DELAY + JITTER + 1 ms], mean DELAY +- 0.25 ms;
#   host 3: 300 datagrams back to back, far closer than the jitter's width: all return,
#           in the order sent; 300 packets each way, none dropped.
# Up to one round trip in ten over its bound is a VM stall, excused; a measurement with
# more over it is taken again, at most twice.
source "$SPINDLE_LIVE_SUPPORT"
source "$(dirname "${BASH_SOURCE[0]}")/net_support.sh"
LINK_DELAY=${LINK_DELAY:-"2ms 0.5ms"}
ECHO="$(dirname "${BASH_SOURCE[0]}")/udp_echo.py"
need ip python3 awk
[ "$(id -u)" = 0 ] || skip "network namespaces and TUN devices need root"
[ -c /dev/net/tun ] || skip "no /dev/net/tun"
[ -x "${SPINDLE_NETDELAY:-}" ] || skip "spindle-netdelay is not built"
read -r DELAY JITTER < <(net_delay_ms $LINK_DELAY | awk '{ print $2, $4 }')
echo "link: delay $DELAY ms, jitter $JITTER ms"

NET_DELAY=0ms
net_host 1
NET_DELAY=$LINK_DELAY
net_host 2
net_host 3
# The echoes and the probe run real-time, as the links do: a timed path with one
# SCHED_OTHER hop in it measures the scheduler under load, not the link.
chrt -f 50 true 2>/dev/null && RT=(chrt -f 50) || RT=()
for h in 1 2 3; do
  ip netns exec "$(net_ns "$h")" "${RT[@]}" python3 "$ECHO" serve 9300 >"$LIVE_TMP/echo$h.out" 2>&1 &
  track $!
done
for h in 1 2 3; do  # a datagram before the echo is bound draws "connection refused"
  wait_until 10 grep -q "^ready:" "$LIVE_TMP/echo$h.out" || fail "host $h: the UDP echo did not start: $(cat "$LIVE_TMP/echo$h.out")"
done

# probe H COUNT INTERVAL_MS: the echo's line for host H, its fields in $PROBE_*.
probe() {
  local line
  line=$("${RT[@]}" python3 "$ECHO" probe "$NET_SUBNET.$((10 + $1))" 9300 "$2" "$3")
  echo "host $1: $line"
  read -r _ PROBE_SENT _ PROBE_RECEIVED _ PROBE_DISORDER _ _ PROBE_MEAN _ PROBE_MIN _ PROBE_MAX _ PROBE_P90 <<<"$line"
}
check() { awk "BEGIN { exit !($1) }"; }

stall=0  # the longest round trip excused or voided: a stall the link's own stats saw too
for attempt in 1 2 3; do
  probe 1 50 20
  base=$PROBE_MEAN
  probe 2 50 20
  [ "$PROBE_RECEIVED" = 50 ] && [ "$PROBE_DISORDER" = 0 ] || fail "host 2: datagrams lost or reordered"
  bound=$(awk -v d="$DELAY" -v j="$JITTER" -v b="$base" 'BEGIN { print 2 * (d + j) + b + 0.5 }')
  check "$PROBE_MAX <= $bound" && break
  stall=$(awk -v a="$stall" -v b="$PROBE_MAX" 'BEGIN { print (b > a ? b : a) }')
  # Round trips over the bound are VM stalls (9 to 17 ms here, the datagrams 20 ms apart:
  # a stall delays one or two); up to one in ten is excused, and the link's stats below
  # may show the longest.
  if check "$PROBE_P90 <= $bound"; then
    echo "round trips up to $PROBE_MAX ms over $bound ms excused (stalls); 9 in 10 within $PROBE_P90 ms"
    break
  fi
  echo "VOID RUN $attempt: more than one round trip in ten over $bound ms (p90 $PROBE_P90 ms); measuring again"
  [ "$attempt" = 3 ] && fail "host 2: round trips over 2 x (delay + jitter) in three runs"
done
# A packet the link delivered late shows in its round trip too: the link's stats below
# may be as late as the longest round trip was over 2 x (delay + jitter) + the baseline.
stall=$(awk -v s="$stall" -v m="$PROBE_MAX" -v d="$DELAY" -v j="$JITTER" -v b="$base" \
  'BEGIN { late = m - 2 * (d + j) - b; print (late > s ? late : s) }')
added=$(awk -v m="$PROBE_MEAN" -v b="$base" 'BEGIN { printf "%.3f", m - b }')
echo "round trip: mean $PROBE_MEAN ms ($added ms over the undelayed link's $base ms), min $PROBE_MIN ms, max $PROBE_MAX ms"
check "$added >= 2 * $DELAY - 0.5 && $added <= 2 * $DELAY + 0.5" || fail "the link adds $added ms to the round trip, not 2 x $DELAY ms +- 0.5"
check "$PROBE_MIN >= 2 * ($DELAY - $JITTER)" || fail "a round trip of $PROBE_MIN ms, under 2 x (delay - jitter)"

# link_stats H COUNT: host H's link stopped, its stats printed; each direction carried
# COUNT packets and dropped none. Its lines, commas removed, in $LIVE_TMP/statsH.txt.
link_stats() {
  local packets dropped
  net_delay_stats "$1" | tee /dev/stderr | tr -d ',' >"$LIVE_TMP/stats$1.txt"
  while read -r _ _ _ _ packets _ dropped _; do
    [ "$packets" = "$2" ] && [ "$dropped" = 0 ] || fail "host $1's link carried $packets packets one way and dropped $dropped, not $2 and 0"
  done <"$LIVE_TMP/stats$1.txt"
}

# link_delays H DELAY JITTER: each direction of host H's link added DELAY - JITTER to
# DELAY + JITTER + 1 ms (the link's thread woken late by the VM's timer: 0.3 to 0.8 ms
# seen here), DELAY +- 0.25 ms on average. Its stats count the void runs' packets too:
# after one, a packet may be late by as much as the stall that voided it.
link_delays() {
  local mean low high
  while read -r _ _ _ _ _ _ _ _ _ _ _ mean _ _ low _ _ high _; do
    check "$low >= $2 - $3 && $high <= $2 + $3 + 1.0 + $stall" ||
      fail "host $1's link added $low to $high ms, outside $2 +- $3 ms (a stall of $stall ms allowed)"
    check "$mean >= $2 - 0.25 && $mean <= $2 + 0.25" || fail "host $1's link added $mean ms on average, not $2"
  done <"$LIVE_TMP/stats$1.txt"
}
link_stats 1 $((50 * attempt)) 2>&1
link_delays 1 0 0
link_stats 2 $((50 * attempt)) 2>&1  # every run measured went through it
link_delays 2 "$DELAY" "$JITTER"

probe 3 300 0
[ "$PROBE_RECEIVED" = 300 ] || fail "host 3: $PROBE_RECEIVED of 300 datagrams sent back to back returned"
[ "$PROBE_DISORDER" = 0 ] || fail "host 3: $PROBE_DISORDER datagrams returned out of order"
link_stats 3 300 2>&1
echo PASSED
