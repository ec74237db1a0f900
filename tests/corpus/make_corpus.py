#!/usr/bin/env python3
"""Writes the corpus of damaged and odd files for every format Spindle reads.

make_corpus.py OUT [--seeds SEEDS]

OUT gets one folder per format with each case, and OUT/manifest.tsv, one line per case:
    kind <TAB> path (relative to OUT) <TAB> expected outcome <TAB> text the message names
kind: instrument (formats::loadInstrument), audio (stream::SamplePool), midi
(io::readMidiFile). Outcome: regions=N (loads N regions), frames=N, events=N, each
with ",warn" when the load also reports what it skipped or where the file is odd; or
error (refused with an error naming the file). The text column ("-" for none) must
appear in one of those messages: the file and line, the chunk or the entry.
tests/corpus/CorpusTests.cpp reads the manifest and checks every case.

With --seeds, each case is also written as a seed of the libFuzzer target that reads its
format, in the folder layout of fuzz/run.sh (SEEDS/sfz, audio, sf2, xml, multisample,
midi_file). Written in Python, not C++: the standard library's struct, zipfile and tarfile
write lying headers, links and absolute names directly, and neither the suite nor
fuzz/run.sh has to build anything to get the corpus.
"""
import hashlib
import os
import sys

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_archives  # noqa: E402
import corpus_instruments  # noqa: E402
import corpus_media  # noqa: E402

AUDIO_EXTENSIONS = ["wav", "flac", "ogg", "aiff", "au", "caf", "w64", "rf64"]  # fuzz/FuzzAudioFile.cpp


class Corpus:
    def __init__(self, out, seeds):
        self.out, self.seeds, self.lines = out, seeds, []

    def path(self, rel):
        return os.path.join(self.out, rel)

    def file(self, rel, data):
        """Writes a file the cases need (a sample, an #include) without a case of its own."""
        path = os.path.join(self.out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        return path

    def case(self, kind, rel, data, expect, names="-", seed=None):
        """One case: its file (data None: already written, e.g. a folder), its manifest line
        and, unless it has no fuzz target, its seed (`seed` overrides the file's bytes)."""
        if data is not None:
            self.file(rel, data)
            self.seed(rel, seed if seed is not None else data)
        self.lines.append("\t".join([kind, rel, expect, names]))

    def seed(self, rel, data):
        if not self.seeds:
            return
        data = data.encode() if isinstance(data, str) else data
        target, prefix = seed_target(rel)
        if target is None:
            return
        folder = os.path.join(self.seeds, target)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "corpus-" + hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(prefix + data)

    def write_manifest(self):
        with open(os.path.join(self.out, "manifest.tsv"), "w") as f:
            f.write("\n".join(self.lines) + "\n")


def seed_target(rel):
    """The fuzz/run.sh seed folder for a corpus file, and the bytes its input starts with."""
    name = os.path.basename(rel)
    ext = os.path.splitext(name)[1].lstrip(".").lower()
    if ext in AUDIO_EXTENSIONS:
        return "audio", bytes([AUDIO_EXTENSIONS.index(ext)])
    if name == "multisample.xml":
        return "multisample", b""
    table = {"sfz": "sfz", "sf2": "sf2", "sf3": "sf2", "dspreset": "xml", "xml": "xml", "mid": "midi_file"}
    return table.get(ext), b""


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    seeds = argv[argv.index("--seeds") + 1] if "--seeds" in argv else None
    if seeds:
        args.remove(seeds)
    if len(args) != 1:
        sys.exit("usage: make_corpus.py OUT [--seeds SEEDS]")
    corpus = Corpus(os.path.abspath(args[0]), seeds)
    for module in (corpus_media, corpus_instruments, corpus_archives):
        module.cases(corpus)
    corpus.write_manifest()


if __name__ == "__main__":
    main(sys.argv[1:])
