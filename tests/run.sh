#!/usr/bin/env bash
# Spindle's whole test suite, as CI runs it: installs the test dependencies, builds
# with -Werror, runs every test, then the real-time tests under RealtimeSanitizer
# and the lock-free stress tests under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)

if [ "$(id -u)" -eq 0 ]; then scripts/install-deps.sh --tests; else sudo scripts/install-deps.sh --tests; fi
export SPINDLE_FIXTURES="${SPINDLE_FIXTURES:-$top/../shared/fixtures}"
[ -d "$SPINDLE_FIXTURES" ] || echo "tests/run.sh: no fixtures at $SPINDLE_FIXTURES: tests that need them will say they skipped"
jobs=$(nproc)

section() { printf '\n==== %s ====\n' "$*"; }

section "RealtimeSanitizer (clang-22): engine, rt and streaming audio tests"
rt_tests='^(spindle_rt_tests|spindle_rt_audio_tests|spindle_dsp_tests|spindle_engine_tests|spindle_stream_audio_tests)$'
cmake --preset rtsan >/dev/null
cmake --build --preset rtsan -j"$jobs" --target spindle_rt_tests spindle_rt_audio_tests spindle_dsp_tests spindle_engine_tests \
  spindle_stream_audio_tests
ctest --preset rtsan -R "$rt_tests" -j"$jobs"

section "ThreadSanitizer: lock-free FIFOs and rings under stress, the disk thread"
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j"$jobs" --target spindle_rt_tests spindle_disk_tests spindle_stream_audio_tests
ctest --preset tsan -R '^(spindle_rt_tests|spindle_disk_tests|spindle_stream_audio_tests)$'

section "Full suite (RelWithDebInfo, -Werror)"
cmake --preset ci >/dev/null
cmake --build --preset ci -j"$jobs"
ctest --preset ci -j"$jobs"
