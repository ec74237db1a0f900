#!/usr/bin/env bash
# Installs Spindle's dependencies, builds it (Release), generates the bundled
# instrument and plays the demo song with it. Today the player is the offline
# renderer: the song goes to spindle-demo.wav (48 kHz, 32-bit float).
# Usage: scripts/play.sh [extra spindle-render options]
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -eq 0 ]; then scripts/install-deps.sh; else sudo scripts/install-deps.sh; fi
cmake --preset release -DSPINDLE_BUILD_TESTS=OFF >/dev/null
cmake --build --preset release -j"$(nproc)"

build=build/release
instrument="$build/share/spindle/instrument"
"$build/src/app/spindle-render" --sfz "$instrument/spindle-ep.sfz" --midi "$instrument/demo.mid" \
  --wav spindle-demo.wav "$@"
echo "play.sh: wrote $(pwd)/spindle-demo.wav"
