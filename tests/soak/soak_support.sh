# shellcheck shell=bash
# Helpers for tests/soak/soak.sh (sourced after tests/live/support.sh, whose OSC helpers
# free_port, start_dump, count_above, status_line and status_field it uses).

# reload_with_preload FRAMES SFZ: later loads keep FRAMES per sample in RAM; reloads part 1.
reload_with_preload() {
  local done_before
  done_before=$(count_matches /spindle/load/done "$LIVE_TMP/dump.txt")
  oscsend 127.0.0.1 "$OSC_PORT" /spindle/preload i "$1"
  oscsend 127.0.0.1 "$OSC_PORT" /spindle/load is 1 "$2"
  wait_until 120 count_above /spindle/load/done "$done_before" ||
    fail "the instrument did not reload: $(grep /spindle/error "$LIVE_TMP/dump.txt" | tail -1)"
}

# all_quiet: no voice sounds and no disk stream is open (-1: streams not measured).
all_quiet() {
  local line streams
  line=$(status_line) || return 1
  streams=$(status_field streams "$line")
  [ "$(status_field voices "$line")" = 0 ] && { [ "$streams" = 0 ] || [ "$streams" = -1 ]; }
}

# report_and_check FINAL_STATUS IDLE_XRUNS: prints the figures, fails on a breach.
report_and_check() {
  local final=$1 idle=$2
  python3 - "$LIVE_TMP/rss.txt" <<'PY' || fail "resident memory grew by more than 1% after warm-up"
import sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
t = [int(r[0]) for r in rows]; rss = [int(r[1]) for r in rows]
warm = max(60, t[-1] // 5)
steady = [m for s, m in zip(t, rss) if s - t[0] >= warm] or rss[-1:]
spread = (max(steady) - min(steady)) / min(steady) * 100
print("soak: RSS %d samples; after %d s warm-up %.1f..%.1f MiB (spread %.2f%%), first %.1f MiB"
      % (len(rss), warm, min(steady) / 1024, max(steady) / 1024, spread, rss[0] / 1024))
print("soak: peak voices %s, streams at the samples: max %s" % (max(int(r[2]) for r in rows), max(int(r[3]) for r in rows)))
sys.exit(0 if spread <= 1.0 else 1)
PY
  kill -USR1 "$SPINDLE_PID"
  wait_until 5 grep -q "^xruns:" "$LIVE_TMP/spindle.out" || fail "no stats on SIGUSR1"
  grep -E "^(xruns|stream underruns|voices|midi|backend):" "$LIVE_TMP/spindle.out" | tail -5
  local xruns
  xruns=$(status_field xruns "$final")
  echo "soak: final status: voices $(status_field voices "$final"), streams $(status_field streams "$final"), " \
       "underruns $(status_field underruns "$final"), xruns $xruns (idle client: $idle)"
  [ "$xruns" -le "$idle" ] || fail "spindle saw $xruns xruns, the idle client $idle"
}
