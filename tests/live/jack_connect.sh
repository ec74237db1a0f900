#!/usr/bin/env bash
# Plug in and play on JACK: Spindle connects its outputs to the system's playback and
# follows hardware MIDI sources by itself. A stand-in keyboard (a physical, terminal
# MIDI output port, as a2jmidid registers one) exists before Spindle starts, a second
# is plugged in 5 s later: both end up connected to spindle:midi_in and every note of
# each is played (note log: channel, key, one voice). Links the user makes by hand are
# kept when the server restarts. With --no-connect nothing is connected.
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp jack_connect jack_disconnect oscsend oscdump python3
export XDG_CONFIG_HOME="$LIVE_TMP/config"  # no saved settings of this machine's user
make_instrument
start_jackd "spindle-connect-$$"
probe_keyboard() {  # NAME ARGS...: a stand-in keyboard in the background, its log in NAME.out
  local name=$1; shift
  "$SPINDLE_PROBE" keyboard --name "$name" "$@" >"$LIVE_TMP/$name.out" 2>&1 &
  track $!
  wait_until 10 port_exists "$name:capture" || fail "keyboard $name did not appear"
}
# linked A B: jack_lsp -c lists B under A.
linked() { jack_lsp -c "$1" | grep -qx "   $2"; }
# note_count CHANNEL KEY: note-ons of the note log that played one voice.
note_count() { count_matches "^note ch=$1 key=$2 .* voices=1$" "$LIVE_TMP/notes.log"; }

probe_keyboard kb1 --notes 3 --key 60 --channel 1 --wait 30 --hold 120
OSC_PORT=$(free_port)
LIVE_AUTOCONNECT=1 start_spindle --backend jack --osc-port "$OSC_PORT"
wait_until 10 linked spindle:out_L system:playback_1 || fail "out_L was not connected to system:playback_1"
wait_until 5 linked spindle:out_R system:playback_2 || fail "out_R was not connected to system:playback_2"
wait_until 10 linked spindle:midi_in kb1:capture || fail "the keyboard present at start was not connected"
sleep 5
probe_keyboard kb2 --notes 3 --key 72 --channel 2 --wait 30 --hold 120
wait_until 10 linked spindle:midi_in kb2:capture || fail "the keyboard plugged in 5 s later was not connected"
wait_until 10 grep -q "played 3 notes" "$LIVE_TMP/kb2.out" || fail "keyboard kb2 did not play"
wait_until 5 bash -c "[ \$(grep -c '^note ' '$LIVE_TMP/notes.log') -ge 6 ]" || fail "not every note reached Spindle"
for key in 60 61 62; do [ "$(note_count 1 $key)" -eq 1 ] || fail "kb1's key $key was not played once"; done
for key in 72 73 74; do [ "$(note_count 2 $key)" -eq 1 ] || fail "kb2's key $key was not played once"; done
grep -q "connected midi_in <-> kb2:capture" "$LIVE_TMP/spindle.out" || fail "the log does not say kb2 was connected"
# Over OSC: both sources feed midi_in, which took 12 channel messages (6 note-ons, 6
# note-offs), the last on channel 2.
start_dump
oscsend 127.0.0.1 "$OSC_PORT" /spindle/connections
wait_until 5 grep -q '/spindle/midi/input shi "midi_in"' "$LIVE_TMP/dump.txt" || fail "no /spindle/midi/input reply"
grep -q '/spindle/connections ssiii "jack" ""' "$LIVE_TMP/dump.txt" || fail "/spindle/connections: $(grep /spindle/connections "$LIVE_TMP/dump.txt")"
grep -q '/spindle/midi/source si "kb2:capture" 1' "$LIVE_TMP/dump.txt" || fail "OSC does not show kb2 feeding midi_in"
grep -q '/spindle/midi/input shi "midi_in" 12 2' "$LIVE_TMP/dump.txt" ||
  fail "midi_in's activity over OSC: $(grep /spindle/midi/input "$LIVE_TMP/dump.txt")"
# No multi-out port and nothing else: exactly the three links of the main ports plus two keyboards.
[ "$(jack_lsp -c spindle:out_L | grep -c '^   ')" -eq 1 ] || fail "out_L has other links"

# The user's own links: out_R moved to playback_1, kb2 unplugged from Spindle by hand.
jack_disconnect spindle:out_R system:playback_2
jack_connect spindle:out_R system:playback_1
jack_disconnect kb2:capture spindle:midi_in
sleep 2
linked spindle:midi_in kb2:capture && fail "Spindle reconnected a source the user had disconnected"
kill -KILL "$JACKD_PID"
wait_until 10 grep -q "server went away" "$LIVE_TMP/spindle.err" || fail "spindle did not notice the server going away"
sleep 1
start_jackd "$JACK_DEFAULT_SERVER"
wait_until 15 port_exists spindle:midi_in || fail "spindle did not reconnect"
wait_until 10 linked spindle:out_R system:playback_1 || fail "the user's out_R link was not restored after the restart"
wait_until 5 linked spindle:out_L system:playback_1 || fail "out_L's link was not restored after the restart"
sleep 2
linked spindle:out_R system:playback_2 && fail "the default link came back instead of the user's"
stop_spindle

# --no-connect: a keyboard present, and nothing is connected.
probe_keyboard kb3 --notes 1 --wait 4
LIVE_AUTOCONNECT=1 start_spindle --backend jack --osc-port 0 --no-connect
sleep 4
[ "$(jack_lsp -c spindle:out_L | count_matches '^   ' -)" -eq 0 ] || fail "--no-connect: out_L was connected"
[ "$(jack_lsp -c spindle:midi_in | count_matches '^   ' -)" -eq 0 ] || fail "--no-connect: midi_in was connected"
grep -q "no MIDI input connected; outputs not connected" "$LIVE_TMP/spindle.out" || fail "no hint about the missing connections"
stop_spindle
cat "$LIVE_TMP/spindle.out"
echo PASSED
