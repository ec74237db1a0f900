#!/usr/bin/env bash
# Benchmark (NetJACK2 hosts): one template played by one host, then split across two.
#
#   bench/net_hosts.sh [--build DIR] [--parts P] [--samples S] [--sample-seconds T] [--song-seconds D]
#
# The rig of tests/net (root: a master jackd with netmanager on a bridge, each host a
# network namespace running jackd -d net and spindle --headless). The template is P
# parts (default 8), each its own generated library of S stereo noise samples (default
# 64, T = 2 s each: bench/net_song.py), and one dense song over P channels (D = 20 s, a
# note every 40 ms on each channel, held 600 ms). Each host gets its parts' channels
# through --midi-device (a FIFO), so the song is the same in both runs:
#   one host:  host 1 (-l 2) holds all P parts;
#   split:     host 1 (-l 2) holds parts 1..P/2, host 2 (-l 1) parts P/2+1..P.
# Per host it prints the peak voices and stream underruns (Spindle's stats), VmHWM (the
# peak resident memory of its spindle, from /proc; RssShmem is the part of it that is
# JACK's shared segment, which libjack locks into every client) and the round trip its NetJACK2 link
# adds on the master (frames and periods, as Spindle reports it; tests/net checks that
# the master measures exactly this). Counts, not times: the figures do not depend on
# how fast this machine is. Each host's link to the master is delayed by spindle-netdelay
# (NET_DELAY, default "1ms 0.3ms": 1 ms +- 0.3 ms each way; NET_DELAY= for undelayed veth
# links); the last lines give the delay it added, measured per direction.
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH")
BUILD=$ROOT/build/release PARTS=8 SAMPLES=64 SAMPLE_SECONDS=2 SONG_SECONDS=20
while [ $# -gt 0 ]; do
  case $1 in
    --build) BUILD=$(readlink -f "$2") ;;
    --parts) PARTS=$2 ;;
    --samples) SAMPLES=$2 ;;
    --sample-seconds) SAMPLE_SECONDS=$2 ;;
    --song-seconds) SONG_SECONDS=$2 ;;
    *) echo "usage: $0 [--build DIR] [--parts P] [--samples S] [--sample-seconds T] [--song-seconds D]"; exit 2 ;;
  esac
  shift 2
done
export SPINDLE_EXE=$BUILD/src/app/spindle SPINDLE_PROBE=$BUILD/tests/live/spindle-live-probe
export SPINDLE_NETDELAY=$BUILD/tests/net/spindle-netdelay
[ -x "$SPINDLE_EXE" ] && [ -x "$SPINDLE_PROBE" ] && [ -x "$SPINDLE_NETDELAY" ] ||
  { echo "build spindle, spindle-live-probe and spindle-netdelay in $BUILD first"; exit 2; }
source "$ROOT/tests/live/support.sh"
source "$ROOT/tests/net/net_support.sh"
NET_DELAY=${NET_DELAY-"1ms 0.3ms"}
net_usable
python3 "$BENCH/net_song.py" library "$LIVE_TMP/lib" "$PARTS" "$SAMPLES" "$SAMPLE_SECONDS"
python3 "$BENCH/net_song.py" song "$LIVE_TMP/song.txt" "$PARTS" "$SONG_SECONDS"
net_bridge
net_host 1
net_host 2
net_master

# osc_load H PART PATH: /spindle/load on host H, waiting for its /spindle/load/done.
osc_load() {
  local ns dump="$LIVE_TMP/load$1.txt" port=$((21000 + $1)) deadline=$((SECONDS + 60))
  ns=$(net_ns "$1")
  [ -e "$dump" ] || { ip netns exec "$ns" oscdump -L "$port" >"$dump" 2>&1 & track $!; sleep 0.3; }
  local before
  before=$(grep -c "/spindle/load/done" "$dump" || true)
  ip netns exec "$ns" oscsend 127.0.0.1 9951 /spindle/reply_port i "$port"
  ip netns exec "$ns" oscsend 127.0.0.1 9951 /spindle/load is "$2" "$3"
  until [ "$(grep -c "/spindle/load/done" "$dump" || true)" -gt "$before" ]; do
    [ $SECONDS -ge $deadline ] && fail "host $1: part $2 did not load"
    sleep 0.1
  done
}

