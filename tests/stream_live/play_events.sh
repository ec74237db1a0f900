# play_events.sh: sourced by the stream_live scripts (after tests/live/support.sh).
#
# play_events INSTRUMENT EVENTS TAIL [spindle options...]: starts spindle --headless on
# the running jackd with INSTRUMENT and --midi-device a fresh FIFO, writes each event of
# EVENTS (lines "seconds status data1 data2") at its time on the monotonic clock, waits
# TAIL seconds more, and stops spindle: its report is in $LIVE_TMP/spindle.out.
play_events() {
  local instrument=$1 events=$2 tail=$3
  shift 3
  rm -f "$LIVE_TMP/midi.fifo"
  mkfifo "$LIVE_TMP/midi.fifo"
  "$SPINDLE_EXE" --headless --instrument "$instrument" --name spindle "$@" \
    --midi-device "$LIVE_TMP/midi.fifo" >"$LIVE_TMP/spindle.out" 2>"$LIVE_TMP/spindle.err" &
  SPINDLE_PID=$!
  track "$SPINDLE_PID"
  wait_until 60 port_exists spindle:midi_in || fail "spindle's ports did not appear"
  python3 - "$events" "$LIVE_TMP/midi.fifo" "$tail" <<'PY' || fail "the MIDI feeder failed"
import sys, time
events = [line.split() for line in open(sys.argv[1])]
with open(sys.argv[2], "wb", buffering=0) as fifo:
    start = time.monotonic()
    for seconds, status, d1, d2 in events:
        delay = start + float(seconds) - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        fifo.write(bytes([int(status), int(d1), int(d2)]))
    time.sleep(float(sys.argv[3]))
PY
  stop_spindle
}

# The "stream underruns:" count of the last run's report (empty when missing).
stream_underruns() { sed -nE 's/^stream underruns: +([0-9]+).*/\1/p' "$LIVE_TMP/spindle.out"; }
