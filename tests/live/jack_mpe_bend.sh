#!/usr/bin/env bash
# MPE per-note bends over JACK, timed on the output: spindle --headless --mpe lower plays
# bend.sfz (silent while its note's own bend is fully down) and the probe's bend mode
# (ProbeBend.cpp) plays 60 notes on member channels 2..16, each bent fully up at an offset
# spread over the period. Every bend must sound at exactly the frame it was sent (the
# graph runs the probe, Spindle and the recorder in one cycle), and no note may sound
# before its bend (each note's bend down came before its note-on). A void run (exit 4:
# the failures all next to breaks of the server's cycles) is measured again; the third
# fails. Then 3 s of MPE's busiest input: a note held on each of the 15 member channels,
# each channel's bend, pressure and CC74 every millisecond (45,000 messages a second):
# Spindle's summary must count every message the probe sent as taken, none dropped.
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp
start_jackd "spindle-bend-$$"
make_instrument
LIVE_INSTRUMENT=$LIVE_TMP/inst/bend.sfz start_spindle --mpe lower
for attempt in 1 2 3; do
  rc=0
  "$SPINDLE_PROBE" bend --target spindle --notes 60 --channels 2-16 --flood 3 | tee "$LIVE_TMP/bend.out" || rc=$?
  [ "$rc" -eq 0 ] && break
  { [ "$rc" -eq 4 ] && [ "$attempt" -lt 3 ]; } || fail "per-note bends not heard at their frames (exit $rc)"
  echo "void run (breaks of the server's cycles next to the failures): measuring again"
done
sent=$(sed -n 's/^probe: \([0-9]*\) MIDI messages sent$/\1/p' "$LIVE_TMP/bend.out")
[ "${sent:-0}" -gt 135000 ] || fail "the probe sent ${sent:-no} messages: fewer than 3 s of the flood"
stop_spindle
taken=$(sed -n 's/^midi: *\([0-9]*\) events, .*, \([0-9]*\) dropped, .*/\1 \2/p' "$LIVE_TMP/spindle.out")
echo "probe sent $sent messages; spindle took and dropped: $taken (counting every run against it)"
read -r events dropped <<<"$taken"
[ "${dropped:-x}" = 0 ] || fail "spindle dropped ${dropped:-?} MIDI messages"
[ "${events:-0}" -ge "$sent" ] || fail "spindle took ${events:-no} MIDI messages of the $sent sent"
echo PASSED
