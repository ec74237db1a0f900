#!/usr/bin/env python3
"""Benchmark (not a test, not run in CI): disk streaming against everything in RAM.

Builds a library of about 1 GB of generated long samples (128 stereo 16-bit WAV
files of 44 s, written by sox) in /tmp, never in the repository, and a dense MIDI
file in which 256 voices sound at once (every key on two channels, held 20 s).
Then, with /usr/bin/time -v around spindle-render:

  1. Peak memory and CPU against --preload-frames: every sample whole in RAM
     (--preload-frames -1) and streaming with several preloads. Every render must
     produce the same output (the WAV data is compared byte for byte); the table
     shows the ratio of peak RSS to the all-in-RAM render (target <= 1/5).
  2. Cold cache against --read-size: before each run the library's pages are
     dropped from the page cache (posix_fadvise DONTNEED after a sync), as in the
     published 2004 disk-streaming measurements: throughput of the whole render
     (disk and decoding) and the stereo voices it could sustain in real time.

    bench/streaming_memory.py [--library DIR] [--files 128] [--file-seconds 44]
                              [--hold-seconds 20] [--preloads 4096,16384,65536]
                              [--read-sizes 64,128,256,512,1024] [--spindle-render BIN]

Spindle is built in Release in build/bench-streaming unless --spindle-render names a
binary. Printed tables are markdown. Helpers (timing, MIDI files) are bench/common.py's.
"""
import argparse
import hashlib
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import ROOT, line_of, measure, write_midi  # noqa: E402

RATE = 48000
VOICES = 256


def build_spindle():
    return os.path.join(common.build_spindle("build/bench-streaming"), "src", "app", "spindle-render")


def write_library(folder, files, seconds):
    """sNNN.wav: two detuned tones with a slow tremolo, one file per key; reused when present."""
    os.makedirs(folder, exist_ok=True)
    expected = 44 + int(seconds * RATE) * 4
    regions = []
    for i in range(files):
        name = "s%03d.wav" % i
        path = os.path.join(folder, name)
        if not (os.path.exists(path) and os.path.getsize(path) == expected):
            f1, f2 = 110.0 * 2 ** (i / 24.0), 111.5 * 2 ** (i / 24.0)
            subprocess.run(["sox", "-n", "-r", str(RATE), "-b", "16", "-c", "2", path, "synth", str(seconds),
                            "sine", "%.3f" % f1, "sine", "%.3f" % f2, "tremolo", "0.7", "30", "gain", "-8"],
                           check=True)
        regions.append("<region> sample=%s key=%d" % (name, i % 128))
    with open(os.path.join(folder, "library.sfz"), "w") as out:
        out.write("<global> ampeg_release=0.1 loop_mode=no_loop\n" + "\n".join(regions) + "\n")
    return sum(os.path.getsize(os.path.join(folder, "s%03d.wav" % i)) for i in range(files))


def write_song(path, hold_seconds):
    """Every key on channels 1 and 2, 10 ms apart, each held `hold_seconds`: 256 voices."""
    ticks_per_second = 960  # 480 ticks per beat at 120 bpm
    events = []
    for n in range(VOICES):
        key, channel = n % 128, n // 128
        start = n * ticks_per_second // 100
        events.append((start, 1, bytes([0x90 | channel, key, 100])))
        events.append((start + int(hold_seconds * ticks_per_second), 0, bytes([0x80 | channel, key, 0])))
    write_midi(path, events)


def drop_cache(folder):
    os.sync()
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), "rb") as f:
            os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)


def wav_digest(path):
    with open(path, "rb") as f:
        data = f.read()
    return hashlib.sha256(data[data.find(b"data"):]).hexdigest()[:16], (len(data) - 44) / 8.0 / RATE


def slowest_start(disk_line):
    """The "slowest start N ms" figure of spindle-render's disk streaming line."""
    words = disk_line.split()
    return words[words.index("start") + 1] if "start" in words else "?"


