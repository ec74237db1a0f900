#!/usr/bin/env bash
# Spindle's LV2 plugin in Ardour 7, headless (Ardour's dummy backend, in process: no
# jackd). ardour7-lua makes a session with a MIDI track playing Spindle, loads an
# instrument, sets the plugin's level to -6 dB, writes a song into a MIDI region and
# saves; ardour7-export exports it, and the export must equal spindle-render's render
# of the same song and instrument at the same level (tests/lv2/ardour/compare.py says
# how closely). A fresh ardour7-lua then reopens the session and saves it again: the
# plugin's state there must name the same instrument and level, and its export must
# equal the first.
#   ardour_session.sh LV2_DIR SPINDLE_RENDER generated|realworld
# generated: a small streamed SFZ the test writes; realworld: karoryfer's weresax
# (Sax1.sfz) from the fixtures, skipped when they are absent.
set -euo pipefail
lv2_dir=$(cd "$1" && pwd) render=$2 which=$3  # LV2_PATH wants absolute folders
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
scripts=$here/ardour
level=-6
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAILED: $*"; for f in "$work"/*.log; do [ -s "$f" ] && { echo "--- $f"; tail -n 25 "$f"; }; done; exit 1; }
# ardour_run LOG COMMAND...: runs one of Ardour's tools, again (at most 3 times) when it
# dies of a signal or hangs (20 s; a run takes 2 to 3). Ardour 7.3's tools now and then
# corrupt their heap ("double free or corruption", "free(): invalid next size") or hang
# while they export, more often the slower the plugin's freewheeling cycles (a plugin
# that only sleeps 3 ms a cycle there makes 6 runs in 20 fail), and now and then fail
# to register a new track's port ("Port already exists"): those are retried, a failure
# with an exit status is not.
ardour_run() {
  local log=$1 attempt rc; shift
  for attempt in 1 2 3; do
    rc=0
    timeout 20 "$@" >"$log" 2>&1 || rc=$?
    [ "$rc" -lt 124 ] && return "$rc"
    echo "Ardour died or hung (status $rc: $(grep -a -m1 -o 'double free.*\|free():.*\|corrupt.*\|Port already exists.*' "$log")), attempt $attempt of 3"
  done
  return "$rc"
}
for tool in ardour7-lua ardour7-export python3; do
  command -v "$tool" >/dev/null || skip "$tool not installed (package ardour, scripts/install-deps.sh --tests)"
done

work=$(mktemp -d /tmp/spindle-ardour.XXXXXX)
trap 'rm -rf "$work"' EXIT
# A fresh Ardour configuration, C locale (Ardour names its undo operations in the
# user's language, and the session range follows the "insert region" one).
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config LC_ALL=C
mkdir -p "$XDG_CONFIG_HOME"

case $which in
  generated)
    python3 "$scripts/song.py" instrument "$work/inst"
    instrument=$work/inst/tone.sfz ;;
  realworld)
    source "$here/../support/fixtures.sh"
    need_fixtures "realworld/karoryfer-weresax/Programs/Sax1.sfz"
    instrument=$fixtures/realworld/karoryfer-weresax/Programs/Sax1.sfz ;;
  *) echo "usage: ardour_session.sh LV2_DIR SPINDLE_RENDER generated|realworld"; exit 2 ;;
esac
python3 "$scripts/song.py" song "$work"
python3 "$scripts/song.py" preset "$work/presets" "$instrument"
export LV2_PATH=$lv2_dir:$work/presets

session=$work/session
ardour_run "$work/create.log" bash -c 'rm -rf "$1" && exec ardour7-lua -- "$2" "$1" spindle "$3" "$4"' create \
  "$session" "$scripts/create.lua" "$work/notes.txt" "$level" || fail "ardour7-lua could not make the session"
grep -q "^saved " "$work/create.log" || fail "the session was not saved"
ardour_run "$work/export1.log" ardour7-export -b float -o "$work/first.wav" "$session" spindle ||
  fail "ardour7-export failed"
grep -q "Done" "$work/export1.log" || fail "ardour7-export did not finish the export"
"$render" --instrument "$instrument" --midi "$work/song.mid" --wav "$work/reference.wav" \
  --master-gain "$level" >"$work/render.log" 2>&1 || fail "spindle-render failed"
echo "== Ardour's export against spindle-render at $level dB"
python3 "$scripts/compare.py" "$work/first.wav" "$work/reference.wav" || fail "Ardour's export is not spindle-render's"

ardour_run "$work/reopen.log" ardour7-lua -- "$scripts/reopen.lua" "$session" spindle reopened ||
  fail "ardour7-lua could not reopen the session"
grep -q "^saved reopened" "$work/reopen.log" || fail "the reopened session was not saved"
echo "== the plugin's state after the reopen"
python3 "$scripts/state.py" "$session" reopened "$instrument" "$level" || fail "the reopened plugin lost its state"
ardour_run "$work/export2.log" ardour7-export -b float -o "$work/second.wav" "$session" reopened ||
  fail "ardour7-export of the reopened session failed"
grep -q "Done" "$work/export2.log" || fail "ardour7-export did not finish the reopened session's export"
echo "== the reopened session's export against the first"
python3 "$scripts/compare.py" "$work/second.wav" "$work/first.wav" || fail "the reopened session plays differently"
echo PASSED
