#!/usr/bin/env bash
# The real window, captured: a dummy-backend jackd and Xvfb on a free display of a
# laptop's size (1366x768: the window must fit it), then `spindle` (the GUI) with a
# fixture instrument that labels its controls and keyswitches (label_cc, sw_label); more fixture libraries are loaded and
# notes played over OSC, and a stand-in USB keyboard (spindle-live-probe keyboard) is
# plugged in, connected by Spindle itself and played; the window is dumped with xwd, converted to PNG
# (spindle-xwd2png) and checked not to be blank. Then part 1 becomes an MPE zone's
# master and three member notes, each bent its own way, are drawn on the keyboard
# (counted by their colour). The PNGs stay under the build folder:
# $SPINDLE_SCREENSHOT_DIR/spindle-screenshot.png and spindle-mpe-screenshot.png.
#
# Every wait is bounded; every process started here is stopped by its PID on exit
# (TERM, TERM again, then KILL). Exit 77 (skipped) when a tool or the fixtures are missing
# (failed for the fixtures under SPINDLE_REQUIRE_FIXTURES=1).
set -euo pipefail

: "${SPINDLE_EXE:?the spindle executable}" "${SPINDLE_XWD2PNG:?the spindle-xwd2png tool}"
: "${SPINDLE_PROBE:?spindle-live-probe, the stand-in keyboard}"
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../support/fixtures.sh"  # need_fixtures
: "${SPINDLE_FIXTURES_DEFAULT:=$here/../../../shared/fixtures}"
out_dir=${SPINDLE_SCREENSHOT_DIR:-$PWD}
png=$out_dir/spindle-screenshot.png

skip() { echo "SKIPPED: $*"; exit 77; }
for tool in jackd jack_lsp Xvfb xwd xwininfo oscsend oscdump python3; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool not installed (scripts/install-deps.sh --tests)"
done
need_fixtures "realworld/karoryfer-horsepulse/Programs/01-keyswitch.sfz" "dim_cabasa/Dim Cabasa.sfz" \
  "sfizz-testfiles/SpecificBugs/MeatBassPizz/Programs/pizz.sfz" "sfizz-testfiles/kick.sfz"

