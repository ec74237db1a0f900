#!/usr/bin/env python3
"""Benchmark (not a test, not run in CI): spindle-render against fluidsynth.

Builds one instrument both ways over the same generated WAV files (an SFZ for
Spindle, an SF2 for fluidsynth, written by bench/sf2_writer.py), writes a dense MIDI
file, renders it with both, and prints CPU seconds and peak RSS (from
/usr/bin/time -v) as a markdown table with the ratios.

    bench/render_vs_fluidsynth.py [--seconds 30] [--voices 64] [--runs 3] [--keep DIR]

Spindle is built in Release in build/bench unless --spindle-render names a binary.
Fluidsynth runs with reverb and chorus off, so both do the same work: sample
playback with 4-point interpolation and a volume envelope. Each tool renders --runs
times; the table shows the median run.
"""
import argparse
import math
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import wave

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sf2_writer import Zone, write_sf2  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RATE = 48000
ROOT_KEYS = [36, 42, 48, 54, 60, 66, 72, 78, 84]  # one sample every 6 semitones
SAMPLE_SECONDS = 3.0
RELEASE_SECONDS = 0.3


def tone(root_key, seconds):
    """A decaying tone with a few harmonics, as int16 frames."""
    freq = 440.0 * 2 ** ((root_key - 69) / 12)
    frames = []
    for i in range(int(seconds * RATE)):
        t = i / RATE
        value = sum(math.sin(2 * math.pi * freq * h * t) / h for h in (1, 2, 3, 5))
        frames.append(int(9000 * value * math.exp(-1.5 * t)))
    return frames


def write_wav(path, frames):
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(struct.pack("<%dh" % len(frames), *frames))


def key_ranges():
    """(root, lokey, hikey) for each sample, covering keys 0..127 without gaps."""
    ranges = []
    for i, root in enumerate(ROOT_KEYS):
        lo = 0 if i == 0 else root - 3
        hi = 127 if i == len(ROOT_KEYS) - 1 else root + 2
        ranges.append((root, lo, hi))
    return ranges


def write_instrument(folder):
    samples, zones, sfz = [], [], []
    for index, (root, lo, hi) in enumerate(key_ranges()):
        frames = tone(root, SAMPLE_SECONDS)
        name = "tone%d.wav" % root
        write_wav(os.path.join(folder, name), frames)
        samples.append(("tone%d" % root, RATE, frames))
        zones.append(Zone(index, lo, hi, root, RELEASE_SECONDS))
        sfz.append("<region> sample=%s lokey=%d hikey=%d pitch_keycenter=%d" % (name, lo, hi, root))
    with open(os.path.join(folder, "bench.sfz"), "w") as out:
        out.write("<global> ampeg_release=%g\n" % RELEASE_SECONDS + "\n".join(sfz) + "\n")
    write_sf2(os.path.join(folder, "bench.sf2"), "bench", samples, zones)


def vlq(value):
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append(0x80 | (value & 0x7F))
        value >>= 7
    return bytes(reversed(out))


def write_song(path, seconds, voices):
    """Chords of voices/4 notes every 0.25 s, each held 1 s: `voices` notes sound at once."""
    per_chord, step_ticks, hold_ticks = voices // 4, 240, 960  # 480 ticks = 0.5 s at 120 bpm
    events = []  # (tick, order, bytes): note-offs sort before note-ons at the same tick
    for chord in range(int(seconds / 0.25)):
        tick = chord * step_ticks
        for n in range(per_chord):
            key = 30 + (chord * 7 + n * 5) % 70
            events.append((tick, 1, bytes([0x90, key, 90])))
            events.append((tick + hold_ticks, 0, bytes([0x80, key, 0])))
    events.sort(key=lambda e: (e[0], e[1]))
    track, last = bytearray(), 0
    for tick, _, data in events:
        track += vlq(tick - last) + data
        last = tick
    track += vlq(0) + b"\xff\x2f\x00"
    with open(path, "wb") as out:
        out.write(b"MThd" + struct.pack(">IHHH", 6, 0, 1, 480) + b"MTrk" + struct.pack(">I", len(track)) + track)
    return len(events) // 2


def measure(command):
    """Runs `command` under /usr/bin/time -v; returns (cpu seconds, wall seconds, peak RSS MiB)."""
    result = subprocess.run(["/usr/bin/time", "-v"] + command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("failed: %s\n%s%s" % (" ".join(command), result.stdout, result.stderr))
    fields = {}
    for line in result.stderr.splitlines():
        key, _, value = line.strip().rpartition(": ")
        fields[key] = value
    cpu = float(fields["User time (seconds)"]) + float(fields["System time (seconds)"])
    wall_text = fields["Elapsed (wall clock) time (h:mm:ss or m:ss)"]
    wall = sum(float(part) * 60 ** i for i, part in enumerate(reversed(wall_text.split(":"))))
    return cpu, wall, int(fields["Maximum resident set size (kbytes)"]) / 1024.0


def build_spindle():
    build = os.path.join(ROOT, "build", "bench")
    subprocess.run(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                    "-DSPINDLE_BUILD_TESTS=OFF"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build, "--target", "spindle-render"], check=True, stdout=subprocess.DEVNULL)
    return os.path.join(build, "src", "app", "spindle-render")


def wav_seconds(path):
    with wave.open(path) as w:
        return w.getnframes() / w.getframerate()


def median_run(command, runs):
    samples = [measure(command) for _ in range(runs)]
    return tuple(statistics.median(s[i] for s in samples) for i in range(3))


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
    write_instrument(folder)
    song = os.path.join(folder, "song.mid")
    notes = write_song(song, args.seconds, args.voices)
    spindle = args.spindle_render or build_spindle()
    out_s, out_f = os.path.join(folder, "spindle.wav"), os.path.join(folder, "fluidsynth.wav")
    spindle_cmd = [spindle, "--sfz", os.path.join(folder, "bench.sfz"), "--midi", song, "--wav", out_s,
                   "--rate", str(RATE), "--format", "s16", "--quality", "1"]
    fluid_cmd = ["fluidsynth", "-ni", "-q", "-R", "0", "-C", "0", "-r", str(RATE), "-O", "s16", "-T", "wav",
                 "-F", out_f, os.path.join(folder, "bench.sf2"), song]
    s_cpu, s_wall, s_rss = median_run(spindle_cmd, args.runs)
    f_cpu, f_wall, f_rss = median_run(fluid_cmd, args.runs)

    print("%d notes, %d voices at once, %.0f s song; median of %d runs; files in %s\n"
          % (notes, args.voices, args.seconds, args.runs, folder))
    print("| | spindle-render | fluidsynth | spindle / fluidsynth |")
    print("|---|---:|---:|---:|")
    print("| CPU seconds (user+sys) | %.3f | %.3f | %.2f |" % (s_cpu, f_cpu, s_cpu / f_cpu))
    print("| wall seconds | %.3f | %.3f | %.2f |" % (s_wall, f_wall, s_wall / f_wall))
    print("| peak RSS (MiB) | %.1f | %.1f | %.2f |" % (s_rss, f_rss, s_rss / f_rss))
    print("| output length (s) | %.2f | %.2f | |" % (wav_seconds(out_s), wav_seconds(out_f)))


if __name__ == "__main__":
    main()
