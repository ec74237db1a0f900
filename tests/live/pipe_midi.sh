#!/usr/bin/env bash
# Raw MIDI from a named pipe (--midi-device FIFO): running status, realtime bytes in
# the middle of messages and a sysex must give exactly the right notes, with
# monotonic timestamps on the audio clock.
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp mkfifo
make_instrument
mkfifo "$LIVE_TMP/midi.fifo"
start_jackd "spindle-pipe-$$"
start_spindle --backend jack --midi-device "$LIVE_TMP/midi.fifo"
exec 3>"$LIVE_TMP/midi.fifo"
send() { printf "$1" >&3; sleep 0.1; }
send '\x90\x3c\x64'                  # note on ch1 C4 100
send '\x3e\x50'                      # running status: D4 80
send '\x40\xf8\x46'                  # running status, a clock byte inside: E4 70
send '\xf0\x7e\x7f\x09\x01\xf7\x43\x3c'  # sysex, then stray data bytes (status cancelled): dropped
send '\x91\x48\x5a\xfe\x4a'          # ch2 C5 90, active sensing, then running status D5 ...
send '\x5b'                          # ... velocity 91 in the next read
send '\x80\x3c\x00\x90\x3c\x00\xb0\x07\x64'  # note off, note-on velocity 0 (off), CC 7
send '\x92\x4c\x7f'                  # ch3 E5 127
exec 3>&-
wait_until 5 test "$(grep -c '^note' "$LIVE_TMP/notes.log")" -ge 6 || fail "notes missing: $(cat "$LIVE_TMP/notes.log")"
stop_spindle
cat "$LIVE_TMP/notes.log"
got=$(sed -E 's/^note ch=([0-9]+) key=([0-9]+) vel=([0-9]+) src=([a-z]+).*/\1:\2:\3:\4/' "$LIVE_TMP/notes.log" | tr '\n' ' ')
want="1:60:100:thread 1:62:80:thread 1:64:70:thread 2:72:90:thread 2:74:91:thread 3:76:127:thread "
[ "$got" = "$want" ] || fail "notes: got '$got', want '$want'"
sed -E 's/.* event=([0-9]+) .*/\1/' "$LIVE_TMP/notes.log" | sort -n -c || fail "timestamps not monotonic"
grep -qE "midi: +[0-9]+ events, .*, 0 dropped, " "$LIVE_TMP/spindle.out" ||
  fail "MIDI events dropped: $(grep -E 'midi: +[0-9]+ events' "$LIVE_TMP/spindle.out")"
echo PASSED
