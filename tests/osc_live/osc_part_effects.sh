#!/usr/bin/env bash
# A part's instrument effects over OSC, end to end on a dummy jackd: an SFZ with a gain
# of -12 dB and a lowpass plays a held sine on part 1; /spindle/part/effects lists both
# effects, /spindle/part/effect/bypass bypasses the gain (the recording rises by 12 dB
# while the note holds), a wrong effect gets an error naming the message, /spindle/help
# lists the addresses, and a session keeps the flag and the part's sends and restores
# them after the instrument has loaded again.
source "$SPINDLE_LIVE_SUPPORT"
source "$SPINDLE_OSC_SUPPORT"
make_instrument
fx=$LIVE_TMP/fx.sfz
printf '%s\n' '<region> sample=*sine amp_veltrack=0' '<effect> type=gain gain=-12' \
  '<effect> type=filter filter_type=lpf_2p filter_cutoff=5000' >"$fx"
start_jackd "spindle-osc-part-effects"
OSC_PORT=$(free_port)
SPINDLE_NAME=oscpfx
start_osc_spindle "$SPINDLE_NAME" --backend jack
start_dump

last_reply() { grep -- "$1 " "$LIVE_TMP/dump.txt" | tail -n 1; }
# query PATH EXPECTED [TYPES ARGS..]: asks PATH and checks its newest reply holds EXPECTED.
query() {
  local path=$1 expected=$2 before
  shift 2
  before=$(replies "$path ")
  osc "$path" "$@"
  wait_replies "$path " $((before + 1)) 5 || fail "no $path reply"
  grep -qF -- "$expected" <<<"$(last_reply "$path")" || fail "$path: expected '$expected', got '$(last_reply "$path")'"
}

osc /spindle/help
wait_replies '/spindle/help sss "/spindle/part/effect/bypass"' 1 5 || fail "/spindle/help does not list the bypass"
grep -q '/spindle/help sss "/spindle/part/effects"' "$LIVE_TMP/dump.txt" || fail "/spindle/help does not list the effects"

osc /spindle/load is 1 "$fx"
wait_replies "/spindle/load/done" 1 30 || fail "no /spindle/load/done"
query /spindle/part/effects '/spindle/part/effects iissiissi 1 1 "gain" "main" 0 2 "filter" "main" 0' i 1

# Wrong effect numbers: an error naming the message and the reason; nothing changes.
osc /spindle/part/effect/bypass iii 1 3 1
wait_replies '/spindle/error ss "/spindle/part/effect/bypass" "part 1 has no effect 3 (its instrument has 2 effects)"' 1 5 \
  || fail "no error for effect 3: $(last_reply /spindle/error)"
osc /spindle/part/effect/bypass iii 2 1 1
wait_replies '/spindle/error ss "/spindle/part/effect/bypass" "part 2 has no effect 1' 1 5 \
  || fail "no error for part 2: $(last_reply /spindle/error)"

# level_step FILE: dB from the held note's first half second to the stretch after the bypass.
level_step() {
  python3 - "$1" <<'PY'
import math, struct, sys, wave
w = wave.open(sys.argv[1])
rate, ch = w.getframerate(), w.getnchannels()
s = struct.unpack("<%dh" % (w.getnframes() * ch), w.readframes(w.getnframes()))
onset = next(i for i in range(len(s)) if abs(s[i]) > 100) // ch
def db(a, b):
    x = s[(onset + int(a * rate)) * ch:(onset + int(b * rate)) * ch]
    return 10 * math.log10(sum(v * v for v in x) / max(len(x), 1) / 32768.0 ** 2)
print("%.2f %.2f" % (db(0.1, 0.6), db(1.7, 2.4)))
PY
}
record 4 "$LIVE_TMP/bypass.wav"
sleep 0.5
osc /spindle/note_on iii 1 69 127
sleep 1.0
osc /spindle/part/effect/bypass iii 1 1 1
wait_until 10 bash -c "! kill -0 $REC_PID" || fail "jack_rec did not finish"
osc /spindle/note_off ii 1 69
read -r before after <<<"$(level_step "$LIVE_TMP/bypass.wav")"
echo "held sine: $before dBFS with the gain, $after dBFS with it bypassed"
python3 -c "import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if a > -60 and abs(b - a - 12) <= 0.5 else 1)" \
  "$before" "$after" || fail "bypassing -12 dB: $before -> $after dBFS"
query /spindle/part/effects '/spindle/part/effects iissiissi 1 1 "gain" "main" 1 2 "filter" "main" 0' i 1

# A session keeps the flag and the sends, and restores them after the load.
osc /spindle/part/reverb ii 1 100
osc /spindle/part/chorus ii 1 7
sleep 0.3
session=$LIVE_TMP/pfx.spindle
osc /spindle/session/save s "$session"
wait_replies "/spindle/session/saved" 1 5 || fail "no /spindle/session/saved"
grep -q '^bypass = 1$' "$session" || fail "session: $(cat "$session")"
grep -q '^reverb-send = 100$' "$session" || fail "session: $(cat "$session")"
grep -q '^chorus-send = 7$' "$session" || fail "session: $(cat "$session")"
osc /spindle/part/effect/bypass iii 1 1 0
osc /spindle/part/reverb ii 1 0
query /spindle/part/effects '/spindle/part/effects iissiissi 1 1 "gain" "main" 0' i 1
osc /spindle/session/load s "$session"
wait_replies "/spindle/session/loaded" 1 30 || fail "no /spindle/session/loaded"
sleep 0.3
query /spindle/part/effects '/spindle/part/effects iissiissi 1 1 "gain" "main" 1 2 "filter" "main" 0' i 1
query /spindle/part/sends "/spindle/part/sends iii 1 100 7" i 1
osc /spindle/status
wait_replies "/spindle/status " 1 5 || fail "no /spindle/status"
[ "$(status_value dropped)" = "0" ] || fail "dropped $(status_value dropped)"
stop_spindle
echo PASSED
