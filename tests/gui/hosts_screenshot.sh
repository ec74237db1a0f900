#!/usr/bin/env bash
# The master's window with its Hosts tab, for real: two headless Spindles (hosts a and b,
# each on its own dummy jackd) and a master `spindle` with its window on Xvfb driving
# them (--host). A library is loaded on each host's part through the master's OSC, a note
# held on host a; the master's OSC must report both hosts connected with their parts
# loaded, then the window is dumped with xwd and converted to PNG (spindle-xwd2png):
# $SPINDLE_SCREENSHOT_DIR/spindle-hosts-screenshot.png. The cells' values are checked by
# spindle_gui_tests (HostsPanelTests.cpp); this shows the real thing.
source "$SPINDLE_LIVE_SUPPORT"
source "$SPINDLE_OSC_SUPPORT"
need Xvfb xwd xwininfo
: "${SPINDLE_XWD2PNG:?the spindle-xwd2png tool}"
make_instrument
library=$LIVE_TMP/labelled.sfz
printf '%s\n' '<control> label_cc74=Brightness label_cc91=Reverb' '<region> sample=*sine' >"$library"

start_host() {  # NAME SERVER PORT
  JACK_DEFAULT_SERVER=$2 "$SPINDLE_EXE" --headless --instrument "$LIVE_TMP/inst/impulse.sfz" --name "$1" \
    --osc-port "$3" --backend jack >"$LIVE_TMP/$1.out" 2>"$LIVE_TMP/$1.err" &
  track $!
  JACK_DEFAULT_SERVER=$2 wait_until 15 port_exists "$1:out_L" || fail "host $1's ports did not appear"
}
start_jackd spindle-hosts-shot-a
start_jackd spindle-hosts-shot-b
start_jackd spindle-hosts-shot-m
PORT_A=$(free_port)
PORT_B=$(free_port)
start_host hosta spindle-hosts-shot-a "$PORT_A"
start_host hostb spindle-hosts-shot-b "$PORT_B"

display=
for n in $(seq 161 230); do
  [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ] || { display=":$n"; break; }
done
[ -n "$display" ] || fail "no free X display number"
Xvfb "$display" -screen 0 1366x768x24 -nolisten tcp >"$LIVE_TMP/xvfb.out" 2>&1 &
track $!
export DISPLAY=$display
wait_until 15 xwininfo -root || fail "Xvfb did not start on $display"
export XDG_CONFIG_HOME=$LIVE_TMP/config XDG_RUNTIME_DIR=$LIVE_TMP/run
mkdir -p "$XDG_CONFIG_HOME/spindle" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

OSC_PORT=$(free_port)
"$SPINDLE_EXE" --instrument "$LIVE_TMP/inst/impulse.sfz" --name master --backend jack --osc-port "$OSC_PORT" \
  --host "a=127.0.0.1:$PORT_A" --host "b=127.0.0.1:$PORT_B" >"$LIVE_TMP/spindle.out" 2>"$LIVE_TMP/spindle.err" &
SPINDLE_PID=$!
track "$SPINDLE_PID"
window_id() {  # the largest window titled Spindle (Qt also makes a 1x1 one)
  xwininfo -root -tree | grep '"Spindle"' | while read -r id rest; do
    size=$(grep -o '[0-9]\+x[0-9]\+[+-]' <<<"$rest" | head -n 1)
    width=${size%%x*} height=${size#*x}
    echo "$((width * ${height%[+-]})) $id"
  done | sort -n | tail -n 1 | cut -d' ' -f2
}
has_window() { [ -n "$(window_id)" ] && xwininfo -id "$(window_id)" | grep -q 'Map State: IsViewable'; }
wait_until 60 has_window || fail "no Spindle window appeared"
start_dump

osc /spindle/host/load sis a 1 "$library"
osc /spindle/host/part/volume sif a 1 -6
osc /spindle/host/part/cc siii a 1 74 100
osc /spindle/host/load sis b 2 "$LIVE_TMP/inst/impulse.sfz"
osc /spindle/host/part/volume sif b 2 -3
parts_loaded() {  # HOST INSTRUMENT: the master's /spindle/host/parts names the loaded instrument
  local n
  n=$(replies "/spindle/host/parts ")
  osc /spindle/host/parts s "$1"
  wait_replies "/spindle/host/parts " $((n + 1)) 3 || return 1
  grep -- "/spindle/host/parts " "$LIVE_TMP/dump.txt" | tail -n 1 | grep -q "\"$2\""
}
wait_until 20 parts_loaded a labelled || fail "host a's part is not loaded: $(grep host/parts "$LIVE_TMP/dump.txt" | tail -n 1)"
wait_until 20 parts_loaded b impulse || fail "host b's part is not loaded"
oscsend 127.0.0.1 "$PORT_A" /spindle/note_on iii 1 69 100  # a voice on host a while the window is captured
osc_status_voices() {
  local n
  n=$(replies "/spindle/host/status ")
  osc /spindle/host/status s a
  wait_replies "/spindle/host/status " $((n + 1)) 3 || return 1
  grep -- "/spindle/host/status " "$LIVE_TMP/dump.txt" | tail -n 1 | grep -q '"connected" .*"voices" 1.000000'
}
wait_until 10 osc_status_voices || fail "the master does not see host a's voice"
osc /spindle/host/list
wait_replies "/spindle/host/list " 1 5 || fail "no host list"
grep -q "\"a\" \"connected\" \"127.0.0.1\" $PORT_A \"\" 0 \"b\" \"connected\"" <(grep -- "/spindle/host/list " "$LIVE_TMP/dump.txt") ||
  fail "hosts not both connected"
sleep 1.2  # the Hosts tab refreshes twice a second

id=$(window_id)
xwd -id "$id" -silent >"$LIVE_TMP/window.xwd" || fail "xwd could not dump window $id"
out_dir=${SPINDLE_SCREENSHOT_DIR:-$PWD}
mkdir -p "$out_dir"
"$SPINDLE_XWD2PNG" "$LIVE_TMP/window.xwd" "$out_dir/spindle-hosts-screenshot.png" ||
  fail "the screenshot is blank or unreadable"
echo "screenshot: $out_dir/spindle-hosts-screenshot.png"
echo PASSED
