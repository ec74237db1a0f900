#!/usr/bin/env bash
# Runtime problems reach OSC and the log (fault injection), on a running
# `spindle --headless` with a 16 MiB --memory-budget:
#   1. a streamed sample truncated while its note plays: the voice ends, and a
#      /spindle/problem "disk" naming the file is pushed to the subscriber;
#   2. a library over the memory budget loaded over OSC: /spindle/load/done counts the
#      samples left out and one /spindle/problem "load" names each;
#   3. /spindle/problems lists them all, /spindle/status counts them, stderr has them;
#   4. jackd killed: a /spindle/problem "server" is pushed, and Spindle reconnects.
source "$SPINDLE_LIVE_SUPPORT"
source "$SPINDLE_OSC_SUPPORT"
make_instrument
streamed="$LIVE_TMP/inst/long.wav"
# 130 stereo 16-bit files of 50000 frames, each on every key (up to 67 semitones above its
# center: the preload is the largest a sample takes, 8 x 4096 frames, 131 KB): 17 MB,
# more than the budget.
python3 - "$LIVE_TMP/big" <<'PY'
import os, shutil, struct, sys, wave
folder = sys.argv[1]
os.makedirs(folder)
first = os.path.join(folder, "s001.wav")
with wave.open(first, "wb") as w:
    w.setnchannels(2); w.setsampwidth(2); w.setframerate(48000)
    w.writeframes(struct.pack("<h", 1000) * (2 * 50000))
with open(os.path.join(folder, "big.sfz"), "w") as sfz:
    for k in range(1, 131):
        name = "s%03d.wav" % k
        if k > 1:
            shutil.copyfile(first, os.path.join(folder, name))
        sfz.write("<region> lokey=0 hikey=127 pitch_keycenter=60 sample=%s\n" % name)
PY
start_jackd "spindle-osc-problems"
OSC_PORT=$(free_port)
SPINDLE_NAME=oscproblems
start_osc_spindle "$SPINDLE_NAME" --backend jack --memory-budget 16
start_dump
osc /spindle/subscribe f 2

osc /spindle/problems
wait_replies "/spindle/problems hi 0 0" 1 5 || fail "no empty /spindle/problems at the start"

# 1. Truncated mid-note.
osc /spindle/load is 1 "$LIVE_TMP/inst/streamed.sfz"
wait_replies '/spindle/load/done isii 1 "streamed" 1 0' 1 30 || fail "streamed.sfz did not load"
sleep 0.3  # load/done leaves with the program queued: the main thread hands it to the engine
osc /spindle/note_on iii 1 60 100
wait_until 5 bash -c "[ \$(grep '/spindle/status ' '$LIVE_TMP/dump.txt' | tail -n 1 | grep -c '\"voices\" 1 ') -eq 1 ]" \
  || fail "the note did not start"
sleep 0.3
truncate -s 100000 "$streamed"  # the header and about 3000 frames are left: far less than the preload
disk_problem="/spindle/problem hsss 1 \"disk\" \"$streamed\" \"cannot read sample file $streamed at frame "
wait_replies "$disk_problem" 1 15 || fail "no /spindle/problem pushed for the truncated file"
grep -F -- "$disk_problem" "$LIVE_TMP/dump.txt"
grep -F -- "$disk_problem" "$LIVE_TMP/dump.txt" | grep -q "the file ended early" || fail "the problem does not say why"
# No hung note: the voice ends where the data does, its key still down.
wait_until 10 bash -c "[ \$(grep '/spindle/status ' '$LIVE_TMP/dump.txt' | tail -n 1 | grep -c '\"voices\" 0 ') -eq 1 ]" \
  || fail "the voice of the truncated sample did not end"
osc /spindle/note_off ii 1 60

# 2. Over the memory budget.
osc /spindle/load is 2 "$LIVE_TMP/big/big.sfz"
wait_replies '/spindle/load/done isii 2 "big" 130 ' 1 60 || fail "big.sfz did not load"
left_out=$(grep -- '/spindle/load/done isii 2 "big" 130 ' "$LIVE_TMP/dump.txt" | awk '{print $NF}')
echo "samples left out: $left_out"
[ "$left_out" -ge 1 ] && [ "$left_out" -le 10 ] || fail "expected 1..10 samples left out of 130 by 16 MiB, got $left_out"
wait_replies '/spindle/problem hsss [0-9]* "load"' "$left_out" 5 || fail "not every sample left out was pushed"
mapfile -t pushed < <(grep -- '/spindle/problem hsss [0-9]* "load"' "$LIVE_TMP/dump.txt")
[ "${#pushed[@]}" -eq "$left_out" ] || fail "${#pushed[@]} load problems pushed for $left_out samples left out"
for line in "${pushed[@]}"; do
  file=$(python3 -c 'import shlex, sys; print(shlex.split(sys.argv[1])[5])' "$line")
  [[ "$file" == "$LIVE_TMP/big/s"???.wav ]] || fail "a load problem names $file: $line"
  [[ "$line" == *"sample file $file not loaded: it needs 1 MiB in RAM and the memory budget of 16 MiB"* ]] \
    || fail "wrong message: $line"
done
[ "$(printf '%s\n' "${pushed[@]}" | awk '{print $6}' | sort -u | wc -l)" -eq "$left_out" ] || fail "a file pushed twice"

# 3. The list, the count, the log.
total=$((left_out + 1))
before=$(replies "/spindle/problem hsss")
osc /spindle/problems
wait_replies "/spindle/problems hi $total $total" 1 5 || fail "/spindle/problems does not count $total"
wait_replies "/spindle/problem hsss" $((before + total)) 5 || fail "/spindle/problems did not list $total problems"
grep -F -- "$disk_problem" "$LIVE_TMP/dump.txt" | [ "$(wc -l)" -eq 2 ] || fail "the list lacks the disk problem"
osc /spindle/status
wait_until 5 bash -c "[ \"\$(grep '/spindle/status ' '$LIVE_TMP/dump.txt' | tail -n 1 | grep -c '\"problems\" $total')\" -eq 1 ]" \
  || fail "status problems $(status_value problems), expected $total"
grep -qF "spindle: cannot read sample file $streamed at frame" "$LIVE_TMP/spindle.err" || fail "the disk problem is not in the log"
[ "$(grep -c "not loaded: it needs" "$LIVE_TMP/spindle.err")" -eq "$left_out" ] || fail "the log lacks a sample left out"

# 4. jackd killed: a "server" problem with no file is pushed and logged, and Spindle
#    reconnects by itself to the restarted server; the status counts one more.
kill -KILL "$JACKD_PID"
wait_replies "/spindle/problem hsss $((total + 1)) \"server\" \"\" \"the jack server went away; reconnecting\"" 1 10 \
  || fail "no server problem pushed after jackd was killed"
grep -qx "spindle: the jack server went away; reconnecting" "$LIVE_TMP/spindle.err" || fail "the server problem is not in the log"
sleep 1
start_jackd "$JACK_DEFAULT_SERVER"
wait_until 15 grep -q "reconnected to the jack server" "$LIVE_TMP/spindle.err" || fail "spindle did not reconnect"
osc /spindle/status
wait_until 5 bash -c "[ \"\$(grep '/spindle/status ' '$LIVE_TMP/dump.txt' | tail -n 1 | grep -c '\"problems\" $((total + 1))')\" -eq 1 ]" \
  || fail "status problems $(status_value problems), expected $((total + 1))"
stop_spindle
echo PASSED
