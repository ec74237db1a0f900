#!/usr/bin/env bash
# bench/run --quick against this build: it must finish, report all nine items (none
# failed) and write a results table and a JSON file that parses. Speed is not checked.
set -euo pipefail
for tool in python3 fluidsynth jackd jack_lsp /usr/bin/time; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIPPED: $tool not installed"; exit 77; }
done
results=$(mktemp -d /tmp/spindle-bench-test.XXXXXX)
trap 'rm -rf "$results"' EXIT
python3 "$SPINDLE_SOURCE_DIR/bench/run" --quick --build "$SPINDLE_BUILD_DIR" --results "$results"
for item in "1. Dense render" "2. Per-voice cost" "3. Polyphony ceiling" "4. Loading" "5. Note-on latency" \
            "6. Dense FLAC piano" "7. SoundFont loading" "8. Live memory" "9. Convolution"; do
  grep -q "^### $item" "$results/latest.md" || { echo "FAILED: no '$item' in latest.md"; exit 1; }
done
if grep -q "FAILED" "$results/latest.md"; then echo "FAILED: an item failed"; exit 1; fi
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert len(r["items"]) == 9' "$results/latest.json"
echo PASSED
