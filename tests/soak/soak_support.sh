# shellcheck shell=bash
# Helpers for tests/soak/soak.sh (sourced after tests/live/support.sh).

# count_above PATTERN N: true when the dump holds more than N lines matching PATTERN.
count_above() { [ "$(grep -c "$1" "$LIVE_TMP/dump.txt" || true)" -gt "$2" ]; }

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_dump: oscdump on a free port; spindle is asked to send its replies there.
start_dump() {
  DUMP_PORT=$(free_port)
  : >"$LIVE_TMP/dump.txt"
  oscdump -L "$DUMP_PORT" >>"$LIVE_TMP/dump.txt" 2>&1 &
  track $!
  local deadline=$((SECONDS + 10))
  until grep -q /spindle/pong "$LIVE_TMP/dump.txt"; do
    [ $SECONDS -ge $deadline ] && fail "no /spindle/pong on port $OSC_PORT"
    oscsend 127.0.0.1 "$OSC_PORT" /spindle/reply_port i "$DUMP_PORT" || true
    oscsend 127.0.0.1 "$OSC_PORT" /spindle/ping || true
    sleep 0.2
  done
}

# reload_with_preload FRAMES SFZ: later loads keep FRAMES per sample in RAM; reloads part 1.
reload_with_preload() {
  local done_before
  done_before=$(grep -c /spindle/load/done "$LIVE_TMP/dump.txt" || true)
  oscsend 127.0.0.1 "$OSC_PORT" /spindle/preload i "$1"
  oscsend 127.0.0.1 "$OSC_PORT" /spindle/load is 1 "$2"
  wait_until 120 count_above /spindle/load/done "$done_before" ||
    fail "the instrument did not reload: $(grep /spindle/error "$LIVE_TMP/dump.txt" | tail -1)"
}

# status_line: a fresh /spindle/status reply (the newest line of the dump).
status_line() {
  local before
  before=$(grep -c /spindle/status "$LIVE_TMP/dump.txt" || true)
  oscsend 127.0.0.1 "$OSC_PORT" /spindle/status
  wait_until 5 count_above /spindle/status "$before" || return 1
  grep /spindle/status "$LIVE_TMP/dump.txt" | tail -1
}

# status_field NAME [LINE]: one value of a status reply.
status_field() {
  local line=${2:-$(status_line)}
  echo "$line" | sed -E "s/.*\"$1\" ([-0-9.e+]+).*/\1/"
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
