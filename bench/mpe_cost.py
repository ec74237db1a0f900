#!/usr/bin/env python3
"""The cost of per-note expression (MPE), measured side by side in one run.

One song holds N notes spread over channels 2..16 (distinct keys per channel) for H
seconds, and every 1/960 s (the song's tick: MPE rates, about 1 kHz) moves each of
those 15 channels' pitch bend, channel pressure and CC74. The instrument
(bench/render_vs_fluidsynth.write_instrument: looped tones in RAM) follows all three:
a lowpass on CC74, the amplitude on pressure, the pitch on the bend. The song is
rendered twice, identical but for its first three events:

    with MPE     the MPE Configuration Message for a lower zone of 15: each channel's
                 messages move its notes only (per-note expression slots)
    without      no configuration: channels 2..16 are 15 parts, each channel's messages
                 move that part (channel-wide controllers), the same voices and events

    ns per voice-frame = (CPU(N voices) - CPU(the same song without notes)) / (N * H * rate)

CPU is user+sys of the whole process (rusage); the median of --runs runs, the two
alternating run by run so that machine load drifts hit both alike.

    bench/mpe_cost.py [--voices 256] [--seconds 8] [--runs 3] [--quality 1]
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import RATE, TICKS_PER_SECOND, build_spindle, cost_arguments, measure, write_midi  # noqa: E402
import render_vs_fluidsynth as dense  # noqa: E402

ROOTS = list(range(3, 128, 6))
FOLLOWS = "cutoff=1500 cutoff_oncc74=4800 amplitude_oncc129=100 bend_up=4800 bend_down=-4800"
CHANNELS = range(1, 16)  # MIDI channels 2..16 (0-based 1..15): the lower zone's members


def write_instrument(folder):
    dense.write_instrument(folder, ROOTS, seconds=1.0, loop=True, decay=0.0)
    path = os.path.join(folder, "bench.sfz")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as out:
        out.write(text.replace("<global>", "<global> %s" % FOLLOWS, 1))
    return path


def write_song(path, voices, seconds, mpe):
    end = int(seconds * TICKS_PER_SECOND)
    events = [(0, 0, bytes([0xB0, 101, 0])), (0, 0, bytes([0xB0, 100, 6])), (0, 0, bytes([0xB0, 6, 15]))] if mpe else []
    for tick in range(0, end):
        for channel in CHANNELS:
            phase = (tick + 37 * channel) % 200
            value = abs(phase - 100) * 127 // 100  # a triangle, 0..127, each channel its own phase
            bend = 8192 + (value - 64) * 20
            events.append((tick, 0, bytes([0xE0 | channel, bend & 0x7F, bend >> 7])))
            events.append((tick, 0, bytes([0xD0 | channel, value])))
            events.append((tick, 0, bytes([0xB0 | channel, 74, value])))
    for n in range(voices):
        channel, key = CHANNELS[n % len(CHANNELS)], 24 + (n // len(CHANNELS)) % 96
        events.append((0, 1, bytes([0x90 | channel, key, 100])))
        events.append((end, 0, bytes([0x80 | channel, key, 0])))
    write_midi(path, events, end)


def cpu(spindle, folder, sfz, song, quality):
    out = os.path.join(folder, "out.wav")
    cmd = dense.spindle_command(spindle, sfz, song, out, quality, ["--polyphony", "4096", "--preload-frames", "-1"])
    return measure(cmd)[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cost_arguments(parser)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="spindle-bench-mpe-")
    spindle = args.spindle_render or os.path.join(build_spindle(), "src", "app", "spindle-render")
    sfz = write_instrument(folder)
    songs = {}
    for name, mpe in (("with", True), ("without", False)):
        songs[name] = (os.path.join(folder, name + ".mid"), os.path.join(folder, name + "-empty.mid"))
        write_song(songs[name][0], args.voices, args.seconds, mpe)
        write_song(songs[name][1], 0, args.seconds, mpe)
    samples = {"with": [], "without": []}
    for _ in range(args.runs):
        for name, (song, empty) in songs.items():
            samples[name].append(cpu(spindle, folder, sfz, song, args.quality) - cpu(spindle, folder, sfz, empty, args.quality))
    scale = 1e9 / (args.voices * args.seconds * RATE)
    r = {name: max(0.0, statistics.median(v)) * scale for name, v in samples.items()}
    ratio = r["with"] / r["without"] if r["without"] > 0 else float("nan")
    print("| voices | hold s | quality | events/s | without MPE ns/voice-frame | with MPE ns/voice-frame | ratio |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    print("| %d | %.1f | %d | %d | %.2f | %.2f | %.2f |" % (args.voices, args.seconds, args.quality,
                                                           3 * len(CHANNELS) * TICKS_PER_SECOND, r["without"], r["with"], ratio))


if __name__ == "__main__":
    main()
