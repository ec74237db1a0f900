#!/usr/bin/env python3
"""Packs seed corpora for the fuzz targets from a fixtures folder (run by fuzz/run.sh).

pack_seeds.py FIXTURES OUT_DIR: writes OUT_DIR/sfz (each .sfz with the files it
#includes appended in fuzz_sfz's format: 0x01, relative name, newline, content) and
OUT_DIR/audio (each .wav/.flac/.ogg/.aif[f] prefixed by fuzz_audio_file's extension
byte, cut to MAX_BYTES), OUT_DIR/sf2 (each .sf2/.sf3 with its sample data left out, so
the structure fits the fuzzer's input size) and OUT_DIR/xml (.dspreset and drumkit.xml).
Nothing is written into the fixtures or the repository.
"""
import hashlib
import os
import re
import sys

MAX_BYTES = 64 * 1024
MAX_AUDIO = 200
EXTENSIONS = ["wav", "flac", "ogg", "aiff", "au", "caf", "w64", "rf64"]  # FuzzAudioFile.cpp
INCLUDE = re.compile(rb'#include\s+"([^"]+)"')
SAFE = re.compile(r"^[A-Za-z0-9._ /-]{1,64}$")


def save(folder, data):
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(folder, name), "wb") as out:
        out.write(data)


def includes(root, text, seen):
    """The (relative name, bytes) of every file `text` includes, transitively."""
    found = []
    for written in INCLUDE.findall(text):
        name = written.decode("utf-8", "replace").replace("\\", "/")
        path = os.path.normpath(os.path.join(root, name))
        if name in seen or ".." in name or not SAFE.match(name) or not os.path.isfile(path):
            continue
        seen.add(name)
        with open(path, "rb") as f:
            content = f.read(MAX_BYTES)
        found.append((name, content))
        found.extend(includes(root, content, seen))
    return found


def pack_sfz(path):
    with open(path, "rb") as f:
        data = f.read(MAX_BYTES)
    for name, content in includes(os.path.dirname(path), data, set()):
        data += b"\x01" + name.encode() + b"\n" + content
    return data[: 4 * MAX_BYTES]


def pack_audio(path):
    ext = path.rsplit(".", 1)[-1].lower()
    ext = "aiff" if ext == "aif" else ext
    with open(path, "rb") as f:
        return bytes([EXTENSIONS.index(ext)]) + f.read(MAX_BYTES)


def pack_sf2(path):
    """The SoundFont with an empty smpl chunk: RIFF sizes rewritten, pdta kept whole."""
    import struct
    with open(path, "rb") as f:
        data = f.read()
    out, at = bytearray(data[:12]), 12
    while at + 8 <= len(data):
        tag, size = data[at:at + 4], struct.unpack("<I", data[at + 4:at + 8])[0]
        body = data[at + 8:at + 8 + size]
        if tag == b"LIST" and body[:4] == b"sdta":
            body = b"sdta" + b"smpl" + struct.pack("<I", 0)
        out += tag + struct.pack("<I", len(body)) + body + (b"\0" if len(body) % 2 else b"")
        at += 8 + size + (size & 1)
    out[4:8] = struct.pack("<I", len(out) - 8)
    return bytes(out)


def main():
    fixtures, out = sys.argv[1], sys.argv[2]
    audio = []
    counts = {"sfz": 0, "audio": 0, "sf2": 0, "xml": 0}
    for folder, _, files in sorted(os.walk(fixtures)):
        for name in sorted(files):
            path = os.path.join(folder, name)
            ext = name.rsplit(".", 1)[-1].lower()
            if ext == "sfz":
                save(os.path.join(out, "sfz"), pack_sfz(path))
                counts["sfz"] += 1
            elif ext in ("wav", "flac", "ogg", "aif", "aiff"):
                audio.append(path)
            elif ext in ("sf2", "sf3"):
                save(os.path.join(out, "sf2"), pack_sf2(path))
                counts["sf2"] += 1
            elif ext == "dspreset" or name == "drumkit.xml":
                with open(path, "rb") as f:
                    save(os.path.join(out, "xml"), f.read(MAX_BYTES))
                counts["xml"] += 1
    # Spread the audio seeds over the whole list (formats and libraries), not its head.
    step = max(1, len(audio) // MAX_AUDIO)
    for path in audio[::step][:MAX_AUDIO]:
        save(os.path.join(out, "audio"), pack_audio(path))
        counts["audio"] += 1
    print("pack_seeds: %d sfz, %d audio, %d sf2, %d xml seeds from %s"
          % (counts["sfz"], counts["audio"], counts["sf2"], counts["xml"], fixtures))


if __name__ == "__main__":
    main()
