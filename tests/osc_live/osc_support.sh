# shellcheck shell=bash
# Helpers for the OSC live tests (sourced after tests/live/support.sh, whose jackd,
# process and wait helpers they use). Every wait is bounded.
need oscsend oscdump jackd jack_lsp jack_rec python3

# Stops what the test started in reverse order, clients before the server: a jackd
# stopped first may need SIGKILL, which leaves its entry in JACK's server registry
# (8 slots: then "Too many servers already active"). Server names are fixed per test
# (spindle-osc-<test>), so a stale entry of the same name is reclaimed on the next run.
osc_cleanup() {
  local i
  for ((i = ${#LIVE_PIDS[@]} - 1; i >= 0; i--)); do stop_pid "${LIVE_PIDS[i]}"; done
  live_cleanup
}
trap osc_cleanup EXIT

# free_port: a port number free for both UDP and TCP on 127.0.0.1.
free_port() {
  python3 - <<'PY'
import random, socket
for _ in range(200):
    port = random.randint(20000, 60000)
    try:
        for kind in (socket.SOCK_DGRAM, socket.SOCK_STREAM):
            s = socket.socket(socket.AF_INET, kind); s.bind(("127.0.0.1", port)); s.close()
        print(port); break
    except OSError:
        pass
PY
}

# start_osc_spindle NAME ARGS...: spindle --headless on the impulse instrument with OSC
# on $OSC_PORT; waits for its ports and for OSC to answer.
start_osc_spindle() {
  local name=$1; shift
  "$SPINDLE_EXE" --headless --instrument "$LIVE_TMP/inst/impulse.sfz" --name "$name" --osc-port "$OSC_PORT" "$@" \
    >"$LIVE_TMP/spindle.out" 2>"$LIVE_TMP/spindle.err" &
  SPINDLE_PID=$!
  track "$SPINDLE_PID"
  wait_until 15 port_exists "$name:out_L" || fail "spindle's ports did not appear"
}

# start_dump: oscdump on a free port ($DUMP_PORT) into $LIVE_TMP/dump.txt, and asks
# Spindle to send its replies there (oscsend sends from a throw-away port).
start_dump() {
  DUMP_PORT=$(free_port)
  : >"$LIVE_TMP/dump.txt"  # exists before oscdump's redirection (a race with the first count)
  oscdump -L "$DUMP_PORT" >>"$LIVE_TMP/dump.txt" 2>&1 &
  track $!
  wait_osc_ready
}

# wait_osc_ready: asks for replies on $DUMP_PORT and pings until a new pong arrives.
wait_osc_ready() {
  local pongs deadline=$((SECONDS + 10))
  pongs=$(replies /spindle/pong)
  until [ "$(replies /spindle/pong)" -gt "$pongs" ]; do
    [ $SECONDS -ge $deadline ] && fail "no /spindle/pong from spindle on port $OSC_PORT"
    sleep 0.3
    # Until spindle listens, a send may fail: the pong above is the check.
    oscsend 127.0.0.1 "$OSC_PORT" /spindle/reply_port i "$DUMP_PORT" || continue
    oscsend 127.0.0.1 "$OSC_PORT" /spindle/ping || continue
  done
}

osc() { oscsend 127.0.0.1 "$OSC_PORT" "$@" || fail "oscsend $* failed"; }
replies() { count_matches "$1" "$LIVE_TMP/dump.txt"; }
# wait_replies PATTERN COUNT SECONDS: until the dump holds COUNT lines matching PATTERN.
wait_replies() { wait_until "$3" bash -c "[ \$(grep -c -- '$1' '$LIVE_TMP/dump.txt') -ge $2 ]"; }

# status_value NAME: the value of NAME in the last /spindle/status reply.
status_value() {
  grep -- "/spindle/status " "$LIVE_TMP/dump.txt" | tail -n 1 |
    python3 -c 'import sys, shlex; w = shlex.split(sys.stdin.read())[3:]; d = dict(zip(w[0::2], w[1::2])); print(d[sys.argv[1]])' "$1"
}

# record SECONDS FILE: records NAME:out_L/out_R ($SPINDLE_NAME) with jack_rec, in the
# background; returns once both outputs are connected to it.
record() {
  jack_rec -f "$2" -d "$1" -b 16 "$SPINDLE_NAME:out_L" "$SPINDLE_NAME:out_R" >"$LIVE_TMP/rec.out" 2>&1 &
  REC_PID=$!
  track "$REC_PID"
  wait_until 5 recording || fail "jack_rec did not connect to $SPINDLE_NAME:out_L and out_R"
}
recording() {
  jack_lsp -c "$SPINDLE_NAME:out_L" | grep -q "^   jackrec:" && jack_lsp -c "$SPINDLE_NAME:out_R" | grep -q "^   jackrec:"
}

# onsets FILE: one line per onset (seconds) in a 16-bit WAV: the first frame above
# -40 dBFS after at least 50 ms below it.
onsets() {
  python3 - "$1" <<'PY'
import sys, wave, struct
w = wave.open(sys.argv[1])
rate, channels = w.getframerate(), w.getnchannels()
data = w.readframes(w.getnframes())
samples = struct.unpack("<%dh" % (len(data) // 2), data)
gap = rate // 20
quiet, threshold = gap, 32768 * 0.01
for frame in range(len(samples) // channels):
    level = max(abs(samples[frame * channels + c]) for c in range(channels))
    if level > threshold:
        if quiet >= gap:
            print("%.3f" % (frame / rate))
        quiet = 0
    else:
        quiet += 1
PY
}
