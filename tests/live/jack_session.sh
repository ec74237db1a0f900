#!/usr/bin/env bash
# A session keeps the connections: links changed by hand (outputs swapped, the keyboard
# unplugged from Spindle) are saved with /spindle/session/save; a fresh Spindle makes
# its default links, and loading the session puts back the saved ones instead.
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp jack_connect jack_disconnect oscsend oscdump python3
export XDG_CONFIG_HOME="$LIVE_TMP/config"
make_instrument
osc_port=$(free_port)
start_jackd "spindle-session-$$"
linked() { jack_lsp -c "$1" | grep -qx "   $2"; }
"$SPINDLE_PROBE" keyboard --name kb1 --notes 0 --wait 60 --hold 120 >"$LIVE_TMP/kb1.out" 2>&1 &
track $!
wait_until 10 port_exists kb1:capture || fail "the keyboard did not appear"
defaults_made() {
  wait_until 10 linked spindle:out_L system:playback_1 || fail "$1: out_L was not connected by default"
  wait_until 5 linked spindle:out_R system:playback_2 || fail "$1: out_R was not connected by default"
  wait_until 5 linked spindle:midi_in kb1:capture || fail "$1: the keyboard was not connected by default"
}
LIVE_AUTOCONNECT=1 start_spindle --backend jack --osc-port "$osc_port"
OSC_PORT=$osc_port start_dump  # its OSC answers before the commands below
defaults_made "first start"
jack_disconnect spindle:out_L system:playback_1
jack_disconnect spindle:out_R system:playback_2
jack_connect spindle:out_L system:playback_2
jack_connect spindle:out_R system:playback_1
jack_disconnect kb1:capture spindle:midi_in
sleep 1.5  # the connection thread sees the change (at most a second)
oscsend 127.0.0.1 "$osc_port" /spindle/session/save s "$LIVE_TMP/custom.spindle"
wait_until 5 test -s "$LIVE_TMP/custom.spindle" || fail "the session was not saved"
cat "$LIVE_TMP/custom.spindle"
grep -qx "out_L = system:playback_2" "$LIVE_TMP/custom.spindle" || fail "the session lacks out_L's link"
grep -qx "out_R = system:playback_1" "$LIVE_TMP/custom.spindle" || fail "the session lacks out_R's link"
grep -q "midi_in" "$LIVE_TMP/custom.spindle" && fail "the session kept the keyboard link the user removed"
stop_spindle

LIVE_AUTOCONNECT=1 start_spindle --backend jack --osc-port "$osc_port"
OSC_PORT=$osc_port start_dump
defaults_made "second start"
oscsend 127.0.0.1 "$osc_port" /spindle/session/load s "$LIVE_TMP/custom.spindle"
wait_until 10 linked spindle:out_L system:playback_2 || fail "the session's out_L link was not restored"
wait_until 5 linked spindle:out_R system:playback_1 || fail "the session's out_R link was not restored"
wait_until 5 bash -c "! jack_lsp -c spindle:out_L | grep -qx '   system:playback_1'" || fail "the default out_L link stayed"
wait_until 5 bash -c "! jack_lsp -c spindle:midi_in | grep -qx '   kb1:capture'" || fail "the default keyboard link stayed"
sleep 2
linked spindle:out_R system:playback_2 && fail "a default link came back after the restore"
stop_spindle
cat "$LIVE_TMP/spindle.out"
echo PASSED
