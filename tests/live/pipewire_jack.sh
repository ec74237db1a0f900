#!/usr/bin/env bash
# The latency test on a headless PipeWire, with Spindle and the probe as JACK clients
# through pw-jack.
source "$SPINDLE_LIVE_SUPPORT"
need pipewire pw-jack pw-cli pw-metadata
make_instrument
start_pipewire
export PIPEWIRE_QUANTUM=256/48000
pw-jack "$SPINDLE_EXE" --headless --instrument "$LIVE_TMP/inst/impulse.sfz" --name spindle --backend jack \
  --no-connect --osc-port 0 --note-log "$LIVE_TMP/notes.log" >"$LIVE_TMP/spindle.out" 2>"$LIVE_TMP/spindle.err" &
SPINDLE_PID=$!
track "$SPINDLE_PID"
wait_until 15 pw_port_exists spindle:midi_in || fail "spindle's ports did not appear"
SPINDLE_PROBE_WRAP=pw-jack run_probe --notes 240 --latency 64
stop_spindle
cat "$LIVE_TMP/spindle.out"
echo PASSED