# start_host H L FIRST LAST: host H (-l L) with parts FIRST..LAST as its parts 1...
start_host() {
  local h=$1 first=$3 last=$4 fifo="$LIVE_TMP/midi$1.fifo" p
  rm -f "$fifo"
  mkfifo "$fifo"
  net_slave "$h" "$2" --instrument "$LIVE_TMP/lib/part$first/lib.sfz" --midi-device "$fifo" --no-connect-midi
  for p in $(seq $((first + 1)) "$last"); do osc_load "$h" $((p - first + 1)) "$LIVE_TMP/lib/part$p/lib.sfz"; done
}

# stop_host H: stops host H's spindle and jackd, then waits until the master has dropped
# its client: a host started again while the master still holds the old one (its
# netmanager client blocked in recv() for up to 2 s) can lose its new connection.
stop_host() {
  local s="SLAVE_SPINDLE_$1" j="SLAVE_JACKD_$1"
  stop_pid "${!s}"
  stop_pid "${!j}"
  wait_until 30 master_lacks "$1" || fail "the master did not drop host $1"
}

# report CASE H FIRST LAST: one row for host H.
report() {
  local h=$2 s="SLAVE_SPINDLE_$2" hwm shm voices underruns trip
  hwm=$(awk '/^VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/${!s}/status")
  shm=$(awk '/^RssShmem/ { printf "%.1f", $2 / 1024 }' "/proc/${!s}/status")
  voices=$(stats_of "$h" "^voices:" | sed -E 's/.* ([0-9]+) peak.*/\1/')
  underruns=$(stats_of "$h" "^stream underruns:" | sed -E 's/[^0-9]*([0-9]+).*/\1/')
  trip=$(grep "^network:" "$LIVE_TMP/spindle$h.out" | tail -1 | sed -E 's/.*round trip ([0-9]+) frames.*, ([0-9]+) periods.*/\1 frames (\2 periods)/')
  printf "| %s | %d | %d-%d | %s | %s | %s | %s | %s |\n" "$1" "$h" "$3" "$4" "$voices" "$hwm" "$shm" "$underruns" "$trip"
}
stats_of() {
  local s="SLAVE_SPINDLE_$1"
  kill -USR1 "${!s}"
  sleep 0.5
  grep "$2" "$LIVE_TMP/spindle$1.out" | tail -1
}

play_hosts() {  # play_hosts "H:CHANNELS" ...: the song to every listed host at once
  local spec pids=()
  for spec in "$@"; do
    python3 "$BENCH/net_song.py" play "$LIVE_TMP/song.txt" "$LIVE_TMP/midi${spec%%:*}.fifo" "${spec#*:}" &
    pids+=($!)
  done
  for spec in "${pids[@]}"; do wait "$spec"; done
}

half=$((PARTS / 2))
all=$(seq -s, 1 "$PARTS")
start_host 1 2 1 "$PARTS"
play_hosts "1:$all"
echo "| run | host | parts | peak voices | VmHWM MiB | of it JACK's shm (RssShmem) MiB | stream underruns | round trip the network adds |"
echo "|---|---:|---|---:|---:|---:|---:|---|"
report "one host" 1 1 "$PARTS"
stop_host 1

start_host 1 2 1 "$half"
start_host 2 1 $((half + 1)) "$PARTS"
play_hosts "1:$(seq -s, 1 "$half")" "2:$(seq -s, $((half + 1)) "$PARTS")"
report split 1 1 "$half"
report split 2 $((half + 1)) "$PARTS"
echo "($PARTS parts, $SAMPLES samples of ${SAMPLE_SECONDS} s each, a ${SONG_SECONDS} s song; links: $NET_LINK_DELAY)"
net_delay_stats 1
net_delay_stats 2
