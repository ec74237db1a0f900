#!/usr/bin/env bash
# jackd killed (SIGKILL) during playback, with a note held: Spindle reconnects by
# itself and plays again, sample-accurately, with no restart; and the held note does not
# hang: its note-off was lost with the server, so Spindle releases every voice when it
# reconnects (fault injection).
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp oscsend oscdump python3
make_instrument
# Key 20 (the probe plays 36..83) also holds a looping sine: a voice that only a
# note-off, or the release on reconnect, ends.
echo "<region> key=20 sample=*sine loop_mode=loop_continuous" >>"$LIVE_TMP/inst/impulse.sfz"
osc_port=$(free_port)
start_jackd "spindle-rec-$$"
start_spindle --backend jack --osc-port "$osc_port"
OSC_PORT=$osc_port start_dump  # its OSC answers before the note below is sent
run_probe --notes 40
# active_voices: the "voices: N active" of a fresh SIGUSR1 stats print.
active_voices() { stats_line voices: | sed -E 's/voices: +([0-9]+) active.*/\1/'; }
oscsend 127.0.0.1 "$osc_port" /spindle/note_on iii 1 20 100
sleep 0.5
[ "$(active_voices)" -ge 1 ] || fail "the held note did not start"
kill -KILL "$JACKD_PID"
wait_until 10 grep -q "server went away" "$LIVE_TMP/spindle.err" || fail "spindle did not notice the server going away"
kill -0 "$SPINDLE_PID" || fail "spindle died with the server"
sleep 1
start_jackd "$JACK_DEFAULT_SERVER"
wait_until 15 port_exists spindle:midi_in || fail "spindle did not reconnect"
# The ports appear (start() registers them) a moment before the message is written.
wait_until 5 grep -q "reconnected" "$LIVE_TMP/spindle.err" || fail "no reconnect message"
sleep 1
voices=$(active_voices)
[ "$voices" -eq 0 ] || fail "$voices voice(s) still sounding after the reconnect: a hung note"
# The note log keeps growing in one file: the probe compares only the new lines.
lines=$(wc -l <"$LIVE_TMP/notes.log")
run_probe --notes 40 --skip-lines "$lines"
stop_spindle
grep -q "1 reconnects" "$LIVE_TMP/spindle.out" || fail "summary does not count the reconnect"
cat "$LIVE_TMP/spindle.out" "$LIVE_TMP/spindle.err"
echo PASSED
