#!/usr/bin/env bash
# Plug in and play on a headless PipeWire (no session manager) with Spindle's native
# backend: nobody links Spindle's ports but Spindle itself.
# 1. No sink yet: the node runs all the same (node.always-process) and is linked to nothing.
# 2. A null sink appears later (no default.audio.sink set): out_L/out_R go to its
#    playback_FL/FR; a note sent over OSC sounds (peak_voices).
# 3. MIDI sources: a keyboard stand-in (physical MIDI output, through pw-jack) and a
#    sequencer posing as a MIDI bridge (media.class Midi/Bridge) are followed into
#    midi_in, and their notes are played.
# 4. The "default" metadata names test-sink while other-sink has the higher
#    priority.session: a new Spindle follows the metadata; with the key deleted, the priority.
# 5. --no-connect: no link in 3 s, and the node still runs.
source "$SPINDLE_LIVE_SUPPORT"
need pipewire pw-jack pw-cli pw-link pw-metadata oscsend oscdump jack_midiseq python3
peak_voices_at_least() { [ "$(status_field peak_voices)" -ge "$1" ]; }
make_instrument
# Key 20 also holds a looping sine: its voice lasts until the note-off, so the status sees it.
echo "<region> key=20 sample=*sine loop_mode=loop_continuous" >>"$LIVE_TMP/inst/impulse.sfz"
pipewire_default_metadata
start_pipewire

echo "== 1. no sink: the node runs unlinked"
OSC_PORT=$(free_port)
start_spindle_pipewire --osc-port "$OSC_PORT"
sleep 1
frames=$(frames_processed)
[ "$frames" -gt 0 ] || fail "no frame processed with no link (node.always-process)"
pw_unlinked spindle || fail "linked with no sink present: $(pw_links spindle)"
echo "$frames frames processed, no link"

echo "== 2. a sink appears: the outputs follow"
pw_null_sink test-sink
wait_until 10 pw_linked spindle:out_L test-sink:playback_FL || fail "out_L not linked to test-sink:playback_FL"
wait_until 5 pw_linked spindle:out_R test-sink:playback_FR || fail "out_R not linked to test-sink:playback_FR"
pw_links spindle
start_dump
[ "$(status_field peak_voices)" = 0 ] || fail "a voice sounded before any note"
oscsend 127.0.0.1 "$OSC_PORT" /spindle/note_on iii 1 20 100
wait_until 5 peak_voices_at_least 1 || fail "the OSC note did not sound (peak_voices $(status_field peak_voices))"
oscsend 127.0.0.1 "$OSC_PORT" /spindle/note_off ii 1 20
after=$(frames_processed)
[ "$after" -gt "$frames" ] || fail "the node stopped running once linked ($frames -> $after frames)"
echo "peak_voices $(status_field peak_voices), $after frames processed"

echo "== 3. MIDI sources are followed"
pw-jack "$SPINDLE_PROBE" keyboard --name "USB Keyboard" --notes 1 --key 62 --wait 20 --delay 0.5 --hold 0 \
  >"$LIVE_TMP/keyboard.out" 2>&1 &
track $!
wait_until 10 pw_linked "USB Keyboard:capture" spindle:midi_in || fail "the keyboard is not linked to midi_in"
wait_until 10 grep -q "played 1 notes" "$LIVE_TMP/keyboard.out" || fail "the keyboard did not play"
wait_until 5 grep -q "^note ch=1 key=62 .* voices=[1-9]" "$LIVE_TMP/notes.log" || fail "the keyboard's note started no voice"
# A note (key 64) every 0.5 s from a MIDI output that is not physical, on a Midi/Bridge node.
PIPEWIRE_PROPS='{ media.class = Midi/Bridge }' pw-jack jack_midiseq bridge 24000 0 64 12000 >"$LIVE_TMP/bridge.out" 2>&1 &
track $!
wait_until 10 pw_linked bridge:out spindle:midi_in || fail "the MIDI bridge is not linked to midi_in"
wait_until 5 grep -q "^note ch=1 key=64 .* voices=[1-9]" "$LIVE_TMP/notes.log" || fail "the bridge's notes started no voice"
pw_links spindle
stop_spindle
wait_until 5 pw_unlinked spindle || fail "spindle's links outlived its node"

echo "== 4. the default sink: the metadata, else the highest priority.session"
pw_null_sink other-sink priority.session=2000
pw-metadata -n default 0 default.audio.sink '{"name":"test-sink"}' Spa:String:JSON >/dev/null
start_spindle_pipewire --osc-port 0
wait_until 10 pw_linked spindle:out_L test-sink:playback_FL || fail "out_L does not follow default.audio.sink"
wait_until 5 pw_linked spindle:out_R test-sink:playback_FR || fail "out_R does not follow default.audio.sink"
pw_links spindle | grep -q other-sink && fail "linked to other-sink as well: $(pw_links spindle)"
stop_spindle
wait_until 5 pw_unlinked spindle || fail "spindle's links outlived its node"
pw-metadata -n default -d 0 default.audio.sink >/dev/null
start_spindle_pipewire --osc-port 0
wait_until 10 pw_linked spindle:out_L other-sink:playback_FL || fail "out_L not linked to the sink of highest priority"
wait_until 5 pw_linked spindle:out_R other-sink:playback_FR || fail "out_R not linked to the sink of highest priority"
pw_links spindle
stop_spindle
wait_until 5 pw_unlinked spindle || fail "spindle's links outlived its node"

echo "== 5. --no-connect"
start_spindle_pipewire --osc-port 0 --no-connect
sleep 3
pw_unlinked spindle || fail "linked with --no-connect: $(pw_links spindle)"
frames=$(frames_processed)
[ "$frames" -gt 0 ] || fail "no frame processed with --no-connect"
echo "$frames frames processed, no link"
stop_spindle
cat "$LIVE_TMP/spindle.out"
echo PASSED
