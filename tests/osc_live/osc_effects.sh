#!/usr/bin/env bash
# The shared reverb and chorus live, end to end on a dummy jackd: spindle starts with
# reverb and chorus options, a General MIDI SoundFont (fixtures: TimGM6mb) plays on
# part 1; OSC reads the settings back, sets them, sets and reads the part's sends;
# a bad value gets an error with the reason and the engine plays on; the recorded
# reverb tail is there with the reverb on and gone with it off; a session keeps the
# settings and restores them.
source "$SPINDLE_LIVE_SUPPORT"
source "$SPINDLE_OSC_SUPPORT"
need_fixtures "sf2/TimGM6mb.sf2"
font=$(realpath "$fixtures/sf2/TimGM6mb.sf2")
make_instrument
start_jackd "spindle-osc-effects"
OSC_PORT=$(free_port)
SPINDLE_NAME=oscfx
start_osc_spindle "$SPINDLE_NAME" --backend jack --reverb-room-size 0.5 --chorus-voices 4
start_dump

# last_reply PATH: the newest reply of PATH (its line in the dump).
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

osc /spindle/load is 1 "$font"
wait_replies "/spindle/load/done" 1 60 || fail "no /spindle/load/done"

# The options spindle started with.
query /spindle/reverb "/spindle/reverb iffff 1 0.500000 0.000000 0.500000 0.900000"
query /spindle/chorus "/spindle/chorus iifff 1 4 2.000000 0.300000 8.000000"

# Set, then read back.
osc /spindle/reverb/room-size f 0.8
osc /spindle/reverb/level f 0.5
osc /spindle/chorus/depth f 20
osc /spindle/chorus/on i 0
query /spindle/reverb "/spindle/reverb iffff 1 0.800000 0.000000 0.500000 0.500000"
query /spindle/chorus "/spindle/chorus iifff 0 4 2.000000 0.300000 20.000000"

# Bad values: an error naming the reason, the setting unchanged.
osc /spindle/reverb/room-size f 2.0
wait_replies '/spindle/error ss "/spindle/reverb/room-size" "argument 1 (value) must be 0..1, got 2"' 1 5 \
  || fail "no error for room size 2: $(last_reply /spindle/error)"
osc /spindle/chorus/voices s many
wait_replies '/spindle/error ss "/spindle/chorus/voices" "argument 1 (voices) must be an integer (i), got' 1 5 \
  || fail "no error for voices 'many': $(last_reply /spindle/error)"
query /spindle/reverb "/spindle/reverb iffff 1 0.800000 0.000000 0.500000 0.500000"

# The part's sends: CC91 on its channel, read back as the engine holds it.
osc /spindle/part/reverb ii 1 127
osc /spindle/part/chorus ii 1 0
sleep 0.3  # the CC plays one period later; the engine publishes it after that
query /spindle/part/sends "/spindle/part/sends iii 1 127 0" i 1

# tail_db FILE: the level (dBFS) of the recording from 1.5 s after the note's onset
# on, where the piano note (held 0.3 s) has died and only the reverb can sound.
tail_db() {
  python3 - "$1" <<'PY'
import math, struct, sys, wave
w = wave.open(sys.argv[1])
rate, ch = w.getframerate(), w.getnchannels()
s = struct.unpack("<%dh" % (w.getnframes() * ch), w.readframes(w.getnframes()))
onset = next(i for i in range(len(s)) if abs(s[i]) > 300) // ch
tail = s[(onset + int(1.5 * rate)) * ch:(onset + int(2.5 * rate)) * ch]
e = sum(x * x for x in tail) / max(len(tail), 1)
print("%.1f" % (10 * math.log10(e / 32768.0 ** 2) if e > 0 else -200))
PY
}
play_and_record() {
  record 4 "$1"
  sleep 0.5
  osc /spindle/note_on iii 1 60 127
  sleep 0.3
  osc /spindle/note_off ii 1 60
  wait_until 10 bash -c "! kill -0 $REC_PID" || fail "jack_rec did not finish"
}
play_and_record "$LIVE_TMP/on.wav"  # after the bad values: the engine plays on
osc /spindle/reverb/on i 0
play_and_record "$LIVE_TMP/off.wav"
on=$(tail_db "$LIVE_TMP/on.wav")
off=$(tail_db "$LIVE_TMP/off.wav")
echo "tail from 1.5 s after the onset: reverb on $on dBFS, off $off dBFS"
python3 -c "import sys; on, off = map(float, sys.argv[1:]); sys.exit(0 if on > -90 and on - off >= 20 else 1)" "$on" "$off" \
  || fail "reverb tail: on $on dBFS, off $off dBFS"

# A session keeps the settings and restores them.
session=$LIVE_TMP/fx.spindle
osc /spindle/session/save s "$session"
wait_replies "/spindle/session/saved" 1 5 || fail "no /spindle/session/saved"
grep -q '^reverb = off$' "$session" || fail "session: $(cat "$session")"
grep -q '^reverb-room-size = 0.8$' "$session" || fail "session: $(cat "$session")"
grep -q '^chorus-depth = 20$' "$session" || fail "session: $(cat "$session")"
osc /spindle/reverb/on i 1
osc /spindle/reverb/room-size f 0.1
osc /spindle/chorus/depth f 8
query /spindle/reverb "/spindle/reverb iffff 1 0.100000"
osc /spindle/session/load s "$session"
wait_replies "/spindle/session/loaded" 1 60 || fail "no /spindle/session/loaded"
query /spindle/reverb "/spindle/reverb iffff 0 0.800000 0.000000 0.500000 0.500000"
query /spindle/chorus "/spindle/chorus iifff 0 4 2.000000 0.300000 20.000000"
osc /spindle/status
wait_replies "/spindle/status " 1 5 || fail "no /spindle/status"
[ "$(status_value dropped)" = "0" ] || fail "dropped $(status_value dropped)"
stop_spindle
echo PASSED
