#!/usr/bin/env python3
"""Benchmark item 2 (per-voice cost): nanoseconds per voice per frame, Spindle at
each interpolation quality, fluidsynth at its comparable ones, for 1 to 2048 voices.

The instrument (built both ways, as in item 1) holds looped tones, one sample every
6 semitones, so a held note sounds for as long as it is held. The song for N voices
holds N notes on distinct (channel, key) pairs (fluidsynth releases a note played
again on the same key and channel) for H seconds, with H shrinking as N grows so
every run renders a similar number of voice-frames. Then, for each engine:

    ns per voice-frame = (CPU(N voices) - CPU(same song without notes)) / (N * H * rate)

CPU is user+sys of the whole process (its rusage), so loading and the per-block
fixed costs cancel out in the difference. Spindle holds the samples in RAM
(--preload-frames -1), as fluidsynth does; its streaming cost is item 1's. Pairs: Spindle linear (0) with fluidsynth `interp 1` (linear), Spindle
Hermite (1) with fluidsynth `interp 4` (4-point); Spindle sinc 8/16 (2, 3) beside
fluidsynth `interp 7` (7-point). Channel 10 plays the instrument in fluidsynth too
(`select 9 1 0 0`).

    bench/per_voice.py [--voices 1,8,64,256,1024,2048] [--frames 1e8] [--runs 1]
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import RATE, TICKS_PER_SECOND, build_spindle, held_notes, measure, write_midi  # noqa: E402
import render_vs_fluidsynth as dense  # noqa: E402

ROOTS = list(range(3, 128, 6))  # 3, 9, ... 123: every key within 3 semitones of a root
PAIRS = [("linear", 0, 1), ("Hermite / 4-point", 1, 4), ("sinc 8 / 7-point", 2, 7), ("sinc 16", 3, None)]


def hold_seconds(voices, voice_frames):
    return max(1.0, min(60.0, voice_frames / (voices * RATE)))


def write_held_song(path, voices, seconds):
    """`voices` notes at tick 0 on distinct (channel, key), released at `seconds`; a
    controller at both ends fixes the song's length even without notes."""
    end = int(seconds * TICKS_PER_SECOND)
    events = [(0, 0, bytes([0xB0, 91, 0])), (end, 2, bytes([0xB0, 91, 0]))]
    events += held_notes(voices, end)
    write_midi(path, events, end)


def spindle_run(spindle, folder, song, quality, runs):
    out = os.path.join(folder, "s.wav")
    cmd = dense.spindle_command(spindle, os.path.join(folder, "bench.sfz"), song, out, quality,
                                ["--polyphony", "4096", "--preload-frames", "-1"])
    return statistics.median(measure(cmd)[0] for _ in range(runs))


def fluid_run(folder, song, interpolation, runs):
    out = os.path.join(folder, "f.wav")
    cmd = dense.fluidsynth_command(os.path.join(folder, "bench.sf2"), song, out, interpolation,
                                   ["-o", "synth.polyphony=4096"])
    config = cmd[cmd.index("-f") + 1]
    with open(config, "a") as f:
        f.write("select 9 1 0 0\n")
    return statistics.median(measure(cmd)[0] for _ in range(runs))


def measure_voices(spindle, folder, voices, voice_frames, runs):
    """One row: ns per voice-frame for every engine and quality at `voices` voices."""
    seconds = hold_seconds(voices, voice_frames)
    song, empty = os.path.join(folder, "held.mid"), os.path.join(folder, "empty.mid")
    write_held_song(song, voices, seconds)
    write_held_song(empty, 0, seconds)
    scale = 1e9 / (voices * seconds * RATE)
    row = {"voices": voices, "seconds": seconds}
    for _, quality, interpolation in PAIRS:
        cpu = spindle_run(spindle, folder, song, quality, runs) - spindle_run(spindle, folder, empty, quality, runs)
        row["spindle_q%d" % quality] = max(0.0, cpu) * scale
        if interpolation is not None:
            f = fluid_run(folder, song, interpolation, runs) - fluid_run(folder, empty, interpolation, runs)
            row["fluidsynth_i%d" % interpolation] = max(0.0, f) * scale
    return row


def run(spindle, folder, voice_counts, voice_frames, runs):
    dense.write_instrument(folder, ROOTS, seconds=1.0, loop=True, decay=0.0)
    rows = [measure_voices(spindle, folder, v, voice_frames, runs) for v in voice_counts]
    return {"rows": rows, "runs": runs, "voice_frames": voice_frames}


def ratio(a, b):
    return "%.2f" % (a / b) if b > 0 else "-"


def markdown(result):
    lines = ["ns per voice per frame: whole-process CPU minus an empty render of the same length, over N x hold "
             "x 48000; ratio = Spindle / fluidsynth at comparable interpolation. Samples in RAM for both "
             "(--preload-frames -1)\n",
             "| voices | hold s | Spindle linear | fluidsynth linear | ratio | Spindle Hermite | fluidsynth 4-point "
             "| ratio | Spindle sinc 8 | fluidsynth 7-point | Spindle sinc 16 |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in result["rows"]:
        cells = ["%d" % r["voices"], "%.1f" % r["seconds"]]
        for _, quality, interpolation in PAIRS:
            cells.append("%.1f" % r["spindle_q%d" % quality])
            if interpolation is not None:
                f = r["fluidsynth_i%d" % interpolation]
                cells.append("%.1f" % f)
                if interpolation in (1, 4):
                    cells.append(ratio(r["spindle_q%d" % quality], f))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--voices", default="1,8,64,256,1024,2048")
    parser.add_argument("--frames", type=float, default=1e8, help="voice-frames per render")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--spindle-render", help="use this binary instead of building one")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="spindle-bench-voice-")
    spindle = args.spindle_render or os.path.join(build_spindle(), "src", "app", "spindle-render")
    print(markdown(run(spindle, folder, [int(v) for v in args.voices.split(",")], args.frames, args.runs)))


if __name__ == "__main__":
    main()
