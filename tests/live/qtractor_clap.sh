#!/usr/bin/env bash
# spindle.clap in a real host: Qtractor (Debian 12's, which hosts CLAP) opens a session
# file (qtractor_session.py) whose MIDI track plays a clip through the plugin, the plugin
# named in the track's plugin list with a saved state naming the impulse instrument. Its
# window is on Xvfb, its audio on a dummy-backend jackd; the JACK transport starts it
# (Qtractor follows the transport), jack_rec records its master outputs, and every
# note's onset must be at its frame relative to the first's, exactly, and no note lost.
#
# The plugin gets no SPINDLE_CLAP_INSTRUMENT: the library it plays can only come from the
# session's plugin state, so any sound at all shows the state was read.
#
# Qtractor's audio/MIDI engine needs an ALSA sequencer client. Where the kernel has no
# sequencer (no /dev/snd/seq: the CI's virtual machines have no sound in their kernel),
# an empty one is preloaded (SeqStandIn.cpp): Qtractor gives a clip's notes to its
# track's plugins itself, timed in frames, so nothing measured here passes through it.
source "$SPINDLE_LIVE_SUPPORT"
need qtractor jackd jack_lsp jack_rec jack_transport Xvfb python3
session_py="$(dirname "$SPINDLE_LIVE_SUPPORT")/qtractor_session.py"
export JACK_NO_START_SERVER=1
start_jackd "spindle-qtractor-$$"

# A private home: Qtractor's settings (its log to a file, no autosave) and nothing else.
export HOME="$LIVE_TMP/home" XDG_CONFIG_HOME="$LIVE_TMP/home/.config"
unset SPINDLE_CLAP_INSTRUMENT
mkdir -p "$XDG_CONFIG_HOME/rncbc.org" "$LIVE_TMP/session"
cat >"$XDG_CONFIG_HOME/rncbc.org/Qtractor.conf" <<EOF
[Options]
Display\\StdoutCapture=false
Logging\\MessagesLog=true
Logging\\MessagesLogPath=$LIVE_TMP/qtractor.log
AutoSave\\Enabled=false
EOF
make_instrument
python3 "$session_py" write "$LIVE_TMP/session" "$SPINDLE_CLAP" "$LIVE_TMP/inst/impulse.sfz" \
  || fail "cannot write the session"

# Xvfb on a display number it finds free itself (-displayfd), as two test runs may share
# the machine.
Xvfb -displayfd 3 -nolisten tcp 3>"$LIVE_TMP/display" >"$LIVE_TMP/xvfb.out" 2>&1 &
track $!
wait_until 15 test -s "$LIVE_TMP/display" || fail "Xvfb did not start"
export DISPLAY=":$(cat "$LIVE_TMP/display")"

preload=()
[ -e /dev/snd/seq ] || preload=(env LD_PRELOAD="$SPINDLE_SEQ_STAND_IN")
"${preload[@]}" qtractor "$LIVE_TMP/session/song.qtr" >"$LIVE_TMP/qtractor.out" 2>&1 &
QTRACTOR_PID=$!
track "$QTRACTOR_PID"
wait_until 60 grep -q "Open session:" "$LIVE_TMP/qtractor.log" || fail "Qtractor did not open the session"
wait_until 15 port_exists Qtractor:Master/out_2 || fail "Qtractor's master outputs did not appear"
if grep -q "plugin not found" "$LIVE_TMP/qtractor.log"; then fail "Qtractor did not load spindle.clap"; fi

xruns() { count_matches "XRUN" "$LIVE_TMP/qtractor.log"; }
recorded() { jack_lsp -c Qtractor:Master/out_2 | grep -q '^   jackrec:'; }

# record_song N: jack_rec on the master outputs for 8 s from before the transport starts
# (the notes end 3.6 s after it), the song played from its start; then the check, its
# exit status (qtractor_session.py: 4 for notes lost or off by whole periods).
record_song() {
  local wav="$LIVE_TMP/take$1.wav" rec_pid
  jack_rec -f "$wav" -d 8 -b 16 -B 262144 Qtractor:Master/out_1 Qtractor:Master/out_2 >"$LIVE_TMP/rec$1.out" 2>&1 &
  rec_pid=$!
  track "$rec_pid"
  wait_until 10 recorded || fail "jack_rec did not connect to Qtractor's outputs"
  printf 'locate 0\nplay\n' | jack_transport >"$LIVE_TMP/transport$1.out" 2>&1 || fail "jack_transport failed"
  wait_until 20 bash -c "! kill -0 $rec_pid" || fail "the recorder did not finish"
  printf 'stop\n' | jack_transport >>"$LIVE_TMP/transport$1.out" 2>&1 || fail "jack_transport failed"
  python3 "$session_py" check "$wav" "${LIVE_PERIOD:-256}" | tee "$LIVE_TMP/check$1.out"
}

# A take whose notes are lost or off by whole periods while the server broke its cycles
# (Qtractor logs an XRUN) is said, and the song played once more. Any other error, such
# an error with no break, or a second broken take, fail.
take=1
until before=$(xruns); rc=0; record_song "$take" || rc=$?; [ $rc -eq 0 ]; do
  [ $rc -eq 4 ] || fail "notes off their frames"
  [ "$(xruns)" -gt "$before" ] || fail "notes lost or off by whole periods with no xrun"
  [ "$take" -lt 2 ] || fail "notes lost or off by whole periods in 2 takes, each with xruns"
  echo "VOID TAKE $take: Qtractor saw an xrun while the song played; playing it again"
  take=$((take + 1))
done
if grep -q "clap_log: Error" "$LIVE_TMP/qtractor.out"; then fail "the plugin logged an error in Qtractor"; fi
# Qtractor before the servers it is a client of (the cleanup stops them in start order).
stop_pid "$QTRACTOR_PID"
echo "PASSED: Qtractor played the session's clip through spindle.clap, every note at its frame"
