#!/usr/bin/env bash
# The soak: dense MIDI in real time through a dummy-backend jackd into
# spindle --headless with a real library, for a long time. Too long for CI: run by hand.
#
#   tests/soak/soak.sh [--minutes N] [--build DIR] [--instrument FILE.sfz] [--keys LOW HIGH]
#                      [--rate NOTES_PER_S] [--preload FRAMES]
#
#   --minutes     playing time (default 30)
#   --build       a build folder with the tests on (default build/soak, configured as
#                 a Release build on first use); spindle and spindle-soak-client are
#                 built there first
#   --instrument  default: the bundled instrument (Spindle EP: 147 regions of FLAC over
#                 keys 21..108, built into the build folder); a third-party library, e.g.
#                 --instrument "$SPINDLE_FIXTURES/dim_cabasa/Dim Cabasa.sfz" --keys 69 70
#   --keys        the key range the player uses (default 36 96)
#   --rate        note-ons per second (default 20; plus pedal, bend and CC moves)
#   --preload     frames kept in RAM per sample, set over OSC before the instrument is
#                 loaded (default 512, the minimum: most notes stream from disk)
#
# Passes when, after a warm-up (the first fifth, at least 60 s), spindle's resident
# memory stays within 1% (sampled every 10 s); voices and disk streams are back to 0
# once the player has released its keys; and spindle saw no more xruns than an idle
# JACK client in the same server (the baseline a VM's stalls give every client).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
minutes=30 build=$top/build/soak instrument="" rate=20 preload=512 keys=(36 96)
while [ $# -gt 0 ]; do
  case $1 in
    --minutes) minutes=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --instrument) instrument=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --preload) preload=$2; shift 2 ;;
    --keys) keys=("$2" "$3"); shift 3 ;;
    *) sed -n '2,24p' "$0"; exit 2 ;;
  esac
done
# Not build/release: scripts/play.sh configures that one without the tests, and the
# player (spindle-soak-client) is a test program.
[ -f "$build/CMakeCache.txt" ] ||
  cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPINDLE_BUILD_TESTS=ON >/dev/null
if ! grep -q '^SPINDLE_BUILD_TESTS:BOOL=ON' "$build/CMakeCache.txt"; then
  echo "soak: $build is configured without the tests (SPINDLE_BUILD_TESTS=OFF); pass another --build" >&2
  exit 2
fi
cmake --build "$build" --target spindle spindle-soak-client | tail -n 3
SPINDLE_EXE=$build/src/app/spindle
CLIENT=$build/tests/soak/spindle-soak-client
if [ -z "$instrument" ]; then
  cmake --build "$build" --target spindle_bundled_instrument | tail -n 3
  instrument=$build/share/spindle/instrument/spindle-ep.sfz
fi

source "$top/tests/live/support.sh"
need jackd jack_lsp oscsend oscdump python3
[ -f "$instrument" ] || fail "no instrument at $instrument"
source "$top/tests/soak/soak_support.sh"

start_jackd "spindle-soak-$$"
OSC_PORT=$(free_port)
"$SPINDLE_EXE" --headless --instrument "$instrument" --name spindle --osc-port "$OSC_PORT" \
  >"$LIVE_TMP/spindle.out" 2>"$LIVE_TMP/spindle.err" &
SPINDLE_PID=$!
track "$SPINDLE_PID"
wait_until 60 port_exists spindle:midi_in || fail "spindle's ports did not appear"
start_dump
reload_with_preload "$preload" "$instrument"

"$CLIENT" idle soak_idle >"$LIVE_TMP/idle.out" 2>&1 &
IDLE_PID=$!
track "$IDLE_PID"
"$CLIENT" play soak_player spindle:midi_in --rate "$rate" --keys "${keys[@]}" >"$LIVE_TMP/player.out" 2>&1 &
PLAYER_PID=$!
track "$PLAYER_PID"
wait_until 10 grep -q ready "$LIVE_TMP/player.out" || fail "the player did not start"
wait_until 10 grep -q ready "$LIVE_TMP/idle.out" || fail "the idle client did not start"

echo "soak: $minutes min of $rate notes/s into $(basename "$instrument") (preload $preload), RSS every 10 s"
: >"$LIVE_TMP/rss.txt"
end=$((SECONDS + minutes * 60))
while [ $SECONDS -lt $end ]; do
  kill -0 "$SPINDLE_PID" 2>/dev/null || fail "spindle died during the soak"
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$SPINDLE_PID/status")
  echo "$SECONDS $rss $(status_field peak_voices) $(status_field streams)" >>"$LIVE_TMP/rss.txt"
  sleep 10
done

stop_pid "$PLAYER_PID"
wait_until 15 all_quiet || fail "voices or streams did not return to 0: $(status_line)"
final=$(status_line)
stop_pid "$IDLE_PID"
idle_xruns=$(sed -n 's/^xruns: //p' "$LIVE_TMP/idle.out")
report_and_check "$final" "$idle_xruns"
stop_spindle
echo PASSED
