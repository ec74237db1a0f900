#!/usr/bin/env python3
"""Benchmark item 1 (dense render): spindle-render against fluidsynth -F.

Builds one instrument both ways over the same generated WAV files (an SFZ for
Spindle, an SF2 for fluidsynth, written by bench/sf2_writer.py), writes a dense MIDI
file, renders it with both, and reports CPU seconds and peak RSS (from
the process rusage) with the ratios. bench/run runs it as item 1; on its own:

    bench/render_vs_fluidsynth.py [--seconds 30] [--voices 64] [--runs 3] [--keep DIR]

Spindle is built in Release in build/bench unless --spindle-render names a binary.
Fluidsynth runs with reverb and chorus off, so both do the same work: sample
playback with 4-point interpolation and a volume envelope. Each tool renders --runs
times; the table shows the median run.
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (RATE, build_spindle, measure, tone, wav_seconds, write_midi,  # noqa: E402
                    write_wav)
from sf2_writer import Zone, write_sf2  # noqa: E402

ROOT_KEYS = [36, 42, 48, 54, 60, 66, 72, 78, 84]  # one sample every 6 semitones
SAMPLE_SECONDS = 3.0
RELEASE_SECONDS = 0.3


def key_ranges(roots):
    """(root, lokey, hikey) for each sample, covering keys 0..127 without gaps."""
    ranges = []
    for i, root in enumerate(roots):
        lo = 0 if i == 0 else root - 3
        hi = 127 if i == len(roots) - 1 else root + 2
        ranges.append((root, lo, hi))
    return ranges


def write_instrument(folder, roots=ROOT_KEYS, seconds=SAMPLE_SECONDS, loop=False, decay=1.5):
    """folder/bench.sfz and folder/bench.sf2 over the same toneNN.wav files."""
    samples, zones, sfz = [], [], []
    for index, (root, lo, hi) in enumerate(key_ranges(roots)):
        frames = tone(root, seconds, decay)
        name = "tone%d.wav" % root
        write_wav(os.path.join(folder, name), frames)
        samples.append(("tone%d" % root, RATE, frames))
        zones.append(Zone(index, lo, hi, root, RELEASE_SECONDS, loop))
        looping = " loop_mode=loop_continuous loop_start=0 loop_end=%d" % (len(frames) - 1) if loop else ""
        sfz.append("<region> sample=%s lokey=%d hikey=%d pitch_keycenter=%d%s" % (name, lo, hi, root, looping))
    with open(os.path.join(folder, "bench.sfz"), "w") as out:
        out.write("<global> ampeg_release=%g\n" % RELEASE_SECONDS + "\n".join(sfz) + "\n")
    write_sf2(os.path.join(folder, "bench.sf2"), "bench", samples, zones)


def write_song(path, seconds, voices):
    """Chords of voices/4 notes every 0.25 s, each held 1 s: `voices` notes sound at once."""
    per_chord, step_ticks, hold_ticks = voices // 4, 240, 960  # 960 ticks = 1 s
    events = []  # (tick, order, bytes): note-offs sort before note-ons at the same tick
    for chord in range(int(seconds / 0.25)):
        tick = chord * step_ticks
        for n in range(per_chord):
            key = 30 + (chord * 7 + n * 5) % 70
            events.append((tick, 1, bytes([0x90, key, 90])))
            events.append((tick + hold_ticks, 0, bytes([0x80, key, 0])))
    write_midi(path, events)
    return len(events) // 2


def spindle_command(spindle, sfz, song, out, quality=1, extra=()):
    return [spindle, "--sfz", sfz, "--midi", song, "--wav", out, "--rate", str(RATE), "--format", "s16",
            "--quality", str(quality)] + list(extra)


def fluidsynth_command(sf2, song, out, interpolation=4, extra=()):
    """fluidsynth -F; `interpolation` is its `interp` setting (1 linear, 4 4-point, 7 7-point)."""
    config = os.path.join(os.path.dirname(out), "interp%d.cfg" % interpolation)
    with open(config, "w") as f:
        f.write("interp %d\n" % interpolation)
    return ["fluidsynth", "-ni", "-q", "-R", "0", "-C", "0", "-r", str(RATE), "-O", "s16", "-T", "wav",
            "-f", config] + list(extra) + ["-F", out, sf2, song]


def median_run(command, runs):
    samples = [measure(command)[:3] for _ in range(runs)]
    return tuple(statistics.median(s[i] for s in samples) for i in range(3))


def compare(spindle, folder, seconds, voices, runs):
    """Renders the dense song with both; returns a dict of the medians and ratios."""
    write_instrument(folder)
    song = os.path.join(folder, "song.mid")
    notes = write_song(song, seconds, voices)
    out_s, out_f = os.path.join(folder, "spindle.wav"), os.path.join(folder, "fluidsynth.wav")
    sfz = os.path.join(folder, "bench.sfz")
    result = {"notes": notes, "voices": voices, "song_seconds": seconds, "runs": runs}
    for key, extra in (("spindle", []), ("spindle_ram", ["--preload-frames", "-1"])):
        cpu, wall, rss = median_run(spindle_command(spindle, sfz, song, out_s, 1, extra), runs)
        result[key] = {"cpu_s": cpu, "wall_s": wall, "peak_rss_mib": rss, "output_s": wav_seconds(out_s)}
    cpu, wall, rss = median_run(fluidsynth_command(os.path.join(folder, "bench.sf2"), song, out_f), runs)
    f = result["fluidsynth"] = {"cpu_s": cpu, "wall_s": wall, "peak_rss_mib": rss, "output_s": wav_seconds(out_f)}
    for key in ("spindle", "spindle_ram"):
        result[key]["cpu_ratio"] = result[key]["cpu_s"] / f["cpu_s"]
        result[key]["rss_ratio"] = result[key]["peak_rss_mib"] / f["peak_rss_mib"]
    return result


def markdown(r):
    f = r["fluidsynth"]
    lines = ["%d notes, %d voices at once, %.0f s song, Hermite vs fluidsynth 4-point; median of %d runs. Spindle "
             "streams every sample by default (spindle-render: no preload, its disk thread decodes each block once "
             "into a shared 64 MiB cache); --preload-frames -1 holds them in RAM, as fluidsynth does\n"
             % (r["notes"], r["voices"], r["song_seconds"], r["runs"]),
             "| | CPU s (user+sys) | CPU / fluidsynth | wall s | peak RSS (MiB) | RSS / fluidsynth | output (s) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for label, key in (("spindle-render (streaming)", "spindle"), ("spindle-render --preload-frames -1",
                                                                  "spindle_ram")):
        s = r[key]
        lines.append("| %s | %.3f | %.2f | %.3f | %.1f | %.2f | %.2f |" % (
            label, s["cpu_s"], s["cpu_ratio"], s["wall_s"], s["peak_rss_mib"], s["rss_ratio"], s["output_s"]))
    lines.append("| fluidsynth -F | %.3f | 1.00 | %.3f | %.1f | 1.00 | %.2f |" % (
        f["cpu_s"], f["wall_s"], f["peak_rss_mib"], f["output_s"]))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--voices", type=int, default=64)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--spindle-render", help="use this binary instead of building one")
    parser.add_argument("--keep", help="folder for the generated files (default: a temporary one)")
    args = parser.parse_args()
    folder = args.keep or tempfile.mkdtemp(prefix="spindle-bench-")
    os.makedirs(folder, exist_ok=True)
    spindle = args.spindle_render or os.path.join(build_spindle(), "src", "app", "spindle-render")
    print(markdown(compare(spindle, folder, args.seconds, args.voices, args.runs)))
    print("\nfiles in %s" % folder)


if __name__ == "__main__":
    main()
