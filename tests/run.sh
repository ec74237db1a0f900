#!/usr/bin/env bash
# Spindle's whole test suite, as CI runs it: installs the test dependencies, builds with
# -Werror and runs the live tests, runs the real-time tests under RealtimeSanitizer, the
# threaded tests under ThreadSanitizer, the unit tests under AddressSanitizer + UBSan,
# builds the Debian package, runs every other test of the -Werror build, and fuzzes each
# parser for a bounded time (fuzz/run.sh).
#
# Every skip is counted: a ctest entry that exits 77 and each "SKIPPED: ..." line it
# printed are listed at the end with their reasons (tests/support/skips.py). Under CI=true
# the run fails on any skip tests/ci-skips.txt does not expect, a configure that leaves
# out an optional part (SPINDLE_REQUIRE_ALL), a section left out, and a ctest call that
# finds no test.
#
# Environment: SPINDLE_FIXTURES (test data, default ../shared/fixtures);
# SPINDLE_FUZZ_SECONDS (per fuzz target, default 30 here; fuzz/run.sh alone: 60);
# SPINDLE_SKIP (sections to leave out, e.g. "fuzz asan": rtsan tsan asan ci package
# fuzz; refused under CI=true). The soak (tests/soak/soak.sh) is too long for CI and is
# run by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
jobs=$(nproc)
skip=" ${SPINDLE_SKIP:-} "
ci_run=false
[ "${CI:-}" = true ] && ci_run=true
if $ci_run && [ -n "${SPINDLE_SKIP:-}" ]; then
  echo "tests/run.sh: CI=true runs every section; SPINDLE_SKIP=\"$SPINDLE_SKIP\" is for local runs" >&2
  exit 1
fi

# spindle_lv2_tests, spindle_clap_tests: the plugins' run() and process(), the modules built
# with RealtimeSanitizer too.
rtsan_tests=(spindle_rt_tests spindle_rt_audio_tests spindle_dsp_tests spindle_engine_tests spindle_stream_audio_tests
             spindle_lv2_tests spindle_clap_tests)
tsan_tests=(spindle_rt_tests spindle_engine_tests spindle_disk_tests spindle_stream_audio_tests
            spindle_fault_tests spindle_live_unit_tests spindle_session_tests)

# configure SECTION, build SECTION: the section's build folder and what its tests run.
configure() {
  case $1 in
    # No GUI under ASan: Qt's own code under ASan doubles the build for tests that run
    # in the ci section anyway.
    asan) cmake --preset asan -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON >/dev/null ;;
    fuzz) ;;  # fuzz/run.sh configures its own
    *) cmake --preset "$1" >/dev/null ;;
  esac
}
build() {
  case $1 in
    rtsan) cmake --build --preset rtsan -j"$jobs" --target "${rtsan_tests[@]}" ;;
    tsan) cmake --build --preset tsan -j"$jobs" --target "${tsan_tests[@]}" spindle_control_tests ;;
    fuzz) fuzz/run.sh --build-only ;;
    *) cmake --build --preset "$1" -j"$jobs" ;;
  esac
}
# A prebuild (below) runs this script as `tests/run.sh --build SECTION...`. setsid gave it a
# scheduling autogroup of its own, and the kernel shares the CPU between autogroups by
# their own nice value: left at 0, the build would take half the CPU from the section in
# front of it, whatever its processes' nice 19.
if [ "${1:-}" = --build ]; then
  if [ -w /proc/self/autogroup ]; then echo 19 >/proc/self/autogroup || echo "(its autogroup keeps nice 0)"; fi
  shift
  status=0
  for tree in "$@"; do build "$tree" || status=1; done
  exit "$status"
fi

if [ "$(id -u)" -eq 0 ]; then scripts/install-deps.sh --tests; else sudo scripts/install-deps.sh --tests; fi
export SPINDLE_FIXTURES="${SPINDLE_FIXTURES:-$top/../shared/fixtures}"
# With the fixtures there, a test that cannot find one fails instead of skipping.
if [ -d "$SPINDLE_FIXTURES" ]; then export SPINDLE_REQUIRE_FIXTURES=1
else echo "tests/run.sh: no fixtures at $SPINDLE_FIXTURES: the tests that need them are reported skipped"; fi

