#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz preset), seeds them and runs each for a bounded time.
#
# Usage: fuzz/run.sh [--seconds N] [--jobs J] [--no-build | --build-only] [TARGET...]
#   --seconds N   per target (default $SPINDLE_FUZZ_SECONDS, else 60)
#   --jobs J      targets fuzzed at once, each on its own core for its N seconds
#                 (default $SPINDLE_FUZZ_JOBS, else the number of cores)
#   TARGET        fuzz_sfz fuzz_midi_file fuzz_midi_bytes fuzz_osc fuzz_osc_gate fuzz_audio_file
#                 fuzz_sf2 fuzz_xml_instrument fuzz_multisample (default: all)
#
# Seeds are copied at run time into a temporary folder, never into the repository:
# .sfz (with their #includes packed) and audio files from $SPINDLE_FUZZ_SEEDS, else
# $SPINDLE_FIXTURES, else ../shared/fixtures; OSC packets, real signed packets for the
# OSC gate and MIDI data written by fuzz_make_seeds; the damaged and odd files of every format tests/corpus/make_corpus.py
# writes. Each target's grown corpus is kept in build/fuzz/corpus/TARGET for the
# next run. A crash, leak, timeout or out-of-memory fails the script; the reproducer is
# saved under build/fuzz/crashes/TARGET/ (replay: build/fuzz/fuzz/TARGET FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
seconds=${SPINDLE_FUZZ_SECONDS:-60}
jobs=${SPINDLE_FUZZ_JOBS:-$(nproc)}
build=yes
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --no-build) build=no; shift ;;
    --build-only) build=only; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz/run.sh: --jobs takes a number of targets, not '$jobs'"; exit 2; }
all=(fuzz_sfz fuzz_midi_file fuzz_midi_bytes fuzz_osc fuzz_osc_gate fuzz_audio_file fuzz_sf2 fuzz_xml_instrument
     fuzz_multisample)
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
out=$top/build/fuzz
bin=$out/fuzz

if [ $build != no ]; then
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz -j"$(nproc)" --target "${targets[@]}" fuzz_make_seeds
  [ $build = yes ] || exit 0
fi

fixtures=${SPINDLE_FUZZ_SEEDS:-${SPINDLE_FIXTURES:-$top/../shared/fixtures}}
seeds=$(mktemp -d /tmp/spindle-fuzz-seeds.XXXXXX)
trap 'rm -rf "$seeds"' EXIT
if [ -d "$fixtures" ]; then
  python3 fuzz/pack_seeds.py "$fixtures" "$seeds"
else
  echo "fuzz/run.sh: no fixtures at $fixtures: fuzz_sfz and fuzz_audio_file start from generated seeds only"
  mkdir -p "$seeds/sfz" "$seeds/audio" "$seeds/sf2" "$seeds/xml"
  printf '<region> sample=*sine key=60\n#include "a.sfz"\n\001a.sfz\n<group> lokey=c4 <region> sample=x.wav\n' >"$seeds/sfz/min"
fi
"$bin/fuzz_make_seeds" "$seeds/osc" "$seeds/midi_file" "$seeds/midi_bytes" "$seeds/osc_gate"
# The damaged and odd files of tests/corpus, each a seed of the target reading its format.
python3 tests/corpus/make_corpus.py "$seeds/corpus" --seeds "$seeds"
echo "fuzz/run.sh: $(find "$seeds" -name 'corpus-*' -type f | wc -l) seeds from tests/corpus/make_corpus.py"
# No fixture is a multisample: one mapping written here covers every element it reads.
mkdir -p "$seeds/multisample"
printf '%s\n' '<multisample name="m"><group name="g"/><sample file="a.wav" gain="-3" group="0"' \
  ' sample-start="1.5" sample-stop="90" reverse="false" zone-logic="round-robin" parameter-1="0.5">' \
  '<key low="36" high="59" root="48" track="0.5" tune="0.25" low-fade="4" high-fade="2"/>' \
  '<velocity low="1" high="90" high-fade="10"/><select low="2"/>' \
  '<loop mode="ping-pong" start="10" stop="80" fade="0.2"/></sample></multisample>' >"$seeds/multisample/map"

seed_dir() {
  case $1 in
    fuzz_sfz) echo "$seeds/sfz" ;;
    fuzz_audio_file) echo "$seeds/audio" ;;
    fuzz_osc) echo "$seeds/osc" ;;
    fuzz_osc_gate) echo "$seeds/osc_gate" ;;
    fuzz_midi_file) echo "$seeds/midi_file" ;;
    fuzz_midi_bytes) echo "$seeds/midi_bytes" ;;
    fuzz_sf2) echo "$seeds/sf2" ;;
    fuzz_xml_instrument) echo "$seeds/xml" ;;
    fuzz_multisample) echo "$seeds/multisample" ;;
  esac
}

# fuzz TARGET: one target's run; its log and exit status go to build/fuzz/logs/.
fuzz() {
  local t=$1 rc=0
  mkdir -p "$out/corpus/$t" "$out/crashes/$t"
  "$bin/$t" "$out/corpus/$t" "$(seed_dir "$t")" -max_total_time="$seconds" -max_len=262144 -timeout=20 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/crashes/$t/" >"$out/logs/$t.log" 2>&1 || rc=$?
  echo "$rc" >"$out/logs/$t.rc"
}

# $jobs targets at a time: libFuzzer runs one thread, so with no more targets at once
# than cores, each still has a core to itself for its N seconds.
mkdir -p "$out/logs"
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
  rm -f "$out/logs/$t.rc"
  printf 'started %s (%ss)\n' "$t" "$seconds"
  fuzz "$t" &
  running=$((running + 1))
done
wait

failed=()
summary=()
for t in "${targets[@]}"; do
  corpus=$out/corpus/$t
  log=$out/logs/$t.log
  rc=$(cat "$out/logs/$t.rc" 2>/dev/null || echo "no exit status")
  printf '\n==== fuzzing %s for %ss ====\n' "$t" "$seconds"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)' "$log" | tail -2 || true
  if [ "$rc" != 0 ]; then
    failed+=("$t")
    reproducer=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    grep -E 'ERROR|SUMMARY|==[0-9]+==|runtime error' "$log" | head -20 || true
    summary+=("$t: FAILED (exit $rc) after ${execs:-?} executions; reproducer ${reproducer:-none} (log $log)")
  else
    summary+=("$t: ${execs:-?} executions, no crash ($(find "$corpus" -type f | wc -l) inputs in corpus)")
  fi
done

printf '\n==== fuzz summary (%ss per target, %s at a time) ====\n' "$seconds" "$jobs"
printf '%s\n' "${summary[@]}"
[ ${#failed[@]} -eq 0 ] || { echo "fuzz/run.sh: crashes in: ${failed[*]}"; exit 1; }
