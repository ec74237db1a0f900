#!/usr/bin/env bash
# The first run: no --instrument loads the bundled instrument ($SPINDLE_DATA_DIR here);
# no --backend and no sound server: spindle says what is missing and how to start it,
# and exits 1 instead of waiting; with PipeWire running it plays through PipeWire.
source "$SPINDLE_LIVE_SUPPORT"
need pipewire pw-jack pw-cli pw-metadata
make_instrument
# A JACK server name nobody runs, so a jackd on this machine is never found.
none="spindle-first-run-$$"

mkdir -p "$LIVE_TMP/data"
cp -r "$LIVE_TMP/inst/." "$LIVE_TMP/data/"
mv "$LIVE_TMP/data/impulse.sfz" "$LIVE_TMP/data/spindle-ep.sfz"
mkdir -p "$LIVE_TMP/empty" && chmod 700 "$LIVE_TMP/empty"
rc=0
env -u PIPEWIRE_REMOTE XDG_RUNTIME_DIR="$LIVE_TMP/empty" PIPEWIRE_RUNTIME_DIR="$LIVE_TMP/empty" \
  JACK_DEFAULT_SERVER="$none" SPINDLE_DATA_DIR="$LIVE_TMP/data" \
  timeout 30 "$SPINDLE_EXE" --headless --osc-port 0 >"$LIVE_TMP/none.out" 2>"$LIVE_TMP/none.err" || rc=$?
[ $rc -eq 1 ] || fail "with no sound server spindle exited $rc, not 1"
grep -q "loading the bundled instrument $LIVE_TMP/data/spindle-ep.sfz" "$LIVE_TMP/none.out" \
  || fail "spindle did not say it loaded the bundled instrument from SPINDLE_DATA_DIR"
grep -q "no sound server is running" "$LIVE_TMP/none.err" || fail "spindle did not say no server runs"
grep -q "systemctl --user start pipewire" "$LIVE_TMP/none.err" || fail "spindle did not say how to start PipeWire"
grep -q "jackd -d alsa" "$LIVE_TMP/none.err" || fail "spindle did not say how to start JACK"
cat "$LIVE_TMP/none.err"

start_pipewire
export JACK_DEFAULT_SERVER="$none"
"$SPINDLE_EXE" --headless --instrument "$LIVE_TMP/inst/impulse.sfz" --name spindle --osc-port 0 \
  >"$LIVE_TMP/spindle.out" 2>"$LIVE_TMP/spindle.err" &
SPINDLE_PID=$!
track "$SPINDLE_PID"
wait_until 15 pw_port_exists spindle:midi_in || fail "spindle's ports did not appear under PipeWire"
wait_until 5 grep -q "playing through pipewire" "$LIVE_TMP/spindle.out" || fail "spindle did not choose PipeWire"
stop_spindle
cat "$LIVE_TMP/spindle.out"
echo PASSED
