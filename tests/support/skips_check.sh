#!/usr/bin/env bash
# tests/support/skips.py, the list of skips tests/run.sh prints and checks under CI: a real
# ctest run (a throwaway project: one test that exits 77, one that passes, one whose
# executable is missing) is collected from its JUnit XML, and the report fails under --ci
# when a skip is not in the allowed list, passes when it is, and names each skip with its
# reason either way. A skip without a SKIPPED line is never expected.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/spindle-skips.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; exit 1; }

mkdir -p "$work/project"
cat >"$work/project/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(skips NONE)
enable_testing()
add_test(NAME no_tool COMMAND sh -c "echo 'SKIPPED: frobnicate not installed'; exit 77")
add_test(NAME quiet_skip COMMAND sh -c "exit 77")
add_test(NAME passes COMMAND sh -c "echo fine")
set_tests_properties(no_tool quiet_skip PROPERTIES SKIP_RETURN_CODE 77)
CMAKE
cmake -S "$work/project" -B "$work/build" >/dev/null
(cd "$work/build" && ctest --no-tests=error --output-junit "$work/junit.xml" >/dev/null)
python3 "$here/skips.py" collect live "$work/junit.xml" "$work/skips.tsv"
[ "$(wc -l <"$work/skips.tsv")" -eq 2 ] || fail "expected 2 skips logged: $(cat "$work/skips.tsv")"

printf 'live | no_tool | frobnicate not installed | the tool is installed on CI\n' >"$work/one.txt"
printf '%s\n' 'live | no_tool | frobnicate not installed | the tool is installed on CI' \
  'live | quiet_skip | * | any reason' >"$work/both.txt"
: >"$work/none.txt"

out=$(python3 "$here/skips.py" report "$work/none.txt" "$work/skips.tsv" --ci) && fail "unexpected skips passed under --ci"
[[ "$out" == *"[live] no_tool: frobnicate not installed"*"NOT EXPECTED"* ]] || fail "the report does not name no_tool: $out"
[[ "$out" == *"2 skip(s) CI does not expect"* ]] || fail "the report does not count 2 unexpected skips: $out"
python3 "$here/skips.py" report "$work/none.txt" "$work/skips.tsv" >/dev/null || fail "without --ci a skip must not fail"
out=$(python3 "$here/skips.py" report "$work/both.txt" "$work/skips.tsv" --ci) &&
  fail "a skip that printed no reason passed under --ci: $out"
[[ "$out" == *"1 skip(s) CI does not expect"* && "$out" == *"quiet_skip: (no SKIPPED line)"* ]] ||
  fail "the reasonless skip is not the one refused: $out"
: >"$work/skips.tsv"
python3 "$here/skips.py" collect live "$work/junit.xml" "$work/skips.tsv"
grep -v quiet_skip "$work/skips.tsv" >"$work/named.tsv"
out=$(python3 "$here/skips.py" report "$work/one.txt" "$work/named.tsv" --ci) || fail "an expected skip failed: $out"
[[ "$out" == *"expected ($work/one.txt:1: the tool is installed on CI)"* ]] || fail "the expected skip is not shown: $out"
python3 "$here/skips.py" section fuzz "left out by SPINDLE_SKIP" "$work/named.tsv"
out=$(python3 "$here/skips.py" report "$work/one.txt" "$work/named.tsv" --ci) && fail "a section left out passed: $out"
[[ "$out" == *"[fuzz] (section fuzz): left out by SPINDLE_SKIP"* ]] || fail "the section left out is not named: $out"
printf 'live | no_tool\n' >"$work/bad.txt"
out=$(python3 "$here/skips.py" report "$work/bad.txt" "$work/named.tsv" 2>&1) && fail "a malformed list passed"
[[ "$out" == *"bad.txt:1: expected"* ]] || fail "a malformed list line is not named: $out"
echo PASSED
