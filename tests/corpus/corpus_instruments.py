"""Instrument files read through formats::loadInstrument: SFZ, SoundFont, DecentSampler,
Hydrogen kit folders and multisample folders. Every instrument folder holds its own
sine.wav, so a case differs from the valid file only in its damage."""
import struct

from corpus_bytes import DRUMKIT, DSPRESET, MULTISAMPLE, SFZ, sf2, sf2_info, wav
from corpus_media import junk

BINARY = b"\0\1\2\3" + junk(1020, 6)  # NUL bytes: not text
# What every load of the generated font says besides its damage: it has no drum kit, and
# each preset region is made a second time for channel 10.
DRUMS = "no percussion preset (bank 128): MIDI channel 10 plays 'Corpus'"


def sfz_cases(c):
    c.file("sfz/samples/sine.wav", wav())
    c.case("instrument", "sfz/ok.sfz", SFZ, "regions=2")
    c.case("instrument", "sfz/empty.sfz", "", "error", "no playable region")
    c.case("instrument", "sfz/binary.sfz", BINARY, "error", "not an instrument Spindle can play")
    no_nul = bytes(b for b in junk(1024, 7) if b)
    c.case("instrument", "sfz/binary-without-nul.sfz", no_nul, "error", "no playable region")
    c.case("instrument", "sfz/headers-only.sfz", "<control>\n<global>\n<group>\n", "error",
           "no playable region")
    missing = SFZ + "<region> sample=gone.wav key=70\n"
    c.case("instrument", "sfz/missing-sample.sfz", missing, "regions=3,warn", "missing-sample.sfz:5: warning: sample "
           "not found: '%s'" % c.path("sfz/samples/gone.wav"))
    c.case("instrument", "sfz/missing-include.sfz", '#include "nowhere.sfz"\n' + SFZ, "regions=2,warn",
           "missing-include.sfz:1: error: included file not found")
    back = '#include "cycle-a.sfz"\n<region> sample=samples/sine.wav key=64\n'
    c.file("sfz/cycle-b.sfz", back)
    cycle = '#include "cycle-b.sfz"\n' + SFZ
    c.case("instrument", "sfz/cycle-a.sfz", cycle, "regions=3,warn", "cycle-b.sfz:1: error: #include loop",
           seed=cycle + "\x01cycle-b.sfz\n" + back)
    c.file("sfz/self.sfz", '#include "self.sfz"\n' + SFZ)
    c.case("instrument", "sfz/self.sfz", None, "regions=2,warn", "self.sfz:1: error: #include loop")
    c.case("instrument", "sfz/unclosed-header.sfz", SFZ + "<region sample=sine.wav key=72\n", "regions=2,warn",
           "unclosed-header.sfz:5: warning: malformed header")
    c.case("instrument", "sfz/bad-value.sfz", SFZ + "<region> sample=sine.wav key=banana\n", "regions=3,warn",
           "bad-value.sfz:5: warning: opcode 'key': bad value")
    bomb = "#define $V40 x\n" + "".join("#define $V%d $V%d$V%d\n" % (i, i + 1, i + 1) for i in range(39, -1, -1))
    c.case("instrument", "sfz/define-bomb.sfz", bomb + "<region> sample=sine.wav key=$V0\n" + SFZ, "regions=3,warn",
           "define-bomb.sfz:14: error: value longer than 4096 bytes after $ expansion")
    c.case("instrument", "sfz/cut-in-region.sfz", SFZ[:SFZ.rindex("key=")], "regions=2")
    c.case("instrument", "sfz/long-line.sfz", SFZ + "// " + "x" * 300000 + "\n", "regions=2")


