#!/usr/bin/env bash
# Installs Spindle's dependencies, builds the programs it runs (Release) with the bundled
# instrument, and starts it: the main window where there is a display, headless where there is none.
# With no library given Spindle plays the bundled electric piano. Spindle connects its
# outputs to the speakers and every MIDI keyboard (plugged in now or later) to its input,
# so a key pressed is heard at once; the on-screen keyboard and OSC play it too (README).
# With no JACK or PipeWire server running, spindle says how to start one; this script
# then renders the demo song to spindle-demo.wav instead, so there is sound to hear.
# Usage: scripts/play.sh [spindle options, e.g. --backend pipewire]
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -eq 0 ]; then scripts/install-deps.sh; else sudo scripts/install-deps.sh; fi
# A unity build (SPINDLE_UNITY_BUILD: each library's files compiled in batches of 8) of
# only what this script runs: spindle (which pulls in its window module, spindle-gui,
# where Qt 6 is found), spindle-render for the fallback below, and the bundled
# instrument. The plugins, the tools and the benchmarks are left for a full build.
cmake --preset release -DSPINDLE_BUILD_TESTS=OFF -DSPINDLE_UNITY_BUILD=ON >/dev/null
cmake --build --preset release -j"$(nproc)" --target spindle spindle-render spindle_bundled_instrument

build=build/release
instrument="$build/share/spindle/instrument"
mode=()
[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || mode=(--headless)
status=0
"$build/src/app/spindle" "${mode[@]}" "$@" || status=$?
if [ "$status" -ne 0 ]; then
  echo "play.sh: spindle exited with status $status; rendering the demo song offline instead"
  "$build/src/app/spindle-render" --sfz "$instrument/spindle-ep.sfz" --midi "$instrument/demo.mid" \
    --wav spindle-demo.wav
  echo "play.sh: wrote $(pwd)/spindle-demo.wav"
fi
