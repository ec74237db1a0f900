#!/usr/bin/env bash
# OSC end to end on a dummy jackd: load a real instrument (fixtures: Dim Cabasa) over
# OSC with progress and done replies, play notes over OSC and find them in the recorded
# output, and check the status numbers.
source "$SPINDLE_LIVE_SUPPORT"
source "$SPINDLE_OSC_SUPPORT"
need_fixtures "dim_cabasa/Dim Cabasa.sfz"
cabasa=$(realpath "$fixtures/dim_cabasa/Dim Cabasa.sfz")
make_instrument
start_jackd "spindle-osc-play"
OSC_PORT=$(free_port)
SPINDLE_NAME=oscplay
start_osc_spindle "$SPINDLE_NAME" --backend jack
start_dump

osc /spindle/load is 1 "$cabasa"
wait_replies "/spindle/load/done" 1 60 || fail "no /spindle/load/done"
grep -q '/spindle/load/progress if 1 0.000000' "$LIVE_TMP/dump.txt" || fail "no progress 0 before the load"
grep -q '/spindle/load/done isii 1 "Dim Cabasa" 250 0' "$LIVE_TMP/dump.txt" || fail "wrong reply: $(grep load/done "$LIVE_TMP/dump.txt")"

record 4 "$LIVE_TMP/out.wav"
sleep 1
for _ in 1 2 3; do
  osc /spindle/note_on iii 1 69 127
  sleep 0.1
  osc /spindle/note_off ii 1 69
  sleep 0.9
done
wait_until 10 bash -c "! kill -0 $REC_PID" || fail "jack_rec did not finish"
mapfile -t found < <(onsets "$LIVE_TMP/out.wav")
echo "onsets: ${found[*]}"
[ "${#found[@]}" -eq 3 ] || fail "expected 3 notes in the recording, found ${#found[@]}: ${found[*]}"
python3 -c "import sys; o = [float(x) for x in sys.argv[1:]]; d = [b - a for a, b in zip(o, o[1:])]; sys.exit(0 if all(0.85 < x < 1.15 for x in d) else 1)" "${found[@]}" \
  || fail "notes not 1 s apart: ${found[*]}"

osc /spindle/status
wait_replies "/spindle/status " 1 5 || fail "no /spindle/status"
grep -- "/spindle/status " "$LIVE_TMP/dump.txt" | tail -n 1
[ "$(status_value sample_rate)" = "48000.000000" ] || fail "sample_rate $(status_value sample_rate)"
[ "$(status_value dropped)" = "0" ] || fail "dropped $(status_value dropped)"
[ "$(status_value peak_voices)" -ge 1 ] || fail "peak_voices $(status_value peak_voices)"
[ "$(status_value streams)" -ge 0 ] || fail "streams $(status_value streams)"
python3 -c "import sys; last, lo, hi = map(float, sys.argv[1:]); sys.exit(0 if 0 < lo <= last <= hi < 50 else 1)" \
  "$(status_value latency_last_ms)" "$(status_value latency_min_ms)" "$(status_value latency_max_ms)" \
  || fail "latencies last $(status_value latency_last_ms) min $(status_value latency_min_ms) max $(status_value latency_max_ms)"
[ "$(status_value memory_bytes)" -gt 1000000 ] || fail "memory_bytes $(status_value memory_bytes)"
python3 -c "import sys; sys.exit(0 if 0 <= float(sys.argv[1]) <= 100 else 1)" "$(status_value load_percent)" || fail "load"
# The audio the stream closest to running dry holds, in ms (-1: no stream open, as here
# once the notes are over); the preload per sample; the block cache's budget and what
# its streams hold pinned (none: no stream open).
python3 -c "import sys; v = float(sys.argv[1]); sys.exit(0 if v == -1 or v >= 0 else 1)" "$(status_value ahead_min_ms)" \
  || fail "ahead_min_ms $(status_value ahead_min_ms)"
[ "$(status_value bytes_per_sample)" -gt 0 ] || fail "bytes_per_sample $(status_value bytes_per_sample)"
[ "$(status_value cache_budget_bytes)" -ge $((32 << 20)) ] || fail "cache_budget_bytes $(status_value cache_budget_bytes)"
[ "$(status_value pinned_blocks)" -ge 0 ] || fail "pinned_blocks $(status_value pinned_blocks)"
stop_spindle
echo PASSED