def sf2_cases(c):
    good = sf2()
    c.case("instrument", "sf2/ok.sf2", good, "regions=2,warn", DRUMS)
    c.case("instrument", "sf2/empty.sf2", b"", "error", "no playable region")
    c.case("instrument", "sf2/binary.sf2", BINARY, "error", "not an instrument Spindle can play")
    c.case("instrument", "sf2/cut-in-header.sf2", good[:16], "error", "missing LIST INFO, sdta or pdta")
    c.case("instrument", "sf2/cut-in-samples.sf2", good[:1000], "error", "missing LIST INFO, sdta or pdta")
    c.case("instrument", "sf2/cut-in-pdta.sf2", good[:len(good) - 60], "error", "pdta")
    c.case("instrument", "sf2/wrong-magic.sf2", good[:8] + b"sfbx" + good[12:], "error",
           "not an instrument Spindle can play")
    c.case("instrument", "sf2/million-presets.sf2", sf2(presets=1000000), "error", "phdr")
    c.case("instrument", "sf2/pdta-of-2gib.sf2", sf2(pdta_size=0x80000000), "regions=2,warn",
           "pdta-of-2gib.sf2: warning: sfbk: the last chunk, 'LIST pdta', is cut short: it declares 2147483648 bytes")
    # INAM holds 7 bytes and ifil follows at once, where the pad byte belongs.
    odd_info = b"INFO" + b"INAM" + struct.pack("<I", 7) + b"Corpus\0" + b"ifil" + struct.pack("<IHH", 4, 2, 1)
    c.case("instrument", "sf2/odd-info-no-pad.sf2", sf2(info=odd_info), "regions=2,warn",
           "odd-info-no-pad.sf2: warning: INFO: chunk 'INAM' has an odd size (7 bytes) and no pad byte after it")
    c.case("instrument", "sf2/odd-info-padded.sf2", sf2(info=sf2_info(b"Corpus\0")), "regions=2,warn", DRUMS)
    c.case("instrument", "sf2/sample-past-data.sf2", sf2_sample_past_data(good), "error",
           "sample-past-data.sf2: warning: sample 'Sine' lies outside the sample data")


def sf2_sample_past_data(font):
    """The one sample header's end moved past the sample data: its zone is skipped."""
    at = font.rindex(b"Sine")
    return font[:at + 24] + struct.pack("<I", 5000000) + font[at + 28:]


def xml_damages(good, tag, closing):
    """The XML file damaged: empty, binary, a mismatched or missing closing tag, cut in
    half, a missing sample, a DOCTYPE of nested entities, 20,000 nested elements."""
    entities = '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    return {"empty": "", "binary": BINARY,
            "mismatched": good.replace("</" + tag + ">", "</wrong>", 1),
            "unclosed": good.replace(closing, ""),
            "cut": good[:len(good) // 2],
            "missing-sample": good.replace("sine.wav", "gone.wav", 1),
            "entities": entities + good.replace('<?xml version="1.0" encoding="UTF-8"?>', ""),
            "deep": good.replace("</" + tag + ">", "<x>" * 20000 + "</x>" * 20000 + "</" + tag + ">", 1)}


def xml_cases(c, folder, name, good, damages, outcomes):
    """`outcomes`: damage -> (expected outcome, text named); the rest are refused."""
    c.file(folder + "/sine.wav", wav())
    c.case("instrument", folder + "/" + name, good, "regions=2")
    for damage, text in damages.items():
        sub = "%s-%s/" % (folder, damage)
        c.file(sub + "sine.wav", wav())
        refused = {"empty": ("error", "no playable region"), "binary": ("error", "not an instrument Spindle can play")}
        expect, names = outcomes.get(damage, refused.get(damage))
        c.case("instrument", sub + name, text, expect, names)


def cases(c):
    sfz_cases(c)
    sf2_cases(c)
    missing = ("regions=2,warn", "gone.wav")
    xml_cases(c, "dspreset", "corpus.dspreset", DSPRESET, xml_damages(DSPRESET, "group", "</DecentSampler>\n"), {
        "mismatched": ("regions=2,warn", "corpus.dspreset:7: warning: closing tag </wrong> closes <group> (line 4)"),
        "unclosed": ("error", "corpus.dspreset:8: error: not readable as XML"),
        "cut": ("error", "corpus.dspreset:5: error: not readable as XML"),
        "missing-sample": missing, "entities": ("regions=2", "-"), "deep": ("regions=2", "-")})
    xml_cases(c, "hydrogen", "drumkit.xml", DRUMKIT, xml_damages(DRUMKIT, "instrumentList", "</drumkit_info>\n"), {
        "mismatched": ("error", "drumkit.xml:7: error: not readable as XML"),
        "unclosed": ("error", "drumkit.xml:7: error: not readable as XML"),
        "cut": ("error", "drumkit.xml:5: error: not readable as XML"),
        "missing-sample": missing, "entities": ("regions=2", "-"), "deep": ("regions=2", "-")})
    xml_cases(c, "multisample", "multisample.xml", MULTISAMPLE,
              xml_damages(MULTISAMPLE, "sample", "</multisample>\n"), {
        "mismatched": ("error", "multisample.xml:2: error: not readable as XML"),
        "unclosed": ("error", "multisample.xml:3: error: not readable as XML"),
        "cut": ("error", "multisample.xml:2: error: not readable as XML"),
        "missing-sample": ("regions=1,warn", "multisample.xml:2: warning: <sample> file 'gone.wav' is missing"),
        "entities": ("regions=2", "-"),
        "deep": ("regions=2,warn", "multisample.xml:2: warning: element <x> in <sample> is not supported")})
