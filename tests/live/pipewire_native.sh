#!/usr/bin/env bash
# The latency test on a headless PipeWire with Spindle's native backend (pw_filter);
# the probe is a JACK client through pw-jack.
source "$SPINDLE_LIVE_SUPPORT"
need pipewire pw-jack pw-cli pw-metadata
make_instrument
start_pipewire
export PIPEWIRE_QUANTUM=256/48000
"$SPINDLE_EXE" --headless --instrument "$LIVE_TMP/inst/impulse.sfz" --name spindle --backend pipewire \
  --note-log "$LIVE_TMP/notes.log" >"$LIVE_TMP/spindle.out" 2>"$LIVE_TMP/spindle.err" &
SPINDLE_PID=$!
track "$SPINDLE_PID"
wait_until 15 pw_port_exists spindle:midi_in || fail "spindle's ports did not appear"
SPINDLE_PROBE_WRAP=pw-jack run_probe --notes 500 --latency 64
stop_spindle
cat "$LIVE_TMP/spindle.out"
echo PASSED
