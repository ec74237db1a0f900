#!/usr/bin/env bash
# The latency test on a headless PipeWire with Spindle's native backend (pw_filter);
# the probe is a JACK client through pw-jack.
source "$SPINDLE_LIVE_SUPPORT"
need pipewire pw-jack pw-cli pw-metadata
make_instrument
start_pipewire
export PIPEWIRE_QUANTUM=256/48000
LIVE_PORT_CHECK=pw_port_exists start_spindle --backend pipewire --osc-port 0
SPINDLE_PROBE_WRAP=pw-jack run_probe --notes 500 --latency 64
stop_spindle
cat "$LIVE_TMP/spindle.out"
echo PASSED
