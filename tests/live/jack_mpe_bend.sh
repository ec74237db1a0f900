#!/usr/bin/env bash
# MPE per-note bends over JACK, timed on the output: spindle --headless --mpe lower plays
# bend.sfz (silent while its note's own bend is fully down) and the probe's bend mode
# (ProbeBend.cpp) plays 60 notes on member channels 2..16, each bent fully up at an offset
# spread over the period. Every bend must sound at exactly the frame it was sent (the
# graph runs the probe, Spindle and the recorder in one cycle), and no note may sound
# before its bend (each note's bend down came before its note-on). A void run (exit 4:
# the failures all next to breaks of the server's cycles) is measured again; the third
# fails.
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp
start_jackd "spindle-bend-$$"
make_instrument
LIVE_INSTRUMENT=$LIVE_TMP/inst/bend.sfz start_spindle --mpe lower
for attempt in 1 2 3; do
  rc=0
  "$SPINDLE_PROBE" bend --target spindle --notes 60 --channels 2-16 | tee -a "$LIVE_TMP/bend.out" || rc=$?
  [ "$rc" -eq 0 ] && break
  { [ "$rc" -eq 4 ] && [ "$attempt" -lt 3 ]; } || fail "per-note bends not heard at their frames (exit $rc)"
  echo "void run (breaks of the server's cycles next to the failures): measuring again"
done
stop_spindle
echo PASSED
