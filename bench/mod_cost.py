#!/usr/bin/env python3
"""Per-voice cost of modulation, measured side by side in one run: a region with four CC
modulations (amplitude_oncc1, pan_oncc2, tune_oncc3, volume_oncc4), and a region with
SFZ v2 synthesis (a flex EG on volume, a 5 Hz LFO on the cutoff, both
filters: lpf_2p and fil2 hpf_2p), each against the same region plain.

The instrument (bench/render_vs_fluidsynth.write_instrument: looped tones, one every
6 semitones, samples in RAM) is written twice: plain, and with the four connections in
its <global>. One song holds N notes on distinct (channel, key) pairs for H seconds and
moves CC1..CC4 on every channel every 10 ms (--sweep-ms), so the modulated voices
really move: a moving voice renders in control steps of at most 32 frames, a settled
one in whole segments. A second row sets the CCs once. For each instrument:

    ns per voice-frame = (CPU(N voices) - CPU(same song without notes)) / (N * H * rate)

CPU is user+sys of the whole process (rusage); the median of --runs runs, the two
instruments alternating run by run so that machine load drifts hit both alike.

    bench/mod_cost.py [--voices 256] [--seconds 8] [--runs 3] [--quality 1] [--sweep-ms 10,0]
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import RATE, TICKS_PER_SECOND, build_spindle, cost_arguments, held_notes, measure, write_midi  # noqa: E402
import render_vs_fluidsynth as dense  # noqa: E402

ROOTS = list(range(3, 128, 6))
MODULATIONS = "amplitude_oncc1=100 pan_oncc2=100 tune_oncc3=100 volume_oncc4=-6"
SYNTHESIS = ("eg1_time1=0.5 eg1_level1=1 eg1_sustain=1 eg1_volume=-6 lfo1_freq=5 lfo1_cutoff=600 "
             "cutoff=4000 resonance=6 fil2_type=hpf_2p cutoff2=80")


def write_instruments(folder):
    dense.write_instrument(folder, ROOTS, seconds=1.0, loop=True, decay=0.0)
    plain = os.path.join(folder, "bench.sfz")
    with open(plain) as f:
        text = f.read()
    written = [plain]
    for name, opcodes in (("modulated", MODULATIONS), ("synthesis", SYNTHESIS)):
        written.append(os.path.join(folder, name + ".sfz"))
        with open(written[-1], "w") as out:
            out.write(text.replace("<global>", "<global> %s" % opcodes, 1))
    return written


def write_song(path, voices, seconds, sweep_ms):
    """`voices` held notes and, on every channel used, CC1..CC4 moving every `sweep_ms`
    (0: set once at the start)."""
    end = int(seconds * TICKS_PER_SECOND)
    events = [(0, 0, bytes([0xB0, 91, 0])), (end, 2, bytes([0xB0, 91, 0]))]
    channels = max(1, (voices + 127) // 128)
    every = max(1, int(TICKS_PER_SECOND * sweep_ms / 1000)) if sweep_ms > 0 else end + 1
    for tick in range(0, end, every):
        for channel in range(channels):
            for cc in (1, 2, 3, 4):
                value = 64 + int(60 * ((tick // 10 + cc * 17) % 40 - 20) / 20)
                events.append((tick, 0, bytes([0xB0 | channel, cc, value])))
    events += held_notes(voices, end)
    write_midi(path, events, end)


def cpu(spindle, folder, sfz, song, quality):
    out = os.path.join(folder, "out.wav")
    cmd = dense.spindle_command(spindle, sfz, song, out, quality, ["--polyphony", "4096", "--preload-frames", "-1"])
    return measure(cmd)[0]


def run(spindle, folder, voices, seconds, runs, quality, sweep_ms):
    plain, modulated, synthesis = write_instruments(folder)
    song, empty = os.path.join(folder, "held.mid"), os.path.join(folder, "empty.mid")
    write_song(song, voices, seconds, sweep_ms)
    write_song(empty, 0, seconds, sweep_ms)
    samples = {"plain": [], "modulated": [], "synthesis": []}
    for _ in range(runs):
        for name, sfz in (("plain", plain), ("modulated", modulated), ("synthesis", synthesis)):
            samples[name].append(cpu(spindle, folder, sfz, song, quality) - cpu(spindle, folder, sfz, empty, quality))
    scale = 1e9 / (voices * seconds * RATE)
    return {name: max(0.0, statistics.median(v)) * scale for name, v in samples.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cost_arguments(parser)
    parser.add_argument("--sweep-ms", default="10,0", help="CC move intervals to measure; 0 = CCs set once")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="spindle-bench-mod-")
    spindle = args.spindle_render or os.path.join(build_spindle(), "src", "app", "spindle-render")
    print("| voices | hold s | quality | CCs move every | plain ns/voice-frame | 4 CC modulations ns/voice-frame "
          "| ratio | flex EG + LFO on cutoff + 2 filters ns/voice-frame | ratio |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for sweep in (float(v) for v in args.sweep_ms.split(",")):
        r = run(spindle, folder, args.voices, args.seconds, args.runs, args.quality, sweep)
        ratio = lambda name: r[name] / r["plain"] if r["plain"] > 0 else float("nan")
        print("| %d | %.1f | %d | %s | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            args.voices, args.seconds, args.quality, "%g ms" % sweep if sweep > 0 else "never (set once)",
            r["plain"], r["modulated"], ratio("modulated"), r["synthesis"], ratio("synthesis")))


if __name__ == "__main__":
    main()
