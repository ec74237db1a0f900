#!/usr/bin/env bash
# The window's connections against a real server: a dummy-backend jackd under a name of
# its own and Xvfb on a free display, then spindle_gui_connections (ConnectionsLiveTest.cpp)
# on that display: a GuiSession as `spindle` runs it, with the keyboard probe
# (spindle-live-probe keyboard) plugged in while it runs.
#
# The helpers (bounded waits, processes stopped by PID: TERM, TERM, KILL; exit 77 when a
# tool is missing) are the live tests' (tests/live/support.sh).
: "${SPINDLE_CONNECTIONS_TEST:?the spindle_gui_connections executable}" "${SPINDLE_PROBE:?spindle-live-probe}"
: "${SPINDLE_LIVE_SUPPORT:?tests/live/support.sh}"
# shellcheck source=../live/support.sh
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp Xvfb xwininfo

display=
for n in $(seq 161 230); do
  [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ] || { display=":$n"; break; }
done
[ -n "$display" ] || fail "no free X display number"

start_jackd "spindle-gui-conn-$$"
Xvfb "$display" -screen 0 1366x768x24 -nolisten tcp >"$LIVE_TMP/xvfb.out" 2>&1 &
track $!
export DISPLAY=$display
wait_until 15 xwininfo -root || fail "Xvfb did not start on $display"

# Nothing of the user's: the test keeps its settings in a temporary folder of its own.
export XDG_CONFIG_HOME=$LIVE_TMP/config XDG_RUNTIME_DIR=$LIVE_TMP/run
mkdir -p "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
status=0
QT_QPA_PLATFORM=xcb timeout 180 "$SPINDLE_CONNECTIONS_TEST" >"$LIVE_TMP/test.out" 2>&1 || status=$?
cat "$LIVE_TMP/test.out"
[ "$status" -eq 0 ] || fail "spindle_gui_connections failed (exit $status)"
grep -q "^PASS   : .*followingOffLeavesNewKeyboards" "$LIVE_TMP/test.out" || fail "the test cases did not all run"
echo "connections: passed"
