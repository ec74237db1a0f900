#!/usr/bin/env bash
# Spindle's whole test suite, as CI runs it: installs the test dependencies, runs the
# real-time tests under RealtimeSanitizer, the threaded tests under ThreadSanitizer,
# the unit tests under AddressSanitizer + UBSan, builds with -Werror and runs every
# test, then fuzzes each parser for a bounded time (fuzz/run.sh).
#
# Environment: SPINDLE_FIXTURES (test data, default ../shared/fixtures);
# SPINDLE_FUZZ_SECONDS (per fuzz target, default 60); SPINDLE_SKIP (sections to leave
# out, e.g. "fuzz asan": rtsan tsan asan ci package fuzz). The soak (tests/soak/soak.sh) is
# too long for CI and is run by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)

if [ "$(id -u)" -eq 0 ]; then scripts/install-deps.sh --tests; else sudo scripts/install-deps.sh --tests; fi
export SPINDLE_FIXTURES="${SPINDLE_FIXTURES:-$top/../shared/fixtures}"
[ -d "$SPINDLE_FIXTURES" ] || echo "tests/run.sh: no fixtures at $SPINDLE_FIXTURES: tests that need them will say they skipped"
jobs=$(nproc)
skip=" ${SPINDLE_SKIP:-} "

# jackd leaves its entry in the JACK shared-memory registry when it is killed, and the
# registry holds 8 servers: with no jackd running, stale entries only get in the way.
if ! pgrep -x jackd >/dev/null 2>&1 && ! pgrep -x jackdbus >/dev/null 2>&1; then
  rm -f /dev/shm/jack-shm-registry /dev/shm/jack_db-* /dev/shm/jack_sem.* /dev/shm/jack-[0-9]* 2>/dev/null || true
fi

section() { printf '\n==== %s ==== (%ds)\n' "$*" "$SECONDS"; }
wanted() { [[ "$skip" != *" $1 "* ]]; }

if wanted rtsan; then
  section "RealtimeSanitizer (clang-22): engine, rt and streaming audio tests"
  rt_tests='^(spindle_rt_tests|spindle_rt_audio_tests|spindle_dsp_tests|spindle_engine_tests|spindle_stream_audio_tests)$'
  cmake --preset rtsan >/dev/null
  cmake --build --preset rtsan -j"$jobs" --target spindle_rt_tests spindle_rt_audio_tests spindle_dsp_tests \
    spindle_engine_tests spindle_stream_audio_tests
  ctest --preset rtsan -R "$rt_tests" -j"$jobs"
fi

if wanted tsan; then
  section "ThreadSanitizer: FIFOs and rings under stress, engine, disk thread, streaming, faults, control"
  tsan_tests=(spindle_rt_tests spindle_engine_tests spindle_disk_tests spindle_stream_audio_tests
              spindle_fault_tests spindle_live_unit_tests)
  cmake --preset tsan >/dev/null
  cmake --build --preset tsan -j"$jobs" --target "${tsan_tests[@]}" spindle_control_tests
  # The control tests alone: their UDP floods hold the audio side's longest wait under
  # 5 ms, and under TSan a busy second core preempts it for longer (3 runs in 10 failed
  # beside the streaming renders). The others in parallel, as in the other sections; the
  # streaming renders, by far the longest, start first (their COST property).
  failed=0
  ctest --preset tsan -R '^spindle_control_tests$' || failed=1
  ctest --preset tsan -R "^($(IFS='|'; echo "${tsan_tests[*]}"))\$" -j"$jobs" || failed=1
  [ "$failed" -eq 0 ]
fi

if wanted asan; then
  section "AddressSanitizer + UBSan: every unit test (not the live, GUI or soak ones)"
  # No GUI here: Qt's own code under ASan doubles the build for tests that run in the
  # ci section anyway.
  cmake --preset asan -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON >/dev/null
  cmake --build --preset asan -j"$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --preset asan -LE '^(live|gui|soak|package)$' -j"$jobs"
fi

if wanted package; then
  section "Debian package: build, install (dpkg -i), run, lintian, desktop-file-validate, appstreamcli, purge"
  # Its own section: it builds the whole tree once more (Release), so it runs alone.
  cmake --preset ci >/dev/null
  ctest --preset ci -L '^package$'
fi

if wanted fuzz; then
  section "Fuzzing (libFuzzer, clang-22, ASan + UBSan): ${SPINDLE_FUZZ_SECONDS:-60}s per target, $jobs at a time"
  fuzz/run.sh --seconds "${SPINDLE_FUZZ_SECONDS:-60}" --jobs "$jobs"
fi

if wanted ci; then
  section "Full suite (RelWithDebInfo, -Werror); its summary is the last line"
  cmake --preset ci >/dev/null
  cmake --build --preset ci -j"$jobs"
  ctest --preset ci -LE '^package$' -j"$jobs"
fi
