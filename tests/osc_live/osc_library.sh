#!/usr/bin/env bash
# The library index over OSC, on a running `spindle --headless` whose HOME and XDG
# folders are a fake tree (an SFZ with a labelled control, a SoundFont of 3 presets
# written here, a Hydrogen kit folder, a broken SFZ):
#   1. /spindle/library/progress (the first library command starts the index) until its scan has ended, then
#      /spindle/library/list: one /spindle/library/entry per instrument (the broken one
#      with its loader error, the font with its 3 presets), then /spindle/library/end;
#   2. /spindle/library/search "beta": the font only (a preset's name);
#   3. a file added: the watch lists it without a rescan; /spindle/library/rescan replies
#      /spindle/library/progress.
source "$SPINDLE_LIVE_SUPPORT"
source "$SPINDLE_OSC_SUPPORT"
make_instrument
tree="$LIVE_TMP/tree"
mkdir -p "$tree/home/.local/share/sfz" "$tree/home/.local/share/soundfonts" "$tree/home/.hydrogen/data/drumkits/Kit"
printf '<control> label_cc7=Level\n<region> sample=*sine lokey=48 hikey=72\n' >"$tree/home/.local/share/sfz/lead.sfz"
printf '<control> set_cc1=1\n' >"$tree/home/.local/share/sfz/broken.sfz"
cp "$LIVE_TMP/inst/impulse.wav" "$tree/home/.hydrogen/data/drumkits/Kit/kick.wav" 2>/dev/null ||
  python3 -c 'import wave,sys; w=wave.open(sys.argv[1],"wb"); w.setnchannels(1); w.setsampwidth(2); w.setframerate(48000); w.writeframes(b"\x10\x00"*100)' \
    "$tree/home/.hydrogen/data/drumkits/Kit/kick.wav"
cat >"$tree/home/.hydrogen/data/drumkits/Kit/drumkit.xml" <<'XML'
<drumkit_info><name>Osc Kit</name><instrumentList>
 <instrument><id>0</id><name>Kick</name><layer><filename>kick.wav</filename><min>0</min><max>1</max></layer></instrument>
</instrumentList></drumkit_info>
XML
# A SoundFont 2.01 of one 100-frame sample under one instrument, and 3 presets over it.
python3 - "$tree/home/.local/share/soundfonts/three.sf2" <<'PY'
import struct, sys
def chunk(tag, body): return tag + struct.pack("<I", len(body)) + body + (b"\0" if len(body) % 2 else b"")
def lst(kind, body): return chunk(b"LIST", kind + body)
def name(s): return s.encode().ljust(20, b"\0")
presets = [("Alpha", 0, 0), ("Beta", 5, 0), ("Drums", 0, 128)]
phdr = b"".join(name(n) + struct.pack("<HHHIII", p, b, i, 0, 0, 0) for i, (n, p, b) in enumerate(presets))
phdr += name("EOP") + struct.pack("<HHHIII", 0, 0, 3, 0, 0, 0)
pbag = b"".join(struct.pack("<HH", i, 0) for i in range(4))
pgen = struct.pack("<HH", 41, 0) * 3 + struct.pack("<HH", 0, 0)
inst = name("I") + struct.pack("<H", 0) + name("EOI") + struct.pack("<H", 1)
ibag = struct.pack("<HH", 0, 0) + struct.pack("<HH", 1, 0)
igen = struct.pack("<HH", 53, 0) + struct.pack("<HH", 0, 0)
shdr = name("tone") + struct.pack("<IIIIIBbHH", 0, 100, 8, 90, 44100, 60, 0, 0, 1)
shdr += name("EOS") + struct.pack("<IIIIIBbHH", 0, 0, 0, 0, 0, 0, 0, 0, 0)
pdta = lst(b"pdta", chunk(b"phdr", phdr) + chunk(b"pbag", pbag) + chunk(b"pmod", b"\0" * 10) + chunk(b"pgen", pgen)
           + chunk(b"inst", inst) + chunk(b"ibag", ibag) + chunk(b"imod", b"\0" * 10) + chunk(b"igen", igen)
           + chunk(b"shdr", shdr))
