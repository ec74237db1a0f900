#!/usr/bin/env bash
# jalv runs spindle.lv2 as a JACK client on a dummy jackd (48 kHz, 1024-frame periods:
# what is checked is where the notes sound, not how short a period can be, and a period
# of 21 ms rides out the VM's stalls of up to 17 ms, which broke all three 256-frame
# recordings of one CI run).
# The instrument (the probe's impulse: one full-scale frame) comes from a saved state
# (jalv -l DIR), so the plugin's restore loads it. jack_midiseq plays two notes per
# 4800-frame loop, at frames 100 and 1337 of it, into the plugin's control port, and a
# recorder on out_l hears each impulse where its note-on was: the onsets alternate
# 1237 and 3563 frames apart, neither a multiple of the period, loop after loop.
source "$SPINDLE_LIVE_SUPPORT"
need jackd jack_lsp jack_connect jack_rec jack_midiseq jalv python3
LIVE_PERIOD=1024 start_jackd "spindle-jalv-$$"
make_instrument
state="$LIVE_TMP/state"
mkdir -p "$state"
cat >"$state/manifest.ttl" <<TTL
@prefix lv2: <http://lv2plug.in/ns/lv2core#> .
@prefix pset: <http://lv2plug.in/ns/ext/presets#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<state.ttl> a pset:Preset ; lv2:appliesTo <urn:spindle:lv2> ; rdfs:seeAlso <state.ttl> .
TTL
cat >"$state/state.ttl" <<TTL
@prefix lv2: <http://lv2plug.in/ns/lv2core#> .
@prefix pset: <http://lv2plug.in/ns/ext/presets#> .
@prefix state: <http://lv2plug.in/ns/ext/state#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<> a pset:Preset ; lv2:appliesTo <urn:spindle:lv2> ;
  state:state [ <urn:spindle:lv2#instrument> <file://$LIVE_TMP/inst/impulse.sfz> ;
                <urn:spindle:lv2#level> "0.0"^^xsd:float ] .
TTL
# jalv reads commands from stdin: a FIFO this script holds open until it ends.
mkfifo "$LIVE_TMP/jalv.in"
LV2_PATH="$SPINDLE_LV2_DIR:/usr/lib/lv2" jalv -n spindle-jalv -l "$state" urn:spindle:lv2 \
  <"$LIVE_TMP/jalv.in" >"$LIVE_TMP/jalv.out" 2>&1 &
track $!
exec 3>"$LIVE_TMP/jalv.in"
wait_until 20 port_exists spindle-jalv:out_l || fail "jalv's ports did not appear"
grep -qi "error\|cannot" "$LIVE_TMP/jalv.out" && fail "jalv or the plugin reported an error"
jack_midiseq probe_seq 4800 100 60 50 1337 62 50 >"$LIVE_TMP/seq.out" 2>&1 &
track $!
wait_until 10 port_exists probe_seq:out || fail "jack_midiseq's port did not appear"
jack_connect probe_seq:out spindle-jalv:control || fail "cannot connect the sequencer to the plugin"
# record N: 3 s of out_l; 1 when a cycle broke meanwhile (jackd logs an XRun: the
# recorder and the sequencer drop or shift that period, whatever the plugin did).
record() {
  local xruns rec_pid
  xruns=$(count_matches XRun "$LIVE_TMP/jackd.out")
  jack_rec -f "$LIVE_TMP/out$1.wav" -d 3 -b 16 spindle-jalv:out_l >"$LIVE_TMP/rec$1.out" 2>&1 &
  rec_pid=$!
  track "$rec_pid"
  wait_until 15 bash -c "! kill -0 $rec_pid" || fail "the recorder did not finish"
  [ "$(count_matches XRun "$LIVE_TMP/jackd.out")" -eq "$xruns" ]
}
onsets_where_played() {
  python3 - "$1" <<'PY'
import sys, wave, array
w = wave.open(sys.argv[1])
x = array.array("h", w.readframes(w.getnframes()))
onsets = [i for i in range(1, len(x)) if abs(x[i]) > 16000 and abs(x[i - 1]) < 100]
gaps = [b - a for a, b in zip(onsets, onsets[1:])]
print(f"{len(onsets)} onsets, gaps {sorted(set(gaps))}")
ok = len(onsets) >= 10 and set(gaps) == {1237, 3563} and all(g1 + g2 == 4800 for g1, g2 in zip(gaps, gaps[1:]))
sys.exit(0 if ok else 1)
PY
}
# A recording during which a cycle broke is void and made again (3 at most); the
# onsets of one without are checked, and a wrong one fails.
for take in 1 2 3; do
  if record "$take"; then
    onsets_where_played "$LIVE_TMP/out$take.wav" || fail "the onsets are not where the notes were"
    break
  fi
  echo "VOID TAKE $take: jackd logged an xrun while it recorded"
  [ "$take" -lt 3 ] || fail "an xrun in each of 3 recordings"
done
echo PASSED
