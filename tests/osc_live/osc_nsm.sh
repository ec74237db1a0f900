#!/usr/bin/env bash
# NSM end to end: spindle-test-nsmd (a minimal NSM server written with liblo) starts
# spindle with NSM_URL; spindle announces, opens the session file under the path NSM
# gives (loading its instrument), takes its JACK client name from NSM, reports dirty,
# saves on request and reports clean. Under NSM spindle needs no --headless or
# --instrument (session managers start clients without arguments).
source "$SPINDLE_LIVE_SUPPORT"
source "$SPINDLE_OSC_SUPPORT"
need_fixtures "dim_cabasa/Dim Cabasa.sfz"
cabasa=$(realpath "$fixtures/dim_cabasa/Dim Cabasa.sfz")
start_jackd "spindle-osc-nsm"
OSC_PORT=$(free_port)
prefix="$LIVE_TMP/session/Spindle.nOSC"
mkdir -p "$LIVE_TMP/session"
printf '[settings]\npolyphony = 64\n\n[part 2]\ninstrument = %s\nvolume = -3\n' "$cabasa" >"$prefix.spindle"

"$SPINDLE_NSMD" --prefix "$prefix" --client-id spindle.nOSC --timeout 120 -- \
  "$SPINDLE_EXE" --osc-port "$OSC_PORT" \
  >"$LIVE_TMP/nsmd.out" 2>"$LIVE_TMP/nsmd.err" &
NSMD_PID=$!
track "$NSMD_PID"
wait_until 20 grep -q "^OPENED" "$LIVE_TMP/nsmd.out" || fail "no open reply: $(cat "$LIVE_TMP/nsmd.out")"
grep -q "^ANNOUNCE :dirty:" "$LIVE_TMP/nsmd.out" || fail "announce without :dirty:"
grep -q "^ERROR" "$LIVE_TMP/nsmd.out" && fail "spindle answered with an error"
wait_until 10 port_exists "spindle.nOSC:out_L" || fail "no JACK client named by NSM: $(jack_lsp)"

start_dump
grep -q "^DIRTY" "$LIVE_TMP/nsmd.out" && fail "opening the session made it dirty"
osc /spindle/part/volume if 1 -6
wait_until 10 grep -q "^SAVED" "$LIVE_TMP/nsmd.out" || fail "no dirty/save cycle: $(cat "$LIVE_TMP/nsmd.out")"
wait_until 5 grep -q "^CLEAN" "$LIVE_TMP/nsmd.out" || fail "not clean after the save"
grep -q "^DIRTY" "$LIVE_TMP/nsmd.out" || fail "no is_dirty"
cat "$LIVE_TMP/nsmd.out" "$prefix.spindle"
grep -q "^polyphony = 64$" "$prefix.spindle" || fail "saved session lost the polyphony"
grep -qF "instrument = $cabasa" "$prefix.spindle" || fail "saved session lost part 2's instrument"
grep -q "^volume = -6$" "$prefix.spindle" || fail "saved session lacks part 1's new volume"
kill -TERM "$NSMD_PID"
wait_until 15 bash -c "! kill -0 $NSMD_PID" || fail "the NSM server did not stop spindle"
echo PASSED