# jackd leaves its entry in the JACK shared-memory registry when it is killed, and the
# registry holds 8 servers: with no jackd running, stale entries only get in the way.
if ! pgrep -x jackd >/dev/null 2>&1 && ! pgrep -x jackdbus >/dev/null 2>&1; then
  rm -rf /dev/shm/jack-shm-registry /dev/shm/jack_db-* /dev/shm/jack_sem.* /dev/shm/jack-[0-9]*
fi

section() { printf '\n==== %s ==== (%ds)\n' "$*" "$SECONDS"; }
skip_log="$top/build/skips.tsv"
mkdir -p "$top/build/junit"
rm -f "$skip_log" "$top"/build/junit/*.xml
wanted() {
  [[ "$skip" != *" $1 "* ]] && return 0
  python3 tests/support/skips.py section "$1" "left out by SPINDLE_SKIP" "$skip_log"
  return 1
}
# run_ctest SECTION ctest-arguments...: ctest, failing when it finds no test; each entry
# it reports skipped is logged with the reasons it printed, and listed at the end.
ctest_runs=0
run_ctest() {
  local section=$1 status=0
  shift
  ctest_runs=$((ctest_runs + 1))
  local junit="$top/build/junit/$section-$ctest_runs.xml"
  ctest "$@" --no-tests=error --output-junit "$junit" --test-output-size-passed 1000000 || status=$?
  [ -f "$junit" ] && python3 tests/support/skips.py collect "$section" "$junit" "$skip_log"
  return "$status"
}
# require_tests PRESET NAME...: each NAME is registered in the preset's tree (a test
# whose dependency is missing would otherwise leave a section's pattern matching less).
require_tests() {
  local preset=$1 name listing
  shift
  for name in "$@"; do
    # Listed first, then searched: grep -q ends at its first match, and under pipefail
    # the ctest it closed the pipe on would fail the check.
    listing=$(ctest --preset "$preset" -N -R "^$name\$")
    grep -q "Test *#[0-9]*: $name\$" <<<"$listing" ||
      { echo "tests/run.sh: $name is not registered in build/$preset" >&2; return 1; }
  done
}
report_skips() {
  local ci_flag=()
  $ci_run && ci_flag=(--ci)
  section "What was skipped, and why"
  python3 tests/support/skips.py report tests/ci-skips.txt "$skip_log" "${ci_flag[@]}"
}

# Prebuilds. While the live tests run (they wait on the servers' clocks and leave the
# cores idle), the trees of the sections after them build in the background, one after
# another, at the lowest CPU and I/O priority. Each section then waits for that build,
# shows its log and builds what is left (a failed prebuild fails there, in the
# foreground). The build runs in a session of its own, and signals go to the whole
# session: ninja gives each compiler a process group of its own.
declare -A prebuilt=()
prebuild() {  # prebuild SECTION...: one background build of each wanted SECTION's tree
  local section sections=()
  for section in "$@"; do
    wanted "$section" || continue
    configure "$section" || continue  # the section configures again, and fails there
    sections+=("$section")
  done
  [ ${#sections[@]} -gt 0 ] || return 0
  mkdir -p "$top/build"
  setsid nice -n 19 ionice -c 3 -t bash "$top/tests/run.sh" --build "${sections[@]}" >"$top/build/prebuild.log" 2>&1 &
  for section in "${sections[@]}"; do prebuilt[$section]=$!; done
  echo "(the ${sections[*]} trees build in the background meanwhile, at the lowest priority)"
}
await() {  # await SECTION: waits for the prebuild of its tree and shows its log
  local pid=${prebuilt[$1]:-} section
  [ -n "$pid" ] || return 0
  wait "$pid" || echo "(a prebuild failed: its section builds what is left and fails there)"
  for section in "${!prebuilt[@]}"; do
    if [ "${prebuilt[$section]}" = "$pid" ]; then unset "prebuilt[$section]"; fi
  done
  echo "(built in the background since an earlier section: build/prebuild.log)"
  cat "$top/build/prebuild.log"
}
stop_prebuilds() {
  local pid
  for pid in "${prebuilt[@]}"; do pkill -TERM -s "$pid"; done
  return 0
}
finish() {
  local status=$?
  stop_prebuilds
  if [ "$status" -ne 0 ]; then report_skips; fi
  exit "$status"
}
trap finish EXIT

# The full suite's tree first, and its live tests (real jackd, PipeWire, Xvfb; bench_quick)
# one at a time, with the other trees building beside them. The live tests check frame
# offsets against the servers' clocks: their SCHED_FIFO threads preempt the build, and
# the prebuild's autogroup at nice 19 leaves it only the CPU their other threads do not
# take (see --build above).
if wanted ci; then
  section "Full suite (RelWithDebInfo, -Werror): build"
  configure ci
  build ci
  section "Full suite, live tests (real jackd, PipeWire, Xvfb, OSC) and bench_quick"
  prebuild rtsan tsan asan fuzz
  run_ctest live --preset ci -L '^(live|bench)$' -j"$jobs"
fi

if wanted rtsan; then
  section "RealtimeSanitizer (clang-22): engine, rt, streaming audio and LV2 plugin tests"
  await rtsan
  configure rtsan
  build rtsan
  require_tests rtsan "${rtsan_tests[@]}"
  run_ctest rtsan --preset rtsan -R "^($(IFS='|'; echo "${rtsan_tests[*]}"))(_fixtures)?\$" -j"$jobs"
fi

if wanted tsan; then
  section "ThreadSanitizer: FIFOs and rings under stress, engine, disk thread, streaming, faults, control"
  await tsan
  configure tsan
  build tsan
  # The control tests alone: their UDP floods count the audio side's takes that last
  # over 5 ms, and under TSan a busy second core preempts the consumer more often. The
  # others in parallel, as in the other sections; the streaming renders, by far the
  # longest, start first (their COST property).
  require_tests tsan "${tsan_tests[@]}" spindle_control_tests
  failed=0
  run_ctest tsan --preset tsan -R '^spindle_control_tests$' || failed=1
  run_ctest tsan --preset tsan -R "^($(IFS='|'; echo "${tsan_tests[*]}"))(_fixtures)?\$" -j"$jobs" || failed=1
  [ "$failed" -eq 0 ]
fi

if wanted asan; then
  section "AddressSanitizer + UBSan: every unit test (not the live, GUI, soak, bench or FluidSynth comparison ones)"
  await asan
  configure asan
  build asan
  # bench_quick (a benchmark on a real jackd) runs once, with the live tests.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    run_ctest asan --preset asan -LE '^(live|gui|soak|package|fidelity|bench)$' -j"$jobs"
fi

if wanted package; then
  section "Debian package: build, install (dpkg -i), run, lintian, desktop-file-validate, appstreamcli, purge"
  # Its own section: it builds the whole tree once more (unoptimised: noopt), so it runs
  # alone. Its test is registered in build/ci.
  configure ci
  run_ctest package --preset ci -L '^package$'
fi

if wanted ci; then
  section "Full suite (RelWithDebInfo, -Werror): every test but the live ones"
  run_ctest ci --preset ci -LE '^(package|live|bench)$' -j"$jobs"
fi

if wanted fuzz; then
  section "Fuzzing (libFuzzer, clang-22, ASan + UBSan): ${SPINDLE_FUZZ_SECONDS:-30}s per target, $jobs at a time"
  await fuzz
  build fuzz
  fuzz/run.sh --no-build --seconds "${SPINDLE_FUZZ_SECONDS:-30}" --jobs "$jobs"
fi
report_skips
echo "tests/run.sh: every section passed"
