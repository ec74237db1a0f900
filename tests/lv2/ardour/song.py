#!/usr/bin/env python3
"""What the Ardour test plays, written for both sides.

  song.py instrument DIR          tone.sfz and tone.wav: 6 s of a stereo chord with a
                                  slow tremolo (every frame differs from its neighbours),
                                  longer than the plugin's preload, so it streams
  song.py song DIR                song.mid (for spindle-render) and notes.txt (for the
                                  Lua script: tick, length, key, velocity per line)
  song.py preset DIR INSTRUMENT   an LV2 preset bundle, DIR/spindle-test.lv2, whose state
                                  names INSTRUMENT (the way the Lua script loads it)

The song: overlapping notes of 0.3 to 2.5 s on channel 1, at 1920 ticks a quarter (the
resolution of Ardour's beats) and 120 bpm, so a tick is 12.5 frames at 48 kHz and every
note starts on the same frame in both renders. Note-offs carry velocity 64, as Ardour
sends them.
"""
import math
import os
import struct
import sys
import wave
from array import array

PPQN = 1920
RATE = 48000
# (start tick, length in ticks, key, velocity): even ticks, so whole frames; keys
# inside a saxophone's range.
NOTES = [(1920, 2880, 60, 100), (2402, 1440, 64, 80), (4500, 7000, 67, 110),
         (7680, 960, 55, 60), (9002, 5000, 72, 127), (12000, 1500, 62, 90)]
END_SECONDS = 7  # the export's length: the last note ends at 3.65 s, tails die before


def write_instrument(folder):
    frames = array("h")
    for i in range(RATE * 6):
        t = i / RATE
        tremolo = 0.6 + 0.4 * math.sin(2 * math.pi * 0.7 * t)
        frames.append(int(9000 * tremolo * (math.sin(2 * math.pi * 261.6 * t) + 0.5 * math.sin(2 * math.pi * 392 * t))))
        frames.append(int(9000 * tremolo * math.sin(2 * math.pi * 329.6 * t + 0.3)))
    with wave.open(os.path.join(folder, "tone.wav"), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames.tobytes())
    with open(os.path.join(folder, "tone.sfz"), "w") as f:
        f.write("<region> sample=tone.wav pitch_keycenter=60 ampeg_release=0.25\n")


def variable_length(value):
    out = [value & 0x7F]
    while value > 0x7F:
        value >>= 7
        out.insert(0, 0x80 | (value & 0x7F))
    return bytes(out)


def write_song(folder):
    events = []
    for start, length, key, velocity in NOTES:
        events.append((start, 1, bytes([0x90, key, velocity])))
        events.append((start + length, 0, bytes([0x80, key, 64])))
    events.sort(key=lambda e: (e[0], e[1]))  # a note-off before a note-on at one tick
    track, now = b"", 0
    for tick, _, message in events:
        track += variable_length(tick - now) + message
        now = tick
    track += b"\x00\xff\x2f\x00"
    with open(os.path.join(folder, "song.mid"), "wb") as f:
        f.write(b"MThd" + struct.pack(">IHHH", 6, 0, 1, PPQN))
        f.write(b"MTrk" + struct.pack(">I", len(track)) + track)
    with open(os.path.join(folder, "notes.txt"), "w") as f:
        f.write(f"# ppqn {PPQN} end {END_SECONDS * RATE}\n")
        for note in NOTES:
            f.write("%d %d %d %d\n" % note)


def write_preset(folder, instrument):
    bundle = os.path.join(folder, "spindle-test.lv2")
    os.makedirs(bundle, exist_ok=True)
    prefixes = ("@prefix lv2: <http://lv2plug.in/ns/lv2core#> .\n"
                "@prefix pset: <http://lv2plug.in/ns/ext/presets#> .\n"
                "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                "@prefix state: <http://lv2plug.in/ns/ext/state#> .\n")
    preset = "<urn:spindle:test#instrument> a pset:Preset ; lv2:appliesTo <urn:spindle:lv2>"
    with open(os.path.join(bundle, "manifest.ttl"), "w") as f:
        f.write(prefixes + preset + " ;\n  rdfs:seeAlso <preset.ttl> .\n")
    with open(os.path.join(bundle, "preset.ttl"), "w") as f:
        f.write(prefixes + preset + ' ;\n  rdfs:label "Spindle test" ;\n'
                f"  state:state [ <urn:spindle:lv2#instrument> <file://{os.path.abspath(instrument)}> ] .\n")


if __name__ == "__main__":
    command, folder = sys.argv[1], sys.argv[2]
    os.makedirs(folder, exist_ok=True)
    if command == "instrument":
        write_instrument(folder)
    elif command == "song":
        write_song(folder)
    elif command == "preset":
        write_preset(folder, sys.argv[3])
    else:
        sys.exit(f"song.py: unknown command {command}")