tmp=$(mktemp -d /tmp/spindle-shot.XXXXXX)
pids=()
stop_pid() {
  local pid=$1 sig i
  for sig in TERM TERM KILL; do
    kill -"$sig" "$pid" 2>/dev/null || break  # gone already
    for i in $(seq 40); do kill -0 "$pid" 2>/dev/null || break 2; sleep 0.05; done
  done
  wait "$pid" 2>/dev/null || return 0  # teardown: its status was checked where it mattered
}
cleanup() {
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do stop_pid "${pids[i]}"; done
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "FAILED after $SECONDS s: $*"
  pgrep -a -P $$ || echo "(no child processes left)"
  for f in "$tmp"/*.log; do [ -s "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }; done
  exit 1
}
# wait_until SECONDS COMMAND...: polls every 100 ms.
wait_until() {
  local deadline=$((SECONDS + $1)); shift
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -ge "$deadline" ] && return 1
    sleep 0.1
  done
}

# A display number nobody uses, and a UDP port for OSC.
display=
for n in $(seq 91 160); do
  [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ] || { display=":$n"; break; }
done
[ -n "$display" ] || fail "no free X display number"
osc_port=$((20000 + RANDOM % 20000))
server="spindle-shot-$$"

export JACK_DEFAULT_SERVER=$server
jackd -n "$server" -R -P 70 -d dummy -r 48000 -p 256 >"$tmp/jackd.log" 2>&1 &
pids+=($!)
wait_until 15 jack_lsp || fail "jackd did not start"

Xvfb "$display" -screen 0 1366x768x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=$display
wait_until 15 xwininfo -root || fail "Xvfb did not start on $display"

# Settings for this run only: the OSC port, and the library browser on the fixtures.
export XDG_CONFIG_HOME=$tmp/config XDG_RUNTIME_DIR=$tmp/run
mkdir -p "$XDG_CONFIG_HOME/spindle" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
printf '[osc]\nport=%s\n[libraries]\nfolder=%s\n' "$osc_port" "$fixtures/sfizz-testfiles" \
  >"$XDG_CONFIG_HOME/spindle/spindle.conf"

"$SPINDLE_EXE" --instrument "$fixtures/realworld/karoryfer-horsepulse/Programs/01-keyswitch.sfz" --name spindle \
  >"$tmp/spindle.log" 2>&1 &
spindle_pid=$!
pids+=($spindle_pid)
window_id() {  # the largest window titled Spindle (Qt also makes a 1x1 one)
  xwininfo -root -tree | grep '"Spindle"' | while read -r id rest; do
    size=$(grep -o '[0-9]\+x[0-9]\+[+-]' <<<"$rest" | head -n 1)
    width=${size%%x*} height=${size#*x}
    echo "$((width * ${height%[+-]})) $id"
  done | sort -n | tail -n 1 | cut -d' ' -f2
}
has_window() { [ -n "$(window_id)" ] && xwininfo -id "$(window_id)" | grep -q 'Map State: IsViewable'; }
# Generous bounds: on a loaded 2-core machine Qt's first start under Xvfb can be slow.
wait_until 60 has_window || fail "no Spindle window appeared"
echo "window after $SECONDS s"
wait_until 30 bash -c "jack_lsp | grep -qx spindle:out_L" || fail "spindle's ports did not appear"

osc() { oscsend localhost "$osc_port" "$@" || fail "oscsend $* failed"; }
# Spindle's replies go to an oscdump; its OSC is used once it answers a ping.
dump_port=$(python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
oscdump -L "$dump_port" >"$tmp/dump.log" 2>&1 &
pids+=($!)
ponged() {
  # Until spindle listens, a send may fail: the pong is the check.
  oscsend localhost "$osc_port" /spindle/reply_port i "$dump_port" && oscsend localhost "$osc_port" /spindle/ping &&
    sleep 0.2 && grep -q /spindle/pong "$tmp/dump.log"
}
wait_until 20 ponged || fail "spindle's OSC did not answer on port $osc_port"
osc /spindle/load is 2 "$fixtures/dim_cabasa/Dim Cabasa.sfz"
osc /spindle/load is 3 "$fixtures/sfizz-testfiles/SpecificBugs/MeatBassPizz/Programs/pizz.sfz"
osc /spindle/load is 4 "$fixtures/sfizz-testfiles/kick.sfz"
osc /spindle/part/volume if 3 -6.0
osc /spindle/part/pan if 4 0.3
wait_until 30 bash -c "[ \$(grep -c /spindle/load/done '$tmp/dump.log') -ge 3 ]" || fail "the three parts did not load"

# A keyboard plugged in: Spindle connects it to midi_in by itself; it plays part 1 for
# ~10 s (40 notes), so its activity light is lit when the window is captured.
"$SPINDLE_PROBE" keyboard --name "USB Keyboard" --notes 40 --key 48 --channel 1 --hold 60 >"$tmp/keyboard.log" 2>&1 &
pids+=($!)
keyboard_linked() { jack_lsp -c "USB Keyboard:capture" | grep -q "spindle:midi_in"; }
wait_until 15 keyboard_linked || fail "spindle did not connect the keyboard to its midi_in"

# Notes over OSC: a keyswitch, a run on parts 1-4 (the latency histogram fills), then a
# held chord on part 1 while the window is captured.
osc /spindle/note_on iii 1 38 100 && osc /spindle/note_off ii 1 38
for round in 1 2 3; do
  for key in 48 52 55 60 64 67 72; do
    osc /spindle/note_on iii 1 "$key" 90; osc /spindle/note_on iii 2 70 80; osc /spindle/note_on iii 4 36 110
    sleep 0.04
    osc /spindle/note_off ii 1 "$key"; osc /spindle/note_off ii 2 70; osc /spindle/note_off ii 4 36
  done
done
for key in 48 55 64 67; do osc /spindle/note_on iii 1 "$key" 100; done
osc /spindle/note_on iii 3 28 100
sleep 0.5

id=$(window_id)
geometry=$(xwininfo -id "$id")
width=$(awk '/Width:/ {print $2}' <<<"$geometry") height=$(awk '/Height:/ {print $2}' <<<"$geometry")
echo "window ${width}x${height}"
[ "$width" -le 1366 ] && [ "$height" -le 768 ] || fail "the window (${width}x${height}) does not fit 1366x768"
xwd -id "$id" -silent >"$tmp/window.xwd" || fail "xwd could not dump window $id"
mkdir -p "$out_dir"
# The MPE marks' colour (gui/PianoKeyboardMpe.cpp): none while no zone is set.
mark_colour=ff9f43
mark_pixels() { "$SPINDLE_XWD2PNG" "$1" "$2" "$mark_colour" | tee -a "$tmp/xwd2png.log" | sed -n "s/^#$mark_colour: \([0-9]*\) pixels$/\1/p"; }
marks=$(mark_pixels "$tmp/window.xwd" "$png") || fail "the screenshot is blank or unreadable"
[ "$marks" = 0 ] || fail "$marks pixels of MPE marks drawn with no MPE zone set"
for key in 48 55 64 67; do osc /spindle/note_off ii 1 "$key"; done

# MPE: part 1 becomes the lower zone's master (15 member channels) and three notes sound
# on member channels 2-4, each with its own pressure, timbre (CC74) and bend (+2, -1
# and 0 semitones in the 48-semitone range); the keyboard draws each over its key.
osc /spindle/mpe si lower 15
zone_set() { oscsend localhost "$osc_port" /spindle/status && sleep 0.1 && grep -q '"mpe_lower" 15' "$tmp/dump.log"; }
wait_until 10 zone_set || fail "/spindle/status never showed mpe_lower 15"
mpe_note() {  # CHANNEL KEY PRESSURE TIMBRE BEND
  osc /spindle/pressure ii "$1" "$3"; osc /spindle/cc iii "$1" 74 "$4"
  osc /spindle/note_on iii "$1" "$2" 100; osc /spindle/pitchbend ii "$1" "$5"
}
mpe_note 2 60 120 110 341; mpe_note 3 64 40 30 -171; mpe_note 4 67 80 64 0
sleep 0.5
xwd -id "$id" -silent >"$tmp/mpe.xwd" || fail "xwd could not dump window $id"
marks=$(mark_pixels "$tmp/mpe.xwd" "$out_dir/spindle-mpe-screenshot.png") || fail "the MPE screenshot is blank or unreadable"
echo "MPE marks: $marks pixels"
[ "$marks" -ge 60 ] || fail "the three MPE notes are not drawn ($marks pixels of their colour)"
for note in "2 60" "3 64" "4 67"; do osc /spindle/note_off ii $note; done

kill -TERM "$spindle_pid"
wait_until 15 bash -c "! kill -0 $spindle_pid" || fail "spindle did not quit on SIGTERM"
wait "$spindle_pid" || fail "spindle exited with status $?"
echo "screenshot: $png"
