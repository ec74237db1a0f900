# Helpers for the live tests (sourced). Every wait is bounded; every process a test
# starts is recorded and killed by PID on exit; a missing tool skips the test (77).
set -euo pipefail

LIVE_PIDS=()
LIVE_TMP=$(mktemp -d /tmp/spindle-live.XXXXXX)
LIVE_KEEP=${SPINDLE_LIVE_KEEP:-0}

live_cleanup() {
  local pid
  for pid in "${LIVE_PIDS[@]}"; do stop_pid "$pid"; done
  if [ "$LIVE_KEEP" = 1 ]; then echo "kept $LIVE_TMP"; else rm -rf "$LIVE_TMP"; fi
}
trap live_cleanup EXIT

skip() { echo "SKIPPED: $*"; exit 77; }
source "$(dirname "${BASH_SOURCE[0]}")/../support/fixtures.sh"  # need_fixtures
fail() {
  echo "FAILED: $*"
  # A running spindle prints its stats (xruns, frame gaps, MIDI counts) for the diagnosis.
  if [ -n "${SPINDLE_PID:-}" ] && kill -USR1 "$SPINDLE_PID" 2>/dev/null; then sleep 0.5; fi
  for f in "$LIVE_TMP"/*.out "$LIVE_TMP"/*.err; do [ -s "$f" ] && { echo "--- $f"; tail -n 30 "$f"; }; done
  exit 1
}
need() {
  local tool
  for tool in "$@"; do command -v "$tool" >/dev/null 2>&1 || skip "$tool not installed (scripts/install-deps.sh --tests)"; done
}
# count_matches PATTERN FILE: how many lines of FILE match; 0 when none, but a missing
# or unreadable FILE fails (grep's status 2).
count_matches() { grep -c -- "$1" "$2" || [ $? -eq 1 ]; }

# wait_until SECONDS COMMAND...: polls every 50 ms.
wait_until() {
  local deadline=$((SECONDS + $1)); shift
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -ge $deadline ] && return 1
    sleep 0.05
  done
}

# stop_pid PID: TERM, TERM again (jackd may ignore the first), then KILL.
stop_pid() {
  local pid=$1 i
  kill -0 "$pid" 2>/dev/null || return 0
  for sig in TERM TERM KILL; do
    kill -"$sig" "$pid" 2>/dev/null || break  # gone already
    for i in $(seq 40); do kill -0 "$pid" 2>/dev/null || break 2; sleep 0.05; done
  done
  # Teardown: its exit status was checked where it mattered (stop_spindle).
  wait "$pid" 2>/dev/null || return 0
}
track() { LIVE_PIDS+=("$1"); }

# start_jackd NAME: a dummy-backend jackd at 48 kHz, period LIVE_PERIOD (default 256),
# real-time.
start_jackd() {
  export JACK_DEFAULT_SERVER=$1
  jackd -n "$1" -R -P 70 -d dummy -r 48000 -p "${LIVE_PERIOD:-256}" >"$LIVE_TMP/jackd.out" 2>&1 &
  JACKD_PID=$!
  track "$JACKD_PID"
  wait_until 15 jack_lsp || fail "jackd $1 did not start"
}

# make_instrument: the impulse instrument in $LIVE_TMP/inst.
make_instrument() { "$SPINDLE_PROBE" instrument "$LIVE_TMP/inst" || fail "cannot write the test instrument"; }

# start_spindle ARGS...: spindle --headless with the impulse instrument (LIVE_INSTRUMENT:
# another); waits for its ports.
# Most tests wire Spindle's ports themselves (the probe declares its own playback
# latency), so Spindle connects nothing by itself unless LIVE_AUTOCONNECT=1.
# LIVE_PORT_CHECK: how to see its ports (default port_exists: jack_lsp).
start_spindle() {
  local connect=(--no-connect)
  [ "${LIVE_AUTOCONNECT:-0}" = 1 ] && connect=()
  "$SPINDLE_EXE" --headless --instrument "${LIVE_INSTRUMENT:-$LIVE_TMP/inst/impulse.sfz}" --name spindle "${connect[@]}" \
    --note-log "$LIVE_TMP/notes.log" "$@" >"$LIVE_TMP/spindle.out" 2>"$LIVE_TMP/spindle.err" &
  SPINDLE_PID=$!
  track "$SPINDLE_PID"
  wait_until 15 "${LIVE_PORT_CHECK:-port_exists}" spindle:midi_in || fail "spindle's ports did not appear"
}
port_exists() { jack_lsp | grep -qx "$1"; }

# stop_spindle: SIGTERM, then it must print its summary and exit by itself.
stop_spindle() {
  kill -TERM "$SPINDLE_PID"
  wait_until 10 bash -c "! kill -0 $SPINDLE_PID" || fail "spindle did not exit on SIGTERM"
  wait "$SPINDLE_PID" || fail "spindle exited with status $?"
  grep -q "spindle: stopped" "$LIVE_TMP/spindle.out" || fail "spindle printed no summary"
}

# start_pipewire: a private headless PipeWire (no D-Bus) at quantum 256, $PIPEWIRE_PID;
# its log settings LIVE_PIPEWIRE_DEBUG (PIPEWIRE_DEBUG's format), the server's only.
start_pipewire() {
  local debug=()
  [ -z "${LIVE_PIPEWIRE_DEBUG:-}" ] || debug=(env PIPEWIRE_DEBUG="$LIVE_PIPEWIRE_DEBUG")
  export XDG_RUNTIME_DIR="$LIVE_TMP/run"
  mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
  export PIPEWIRE_RUNTIME_DIR="$XDG_RUNTIME_DIR"
  unset JACK_DEFAULT_SERVER
  "${debug[@]}" pipewire >"$LIVE_TMP/pipewire.out" 2>&1 &
  PIPEWIRE_PID=$!
  track "$PIPEWIRE_PID"
  wait_until 15 pw-cli info 0 || fail "pipewire did not start"
  pw-metadata -n settings 0 clock.force-quantum 256 >/dev/null
  pw-metadata -n settings 0 clock.force-rate 48000 >/dev/null
}
pw_port_exists() { pw-jack jack_lsp | grep -qx "$1"; }

# run_probe ARGS...: the probe against spindle (LiveProbe.cpp, ProbeCheck.h). It passes
# when every note is exact, or displaced next to a break of the server's cycles (the
# probe's frame gaps and xrun callbacks, Spindle's after-xrun), no more notes excused
# than each break can explain; those are counted in its summary line. A lost note, a
# displacement with no break near it, a break over its bound, or a note on the wrong
# part's port fails.
# A void run (exit 4: notes lost only next to breaks the probe saw) is printed and
# measured again; a second void run fails.
run_probe() {
  local rc attempt lines
  for attempt in 1 2; do
    rc=0
    lines=$(cat "$LIVE_TMP/notes.log" 2>/dev/null | wc -l)
    ${SPINDLE_PROBE_WRAP:-} "$SPINDLE_PROBE" run --target spindle --note-log "$LIVE_TMP/notes.log" \
      --skip-lines "$lines" "$@" | tee -a "$LIVE_TMP/probe.out" || rc=$?
    [ $rc -eq 0 ] && return 0
    [ $rc -eq 4 ] || fail "probe: lost, displaced or misrouted notes, wrong latencies, or a break over its bound (exit $rc)"
    echo "VOID RUN $attempt: the server dropped notes in cycles it broke; measuring again"
  done
  fail "probe: notes lost in cycles the server broke in 2 runs"
}

# send_chord KEYS: the probe's chord (KEYS note-ons in one cycle) to spindle. When the
# server broke its cycles while the chord was on its way (probe exit 4) and Spindle logged
# none of its notes, the cycle never reached Spindle: that is said, and the chord sent
# once more; a second such loss fails.
send_chord() {
  local rc attempt
  for attempt in 1 2; do
    rc=0
    "$SPINDLE_PROBE" chord --target spindle --keys "$1" || rc=$?
    [ $rc -eq 0 ] && return 0
    [ $rc -eq 4 ] || fail "the chord client failed (exit $rc)"
    sleep 1  # the note log is written by Spindle's watch, not at once
    [ -s "$LIVE_TMP/notes.log" ] && return 0
    echo "VOID CHORD $attempt: the server broke the cycle that carried the chord; sending it again"
  done
  fail "the chord was lost in cycles the server broke, twice"
}

# pipewire_default_metadata: the next start_pipewire also makes the "default" metadata a
# session manager would make (pw-metadata -n default then sets default.audio.sink), by a
# drop-in in a private XDG_CONFIG_HOME; Spindle finds no saved settings there either.
pipewire_default_metadata() {
  export XDG_CONFIG_HOME="$LIVE_TMP/config"
  mkdir -p "$XDG_CONFIG_HOME/pipewire/pipewire.conf.d"
  echo 'context.objects = [ { factory = metadata args = { metadata.name = default } } ]' \
    >"$XDG_CONFIG_HOME/pipewire/pipewire.conf.d/50-default-metadata.conf"
}

# pw_null_sink NAME [PROPERTY=VALUE...]: a null audio sink with inputs playback_FL and
# playback_FR. With no session manager nobody configures an adapter's ports:
# adapter.auto-port-config gives it its DSP ports at once.
pw_null_sink() {
  local name=$1; shift
  pw-cli create-node adapter "{ factory.name=support.null-audio-sink node.name=$name media.class=Audio/Sink
    object.linger=true audio.position=[FL FR] adapter.auto-port-config={ mode=dsp monitor=false position=preserve }
    $* }" >/dev/null
  wait_until 5 pw_port_exists "$name:playback_FR" || fail "the null sink $name did not appear"
}

# pw_links NODE: "OUT -> IN" for every link from or to a port of node NODE, as pw-link shows them.
pw_links() {
  pw-link -lo | awk -v node="$1:" '/^[^ ]/ { port = $0; next }
    $1 == "|->" && (index(port, node) == 1 || index($2, node) == 1) { print port " -> " $2 }'
}
pw_linked() { pw_links "${1%%:*}" | grep -qxF -- "$1 -> $2"; }
pw_unlinked() { [ -z "$(pw_links "$1")" ]; }

# start_spindle_pipewire ARGS...: start_spindle's spindle on the native PipeWire backend,
# connecting by itself unless ARGS say --no-connect.
start_spindle_pipewire() { LIVE_AUTOCONNECT=1 LIVE_PORT_CHECK=pw_port_exists start_spindle --backend pipewire "$@"; }

# stats_line PREFIX: the line starting with PREFIX ("backend:", "voices:") of a fresh
# SIGUSR1 stats print.
stats_line() {
  local before
  before=$(count_matches "^$1" "$LIVE_TMP/spindle.out")
  kill -USR1 "$SPINDLE_PID"
  wait_until 5 bash -c "[ \$(grep -c '^$1' '$LIVE_TMP/spindle.out') -gt $before ]" || fail "no stats on SIGUSR1"
  grep "^$1" "$LIVE_TMP/spindle.out" | tail -1
}
# frames_processed: the "N frames processed" of a fresh stats print.
frames_processed() { stats_line backend: | sed -E 's/.* ([0-9]+) frames processed.*/\1/'; }

# OSC: free_port, then start_dump sends spindle's replies (spindle on $OSC_PORT) to an
# oscdump writing $LIVE_TMP/dump.txt; status_field NAME reads a fresh /spindle/status.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
count_above() { [ "$(count_matches "$1" "$LIVE_TMP/dump.txt")" -gt "$2" ]; }
start_dump() {
  DUMP_PORT=$(free_port)
  : >"$LIVE_TMP/dump.txt"
  oscdump -L "$DUMP_PORT" >>"$LIVE_TMP/dump.txt" 2>&1 &
  track $!
  local deadline=$((SECONDS + 10))
  until grep -q /spindle/pong "$LIVE_TMP/dump.txt"; do
    [ $SECONDS -ge $deadline ] && fail "no /spindle/pong on port $OSC_PORT"
    sleep 0.2
    # Until spindle listens, a send may fail: the pong above is the check.
    oscsend 127.0.0.1 "$OSC_PORT" /spindle/reply_port i "$DUMP_PORT" || continue
    oscsend 127.0.0.1 "$OSC_PORT" /spindle/ping || continue
  done
}
status_line() {
  local before
  before=$(count_matches /spindle/status "$LIVE_TMP/dump.txt")
  oscsend 127.0.0.1 "$OSC_PORT" /spindle/status
  wait_until 5 count_above /spindle/status "$before" || return 1
  grep /spindle/status "$LIVE_TMP/dump.txt" | tail -1
}
status_field() {
  local line=${2:-$(status_line)}
  echo "$line" | sed -E "s/.*\"$1\" ([-0-9.e+]+).*/\1/"
}
