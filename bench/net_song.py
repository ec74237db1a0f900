#!/usr/bin/env python3
"""The generated template and dense song of bench/net_hosts.sh.

    bench/net_song.py library DIR PARTS SAMPLES SECONDS
        DIR/part<N>/lib.sfz for N = 1..PARTS: each its own library of SAMPLES stereo
        16-bit noise samples of SECONDS (bench/live_memory.py's writer): 4 velocity
        layers over SAMPLES / 4 key zones that cover keys 21..108
    bench/net_song.py song FILE PARTS SECONDS
        FILE: "time status key velocity" lines, one dense song over channels 1..PARTS:
        on each channel a note every 40 ms, held 600 ms, keys walking over 21..108 with
        every velocity layer (about 15 voices per part at once)
    bench/net_song.py play FILE FIFO CHANNELS
        writes the song's events of CHANNELS (e.g. "3,4", renumbered 1, 2 ..: a host's
        own parts) to the raw-MIDI FIFO at their times
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_memory import write_wav  # noqa: E402


def library(folder, samples, seconds):
    os.makedirs(folder, exist_ok=True)
    zones = max(1, samples // 4)
    regions = []
    for zone in range(zones):
        lokey, hikey = 21 + zone * 88 // zones, 20 + (zone + 1) * 88 // zones
        for layer in range(4):
            name = "z%d_v%d.wav" % (zone, layer)
            write_wav(os.path.join(folder, name), seconds)
            regions.append("<region> sample=%s lokey=%d hikey=%d pitch_keycenter=%d lovel=%d hivel=%d"
                           % (name, lokey, hikey, lokey, layer * 32 + 1, layer * 32 + 32 if layer < 3 else 127))
    with open(os.path.join(folder, "lib.sfz"), "w") as sfz:
        sfz.write("\n".join(regions) + "\n")


def song(path, parts, seconds):
    events = []
    for channel in range(parts):
        at, n = 0.0, 0
        while at < seconds:
            key = 21 + (n * 7 + channel * 11) % 88
            velocity = 1 + (n * 37) % 127
            events.append((at, 0x90 | channel, key, velocity))
            events.append((at + 0.6, 0x80 | channel, key, 0))
            at += 0.04
            n += 1
    events.sort()
    with open(path, "w") as out:
        out.writelines("%.4f %d %d %d\n" % e for e in events)


def play(path, fifo, channels):
    remap = {c - 1: i for i, c in enumerate(channels)}
    events = [line.split() for line in open(path)]
    with open(fifo, "wb", buffering=0) as midi:
        start = time.monotonic()
        for at, status, key, velocity in events:
            status = int(status)
            if status & 0x0F not in remap:
                continue
            delay = start + float(at) - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            midi.write(bytes([(status & 0xF0) | remap[status & 0x0F], int(key), int(velocity)]))
        time.sleep(1.0)


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "library":
        for part in range(1, int(args[1]) + 1):
            library(os.path.join(args[0], "part%d" % part), int(args[2]), float(args[3]))
    elif mode == "song":
        song(args[0], int(args[1]), float(args[2]))
    elif mode == "play":
        play(args[0], args[1], [int(c) for c in args[2].split(",")])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
