#!/usr/bin/env bash
# Part tunings over OSC end to end: a Scala scale and keyboard map set on a part of a
# running spindle (a *sine instrument), the note's pitch measured in the recording, the
# session saved with them, a bad scale answered with an error naming its file and line,
# and /spindle/part/tuning/clear back to 12-TET (440 Hz again).
source "$SPINDLE_LIVE_SUPPORT"
source "$SPINDLE_OSC_SUPPORT"
make_instrument
sine=$LIVE_TMP/sine.sfz
printf '%s\n' '<region> sample=*sine pitch_keycenter=69 ampeg_release=0.01' >"$sine"
scale=$LIVE_TMP/nineteen.scl
python3 -c 'print("! nineteen.scl\n19-tone equal\n19"); [print("%.6f" % (1200 * i / 19)) for i in range(1, 19)]; print("2/1")' >"$scale"
keymap=$LIVE_TMP/a432.kbm
printf '%s\n' 0 0 127 60 69 432.0 0 >"$keymap"
bad=$LIVE_TMP/bad.scl
printf '%s\n' 'Bad' 2 100.0 five >"$bad"
start_jackd "spindle-osc-tuning"
OSC_PORT=$(free_port)
SPINDLE_NAME=osctuning
start_osc_spindle "$SPINDLE_NAME" --backend jack
start_dump

osc /spindle/load is 1 "$sine"
wait_replies "/spindle/load/done" 1 30 || fail "no /spindle/load/done"

# pitch WAV FROM TO: the left channel's frequency over [FROM, TO) seconds, by zero crossings.
pitch() {
  python3 - "$@" <<'PY'
import sys, wave, struct
w = wave.open(sys.argv[1]); rate, ch = w.getframerate(), w.getnchannels()
data = w.readframes(w.getnframes())
x = struct.unpack("<%dh" % (len(data) // 2), data)[0::ch]
a, b = int(float(sys.argv[2]) * rate), int(float(sys.argv[3]) * rate)
t = [i - 1 + x[i - 1] / (x[i - 1] - x[i]) for i in range(a + 1, b) if x[i - 1] < 0 <= x[i]]
print("%.3f" % ((len(t) - 1) * rate / (t[-1] - t[0])) if len(t) > 2 else 0)
PY
}
# within HZ EXPECTED CENTS: |HZ - EXPECTED| below CENTS cents.
within() { python3 -c "import math, sys; sys.exit(0 if abs(1200 * math.log2($1 / $2)) < $3 else 1)"; }

# played KEY EXPECTED: plays KEY on part 1 for a second; its pitch in the recording in
# $HZ (set here, not printed: a failure inside shows its message). A take whose pitch is
# not EXPECTED within 1 cent while jackd logged an xrun during it (jack_rec drops that
# period: the zero crossings jump) is void and played again, 3 takes at most.
played() {
  local start take xruns
  for take in 1 2 3; do
    xruns=$(count_matches XRun "$LIVE_TMP/jackd.out")
    record 2 "$LIVE_TMP/note.wav"
    sleep 0.3
    osc /spindle/note_on iii 1 "$1" 100
    sleep 1.2
    osc /spindle/note_off ii 1 "$1"
    wait_until 10 bash -c "! kill -0 $REC_PID" || fail "jack_rec did not finish"
    start=$(onsets "$LIVE_TMP/note.wav" | head -n 1)
    [ -n "$start" ] || fail "no note in the recording of key $1"
    HZ=$(pitch "$LIVE_TMP/note.wav" "$(python3 -c "print($start + 0.2)")" "$(python3 -c "print($start + 0.9)")")
    within "$HZ" "$2" 1 && return 0
    [ "$(count_matches XRun "$LIVE_TMP/jackd.out")" -gt "$xruns" ] || return 0  # wrong, with no xrun: the caller fails
    echo "VOID TAKE $take of key $1: $HZ Hz while jackd logged an xrun"
  done
  fail "key $1: an xrun and a wrong pitch in each of 3 takes"
}
osc /spindle/part/scale is 1 "$scale"
osc /spindle/part/keymap is 1 "$keymap"
played 69 432.0; hz=$HZ
echo "19-tone, key 69 at 432 Hz: $hz Hz"
within "$hz" 432.0 1 || fail "key 69 played $hz Hz, expected 432"
expected=$(python3 -c "print(432 * 2 ** (2 / 19))")
played 71 "$expected"; hz=$HZ
echo "key 71: $hz Hz (expected $expected)"
within "$hz" "$expected" 1 || fail "key 71 played $hz Hz, expected $expected"

osc /spindle/session/save s "$LIVE_TMP/tuned.spindle"
wait_replies "/spindle/session/saved" 1 5 || fail "no /spindle/session/saved"
grep -qx "scale = $scale" "$LIVE_TMP/tuned.spindle" || fail "the session lacks the scale: $(cat "$LIVE_TMP/tuned.spindle")"
grep -qx "keymap = $keymap" "$LIVE_TMP/tuned.spindle" || fail "the session lacks the keymap"

osc /spindle/part/scale is 1 "$bad"
wait_replies "/spindle/error" 1 5 || fail "no /spindle/error for a bad scale"
grep -- "/spindle/error" "$LIVE_TMP/dump.txt" | tail -n 1
grep -q "/spindle/error ss \"/spindle/part/scale\" \"$bad:4: 'five' is neither cents nor a ratio\"" "$LIVE_TMP/dump.txt" \
  || fail "wrong error: $(grep -- /spindle/error "$LIVE_TMP/dump.txt")"

osc /spindle/part/tuning/clear i 1
played 69 440.0; hz=$HZ
echo "cleared, key 69: $hz Hz"
within "$hz" 440.0 1 || fail "after clearing key 69 played $hz Hz, expected 440"
osc /spindle/session/load s "$LIVE_TMP/tuned.spindle"
wait_replies "/spindle/session/loaded" 1 30 || fail "no /spindle/session/loaded"
played 69 432.0; hz=$HZ
echo "session loaded, key 69: $hz Hz"
within "$hz" 432.0 1 || fail "the loaded session played key 69 at $hz Hz, expected 432"
stop_spindle
echo PASSED