def render(spindle, folder, preload, read_kib, out_name):
    out = os.path.join(folder, out_name)
    cmd = [spindle, "--sfz", os.path.join(folder, "library.sfz"), "--midi", os.path.join(folder, "song.mid"),
           "--wav", out, "--polyphony", str(VOICES), "--streams", str(VOICES), "--preload-frames", str(preload),
           "--read-size", str(read_kib), "--quality", "1"]
    cpu, wall, rss, stdout = measure(cmd)
    digest, seconds = wav_digest(out)
    os.remove(out)
    return {"cpu": cpu, "wall": wall, "rss": rss, "digest": digest, "seconds": seconds,
            "memory": line_of(stdout, "memory:"), "disk": line_of(stdout, "disk streaming:"),
            "voices": line_of(stdout, "peak voices:")}


def memory_table(spindle, folder, preloads):
    ram = render(spindle, folder, -1, 256, "ram.wav")
    print("Peak memory and CPU, %d voices, %.1f s rendered, 256 KiB reads (page cache warm)\n"
          % (VOICES, ram["seconds"]))
    print("| preload (frames) | peak RSS (MiB) | RSS / all-in-RAM | CPU s | wall s | same output | budget printed at load |")
    print("|---:|---:|---:|---:|---:|:---:|---|")
    print("| all in RAM (-1) | %.1f | 1.00 | %.2f | %.2f | yes | %s |" % (ram["rss"], ram["cpu"], ram["wall"], ram["memory"]))
    for preload in preloads:
        r = render(spindle, folder, preload, 256, "stream.wav")
        print("| %d | %.1f | %.3f | %.2f | %.2f | %s | %s |" % (preload, r["rss"], r["rss"] / ram["rss"], r["cpu"],
              r["wall"], "yes" if r["digest"] == ram["digest"] else "NO", r["memory"]))
        if r["digest"] != ram["digest"]:
            print("  output differs: %s vs %s" % (r["digest"], ram["digest"]))
    print("\npeak voices: %s; disk (last run): %s\n" % (ram["voices"], r["disk"]))
    return ram


def cold_cache_table(spindle, folder, library_bytes, read_sizes):
    print("Cold cache (posix_fadvise DONTNEED before each run), preload 16384, %d voices\n" % VOICES)
    print("| read size (KiB) | wall s | CPU s | x real time | MB/s through the disk thread | stereo voices sustained "
          "| slowest stream start (ms) | peak RSS (MiB) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for kib in read_sizes:
        drop_cache(folder)
        r = render(spindle, folder, 16384, kib, "cold.wav")
        # Bytes the song reads: every voice plays `seconds` of 16-bit stereo at most.
        read_mb = min(library_bytes, VOICES * r["seconds"] * RATE * 4) / 1e6
        realtime = r["seconds"] / r["wall"]
        print("| %d | %.2f | %.2f | %.1f | %.1f | %d | %s | %.1f |" % (kib, r["wall"], r["cpu"], realtime,
              read_mb / r["wall"], int(VOICES * realtime), slowest_start(r["disk"]), r["rss"]))
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--library", default="/tmp/spindle-stream-bench")
    parser.add_argument("--files", type=int, default=128)
    parser.add_argument("--file-seconds", type=float, default=44.0)
    parser.add_argument("--hold-seconds", type=float, default=20.0)
    parser.add_argument("--preloads", default="4096,16384,65536")
    parser.add_argument("--read-sizes", default="64,128,256,512,1024")
    parser.add_argument("--spindle-render", help="use this binary instead of building one")
    args = parser.parse_args()
    if os.path.realpath(args.library).startswith(os.path.realpath(ROOT)):
        sys.exit("the library must not live in the repository")

    library_bytes = write_library(args.library, args.files, args.file_seconds)
    write_song(os.path.join(args.library, "song.mid"), args.hold_seconds)
    spindle = args.spindle_render or build_spindle()
    print("library: %d files, %.2f GB in %s\n" % (args.files, library_bytes / 1e9, args.library))
    memory_table(spindle, args.library, [int(p) for p in args.preloads.split(",")])
    cold_cache_table(spindle, args.library, library_bytes, [int(k) for k in args.read_sizes.split(",")])


if __name__ == "__main__":
    main()
