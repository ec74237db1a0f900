#!/usr/bin/env python3
"""Benchmark item 4 (loading): a generated library of about 2,000 files, loaded cold.

The library (in /tmp, never in the repository, reused when present): FILES stereo
16-bit WAV files of SECONDS each, mapped as 125 keys x 16 velocity layers. Files
longer than the preload plus one disk read (4096 frames, the live default, at the
regions' highest pitch, + 65536) are streamed, so the default 2.5 s (120000 frames)
keeps the two loads apart. Before
each load the files are dropped from the page cache (posix_fadvise DONTNEED after a
sync), then spindle-render loads the instrument and renders one short note; its own
load report gives the load time (wall, parse to published Program) and
its rusage the peak RSS. Two loads:

  first playable note  the live default preload (4096 frames per file): Spindle
                       publishes a Program, and so plays its first note, once every
                       region's preload is in RAM; the rest streams from disk.
  full preload         --preload-frames -1: every file decoded whole into RAM.

There is no peer: fluidsynth loads one SF2 file, not a library of files.

    bench/loading.py [--files 2000] [--seconds 2.5] [--library DIR]
"""
import argparse
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, TICKS_PER_SECOND, build_spindle, measure, write_midi  # noqa: E402

RATE = 48000


def write_library(folder, files, seconds):
    """fNNNN.wav (noise, written once) and library.sfz; returns the bytes on disk."""
    os.makedirs(folder, exist_ok=True)
    frames = int(seconds * RATE)
    data_bytes = frames * 4
    header = (b"RIFF" + (36 + data_bytes).to_bytes(4, "little") + b"WAVEfmt " + (16).to_bytes(4, "little")
              + (1).to_bytes(2, "little") + (2).to_bytes(2, "little") + RATE.to_bytes(4, "little")
              + (RATE * 4).to_bytes(4, "little") + (4).to_bytes(2, "little") + (16).to_bytes(2, "little")
              + b"data" + data_bytes.to_bytes(4, "little"))
    regions, total = [], 0
    for i in range(files):
        path = os.path.join(folder, "f%04d.wav" % i)
        if not (os.path.exists(path) and os.path.getsize(path) == len(header) + data_bytes):
            with open(path, "wb") as out:
                out.write(header + os.urandom(data_bytes))
        total += os.path.getsize(path)
        key, layer = 2 + i // 16, i % 16
        regions.append("<region> sample=f%04d.wav key=%d lovel=%d hivel=%d" % (i, key, layer * 8, layer * 8 + 7))
    with open(os.path.join(folder, "library.sfz"), "w") as out:
        out.write("<global> ampeg_release=0.05 volume=-30\n" + "\n".join(regions) + "\n")
    write_midi(os.path.join(folder, "note.mid"), [(0, 1, bytes([0x90, 60, 100])),
                                                  (TICKS_PER_SECOND // 10, 0, bytes([0x80, 60, 0]))])
    return total


def drop_cache(folder):
    os.sync()
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), "rb") as f:
            os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)


def load(spindle, folder, preload):
    drop_cache(folder)
    out = os.path.join(tempfile.gettempdir(), "spindle-bench-load-%d.wav" % os.getpid())
    cmd = [spindle, "--sfz", os.path.join(folder, "library.sfz"), "--midi", os.path.join(folder, "note.mid"),
           "--wav", out, "--preload-frames", str(preload)]
    cpu, wall, rss, stdout = measure(cmd)
    os.remove(out)
    samples = re.search(r"samples: +(\d+) loaded of (\d+) \(([0-9.]+) MiB in RAM, ([0-9.]+) s\)", stdout)
    return {"preload_frames": preload, "load_s": float(samples.group(4)), "samples": int(samples.group(1)),
            "ram_mib": float(samples.group(3)), "peak_rss_mib": rss, "process_cpu_s": cpu, "process_wall_s": wall}


def run(spindle, folder, files, seconds):
    if os.path.realpath(folder).startswith(os.path.realpath(ROOT)):
        sys.exit("the library must not live in the repository")
    total = write_library(folder, files, seconds)
    return {"files": files, "file_seconds": seconds, "library_mb": total / 1e6,
            "first_note": load(spindle, folder, 4096), "full": load(spindle, folder, -1)}


def markdown(r):
    lines = ["%d stereo 16-bit WAV files of %.2f s (%.0f MB), page cache dropped before each load\n"
             % (r["files"], r["file_seconds"], r["library_mb"]),
             "| load | samples | time to load (s) | sample RAM (MiB) | peak RSS (MiB) |", "|---|---:|---:|---:|---:|"]
    for label, key in (("first playable note (preload 4096 frames)", "first_note"), ("full preload (-1)", "full")):
        x = r[key]
        lines.append("| %s | %d | %.2f | %.1f | %.1f |" % (label, x["samples"], x["load_s"], x["ram_mib"],
                                                       x["peak_rss_mib"]))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=2.5)
    parser.add_argument("--library", default=os.path.join(tempfile.gettempdir(), "spindle-bench-load"))
    parser.add_argument("--spindle-render", help="use this binary instead of building one")
    args = parser.parse_args()
    spindle = args.spindle_render or os.path.join(build_spindle(), "src", "app", "spindle-render")
    print(markdown(run(spindle, args.library, args.files, args.seconds)))


if __name__ == "__main__":
    main()
