#!/usr/bin/env bash
# --multi-out on a real jackd: ports out_1_L .. out_16_R appear besides the main pair;
# notes on channels 1..16, each at its own frame, sound on their part's port only (both
# channels of the pair), at exactly their frame, and on the main pair (the full mix).
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp
make_instrument
start_jackd "spindle-multi-$$"
start_spindle --backend jack --multi-out
for port in out_L out_R out_1_L out_1_R out_16_L out_16_R; do
  port_exists "spindle:$port" || fail "no port spindle:$port"
done
[ "$(jack_lsp | grep -c '^spindle:out_')" -eq 34 ] || fail "expected 34 output ports: $(jack_lsp | grep '^spindle:')"
run_probe --notes 160 --parts 16 --latency 64
stop_spindle
cat "$LIVE_TMP/spindle.out"
echo PASSED
