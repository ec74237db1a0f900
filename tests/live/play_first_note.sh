#!/usr/bin/env bash
# The first note with no patchbay: a JACK server runs and a keyboard is plugged in (a
# stand-in with a physical MIDI output port, as a2jmidid shows a USB keyboard); spindle
# starts as scripts/play.sh starts it, with no option, and plays the bundled piano. The
# keyboard's first note is heard: Spindle connected the keyboard and its outputs to the
# system's playback by itself, the note log has the note with voices, and a recorder on
# out_L hears it.
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp jack_rec python3
export XDG_CONFIG_HOME="$LIVE_TMP/config"
start_jackd "spindle-first-note-$$"
"$SPINDLE_PROBE" keyboard --name "USB Keyboard" --notes 1 --key 60 --wait 30 --delay 0.5 --hold 60 \
  --start-file "$LIVE_TMP/recording" >"$LIVE_TMP/keyboard.out" 2>&1 &
KEYBOARD_PID=$!
track "$KEYBOARD_PID"
wait_until 10 port_exists "USB Keyboard:capture" || fail "the keyboard did not appear"
"$SPINDLE_EXE" --headless --osc-port 0 --note-log "$LIVE_TMP/notes.log" >"$LIVE_TMP/spindle.out" 2>"$LIVE_TMP/spindle.err" &
SPINDLE_PID=$!
track "$SPINDLE_PID"
wait_until 15 port_exists spindle:out_L || fail "spindle's ports did not appear"
# record: jack_rec on out_L for 5 s, until it listens.
record() {
  jack_rec -f "$LIVE_TMP/out.wav" -d 5 -b 16 spindle:out_L >"$LIVE_TMP/rec.out" 2>&1 &
  rec_pid=$!
  track "$rec_pid"
  wait_until 10 bash -c "jack_lsp -c spindle:out_L | grep -q '^   jackrec:'" || fail "jack_rec did not connect to spindle:out_L"
}
record
# The keyboard plays once the recorder listens to out_L (--start-file).
xruns_before=$(count_matches "XRun" "$LIVE_TMP/jackd.out")
touch "$LIVE_TMP/recording"
wait_until 10 grep -q "connected after" "$LIVE_TMP/keyboard.out" || fail "Spindle did not connect the keyboard"
jack_lsp -c spindle:out_L | grep -qx "   system:playback_1" || fail "out_L does not reach system:playback_1"
jack_lsp -c spindle:out_R | grep -qx "   system:playback_2" || fail "out_R does not reach system:playback_2"
wait_until 10 grep -q "played 1 notes" "$LIVE_TMP/keyboard.out" || fail "the keyboard did not play"
# A note Spindle never logged while the server broke cycles (jackd logged xruns) was lost
# in a cycle that never reached it: that is said, and the keyboard plays it once more
# into a new recording; a second loss fails.
if ! wait_until 5 grep -q "^note ch=1 key=60 .* voices=[1-9]" "$LIVE_TMP/notes.log"; then
  xruns=$(($(count_matches "XRun" "$LIVE_TMP/jackd.out") - xruns_before))
  [ "$xruns" -gt 0 ] && ! grep -q "key=60" "$LIVE_TMP/notes.log" 2>/dev/null || fail "the note started no voice"
  echo "VOID NOTE: no note logged, $xruns xruns logged by jackd while it was played; playing it again"
  wait_until 10 bash -c "! kill -0 $rec_pid" || fail "the recorder did not finish"
  record
  kill -USR1 "$KEYBOARD_PID"
  wait_until 10 bash -c "[ \$(grep -c 'played 1 notes' '$LIVE_TMP/keyboard.out') -ge 2 ]" || fail "the keyboard did not play again"
  wait_until 5 grep -q "^note ch=1 key=60 .* voices=[1-9]" "$LIVE_TMP/notes.log" || fail "the note started no voice, twice"
fi
wait_until 10 bash -c "! kill -0 $rec_pid" || fail "the recorder did not finish"
python3 - "$LIVE_TMP/out.wav" <<'PY' || fail "the recording of out_L is silent"
import sys, wave, array
w = wave.open(sys.argv[1])
samples = array.array("h", w.readframes(w.getnframes()))
peak = max((abs(s) for s in samples), default=0) / 32768.0
print(f"out_L: {len(samples)} frames recorded, peak {peak:.3f}")
sys.exit(0 if peak > 0.05 else 1)
PY
grep -q "loading the bundled instrument" "$LIVE_TMP/spindle.out" || fail "spindle did not load the bundled instrument"
stop_spindle
cat "$LIVE_TMP/spindle.out"
echo PASSED