info = lst(b"INFO", chunk(b"ifil", struct.pack("<HH", 2, 1)) + chunk(b"INAM", b"three\0"))
sdta = lst(b"sdta", chunk(b"smpl", struct.pack("<h", 1000) * 100 + b"\0" * 92))
open(sys.argv[1], "wb").write(chunk(b"RIFF", b"sfbk" + info + sdta + pdta))
PY
start_jackd "spindle-osc-library"
OSC_PORT=$(free_port)
SPINDLE_NAME=osclibrary
HOME="$tree/home" XDG_DATA_HOME="$tree/home/.local/share" XDG_DATA_DIRS="$tree/none" \
  XDG_CACHE_HOME="$tree/cache" XDG_CONFIG_HOME="$tree/config" start_osc_spindle "$SPINDLE_NAME" --backend jack
start_dump

# 1. The whole list, once the first scan has ended.
deadline=$((SECONDS + 60))
until grep -q -- '/spindle/library/progress iii [0-9]* [0-9]* 0' "$LIVE_TMP/dump.txt"; do
  [ $SECONDS -ge $deadline ] && fail "the first scan did not end"
  osc /spindle/library/progress
  sleep 0.3
done
osc /spindle/library/list
wait_replies '/spindle/library/end ii' 1 10 || fail "no /spindle/library/end"
# The replies for the tree, in the log (a print, not a check: awk ends 0 with none).
awk -v tree="$tree" 'index($0, "/spindle/library/") && index($0, tree)' "$LIVE_TMP/dump.txt"
sfz="$tree/home/.local/share/sfz"
font="$tree/home/.local/share/soundfonts/three.sf2"
kit="$tree/home/.hydrogen/data/drumkits/Kit"
grep -qF "/spindle/library/entry ssssiis \"lead\" \"sfz\" \"$sfz/lead.sfz\" \"\" 1 0 \"\"" "$LIVE_TMP/dump.txt" \
  || fail "no entry for lead.sfz"
presets='0 0 "Alpha" 0 5 "Beta" 128 0 "Drums"'
grep -q -- "/spindle/library/entry ssssiisiisiisiis \"three\" \"sf2\" \"$font\" \"\" [1-9][0-9]* 3 \"\" $presets\$" \
  "$LIVE_TMP/dump.txt" || fail "no entry for the font with its 3 presets"
grep -qF "/spindle/library/entry ssssiis \"Osc Kit\" \"hydrogen\" \"$kit\" \"\" 1 0 \"\"" "$LIVE_TMP/dump.txt" \
  || fail "no entry for the kit"
grep -qF "/spindle/library/entry ssssiis \"broken\" \"sfz\" \"$sfz/broken.sfz\" \"$sfz/broken.sfz: no playable region" \
  "$LIVE_TMP/dump.txt" || fail "the broken file's error is not named"
ours=$(grep -c -- "/spindle/library/entry ssssiis[is]* \"[^\"]*\" \"[^\"]*\" \"$tree" "$LIVE_TMP/dump.txt")
[ "$ours" -eq 4 ] || fail "$ours entries of the tree listed, not 4"
total=$(grep -c -- '/spindle/library/entry ' "$LIVE_TMP/dump.txt")
grep -q -- "/spindle/library/end ii $total 0$" "$LIVE_TMP/dump.txt" || fail "/spindle/library/end does not count $total"

# 2. Search: a preset's name finds its font, case-insensitive.
: >"$LIVE_TMP/dump.txt"
osc /spindle/library/search s BETA
wait_replies '/spindle/library/end ii' 1 10 || fail "no /spindle/library/end for the search"
[ "$(grep -c -- '/spindle/library/entry ' "$LIVE_TMP/dump.txt")" -eq 1 ] || fail "the search found more than the font"
grep -qF "\"$font\"" "$LIVE_TMP/dump.txt" || fail "the search did not find the font"
grep -qF -- "\"$font\" \"\" " "$LIVE_TMP/dump.txt" && grep -qF -- "$presets" "$LIVE_TMP/dump.txt" \
  || fail "the font's presets are not in its entry"

# 3. A file added shows without a rescan (the watch); a rescan answers its progress.
printf '<region> sample=*saw key=50\n' >"$sfz/added.sfz"
deadline=$((SECONDS + 5))
until grep -qF "\"$sfz/added.sfz\"" "$LIVE_TMP/dump.txt"; do
  [ $SECONDS -ge $deadline ] && fail "added.sfz was not listed within 5 s"
  osc /spindle/library/search s added
  sleep 0.3
done
osc /spindle/library/rescan
wait_replies '/spindle/library/progress iii' 1 5 || fail "no /spindle/library/progress for the rescan"
echo "PASS: the library over OSC"
