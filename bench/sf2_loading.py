#!/usr/bin/env python3
"""Benchmark item 7 (SoundFont loading): spindle-render against fluidsynth -F, loading
TimGM6mb and a large generated SoundFont, from a cold and from a warm page cache.

Fonts:
  TimGM6mb     $SPINDLE_FIXTURES/sf2/TimGM6mb.sf2 (6 MB, 520 short samples); its row is
               skipped, with a message, when the fixtures are absent.
  generated    --size-mb of 16-bit mono 44.1 kHz samples (1024 MiB by default): 128
               presets, each one instrument whose samples of 2-10 s (scaled to hit the
               size) split the keyboard, every one looped over its second half. Written
               once by bench/sf2_writer.py into --cache (in /tmp, never the repository)
               and reused while its size matches.

The song is one note (key 60 on channel 1, program 0, 0.1 s): the point is the cost of
loading, and one note keeps the render itself to a few milliseconds. Each process is
measured whole (wall, user+sys CPU and peak RSS, as bench/common.py `measure` does), so
a row is load + that note + exit. Four renderers:

  fluidsynth                  loads every sample of the font into RAM, as 16-bit, and
                              mlocks it (synth.lock-memory, on by default)
  fluidsynth dynamic          -o synth.dynamic-sample-loading=1: loads only the samples
                              of the presets selected on a channel (program 0 of bank 0,
                              and bank 128 on channel 10, at start)
  spindle-render              its offline default: no preload, every sample streams from
                              inside the font (samples shorter than one read held whole)
  spindle-render preload -1   --preload-frames -1: every sample whole in RAM, as 16-bit
                              (24-bit with sm24), as in the file

Cold: the font's pages are dropped from the page cache (sync, then posix_fadvise
DONTNEED on the file; /proc/sys/vm/drop_caches is refused in a container, and would
evict the other users' pages too) and fincore checks what stayed; the programs and
their libraries stay cached. In a virtual machine the host may still cache the disk.
Warm: the font is read whole first. In a KVM guest whose virtio-balloon reports free
pages, the pages the drop frees may go back to the host, and the run that touches them
again pays for it in sys time (seconds for a gigabyte): the table shows every run's wall.
Each renderer runs --runs times in each state; the table shows the medians, and the
ratios are to plain fluidsynth in the same state.

    bench/sf2_loading.py [--size-mb 1024] [--runs 3] [--quick] [--cache DIR]
                         [--fixtures DIR] [--spindle-render BIN] [--json FILE]
"""
import argparse
import json
import math
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, TICKS_PER_SECOND, build_spindle, measure, write_midi  # noqa: E402
from sf2_writer import Preset, Sample, Zone, write_font  # noqa: E402

RATE = 44100
PRESETS = 128
PERIOD_BLOCK = 2048  # frames; every sample repeats one block holding whole periods, so any loop is seamless
MEAN_SECONDS = 6.0   # the mean of the 2-10 s lengths, before scaling to the size
TIMGM = os.path.join("sf2", "TimGM6mb.sf2")
RENDERERS = (  # key, label, which program, its extra arguments
    ("fluidsynth", "fluidsynth", "fluidsynth", []),
    ("fluidsynth_dynamic", "fluidsynth dynamic-sample-loading", "fluidsynth",
     ["-o", "synth.dynamic-sample-loading=1"]),
    ("spindle", "spindle-render (streamed, no preload)", "spindle", []),
    ("spindle_ram", "spindle-render --preload-frames -1", "spindle", ["--preload-frames", "-1"]),
)


# ---- the generated font ---------------------------------------------------

def sample_frames(size_mb):
    """Frames of every sample, preset by preset: 2-10 s spread evenly within a preset,
    as many per preset as 6 s samples fill the size, then scaled to fill it."""
    target_frames = size_mb * 1024 * 1024 // 2
    per_preset = max(1, round(target_frames / (PRESETS * MEAN_SECONDS * RATE)))
    seconds = [2.0 + 8.0 * j / (per_preset - 1) if per_preset > 1 else MEAN_SECONDS for j in range(per_preset)]
    scale = target_frames / (PRESETS * sum(seconds) * RATE)
    blocks = [max(2, round(s * scale * RATE / PERIOD_BLOCK)) for s in seconds]
    return [[b * PERIOD_BLOCK for b in blocks] for _ in range(PRESETS)]


def period_block(key):
    """PERIOD_BLOCK int16 frames of a tone near `key`'s pitch: a whole number of
    periods, so the block tiles without a click."""
    cycles = max(1, round(440.0 * 2 ** ((key - 69) / 12) * PERIOD_BLOCK / RATE))
    frames = [int(6000 * (math.sin(2 * math.pi * cycles * i / PERIOD_BLOCK)
                          + 0.3 * math.sin(6 * math.pi * cycles * i / PERIOD_BLOCK))) for i in range(PERIOD_BLOCK)]
    return struct.pack("<%dh" % PERIOD_BLOCK, *frames)


def generated_samples(plan):
    for program, lengths in enumerate(plan):
        for j, frames in enumerate(lengths):
            key = key_range(j, len(lengths))[2]
            pcm = period_block(key) * (frames // PERIOD_BLOCK)
            loop_start = (frames // PERIOD_BLOCK // 2) * PERIOD_BLOCK
            yield Sample("p%03ds%02d" % (program, j), RATE, pcm, loop_start, frames)


def key_range(j, count):
    """(lokey, hikey, root) of sample j of `count` splitting keys 0..127."""
    lo, hi = 128 * j // count, 128 * (j + 1) // count - 1
    return lo, hi, (lo + hi) // 2


def write_generated_font(path, size_mb):
    plan = sample_frames(size_mb)
    presets, index = [], 0
    for program, lengths in enumerate(plan):
        zones = []
        for j in range(len(lengths)):
            lo, hi, root = key_range(j, len(lengths))
            zones.append(Zone(index, lo, hi, root, 0.3, loop=True))
            index += 1
        presets.append(Preset("generated %03d" % program, program, zones))
    partial = path + ".part"
    write_font(partial, "spindle bench %d MiB" % size_mb, presets, generated_samples(plan))
    os.replace(partial, path)


def generated_font(cache, size_mb):
    """The font for `size_mb` in `cache`, written when absent; returns its path."""
    if os.path.realpath(cache).startswith(os.path.realpath(ROOT)):
        sys.exit("the generated font must not live in the repository")
    os.makedirs(cache, exist_ok=True)
    path = os.path.join(cache, "generated-%dmib.sf2" % size_mb)
    if not os.path.exists(path):
        print("writing %s ..." % path, flush=True)
        write_generated_font(path, size_mb)
    return path


# ---- the page cache -------------------------------------------------------

def resident_mib(path):
    """MiB of `path` in the page cache (fincore), or None without fincore."""
    if shutil.which("fincore") is None:
        return None
    out = subprocess.run(["fincore", "--bytes", "--noheadings", "--output", "RES", path],
                         capture_output=True, text=True)
    return int(out.stdout.split()[0]) / 2 ** 20 if out.returncode == 0 and out.stdout.strip() else None


def drop_cache(path):
    os.sync()
    with open(path, "rb") as f:
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
    return resident_mib(path)


def warm_cache(path):
    with open(path, "rb") as f:
        while f.read(1 << 23):
            pass
    return resident_mib(path)


def free_page_reporting():
    """True in a guest whose virtio-balloon reports free pages to the host (feature bit
    5): memory freed here (the dropped cache, an exited renderer) may go back to the
    host, and touching it again costs host faults, seen as the guest's sys time."""
    root = "/sys/bus/virtio/devices"
    for name in os.listdir(root) if os.path.isdir(root) else []:
        try:
            with open(os.path.join(root, name, "device")) as d, open(os.path.join(root, name, "features")) as f:
                if int(d.read(), 16) == 5 and f.read()[5:6] == "1":
                    return True
        except (OSError, ValueError):
            continue
    return False


def cold_read_seconds(path):
    """Seconds to read the whole font from a dropped cache: the disk's share of a cold load."""
    drop_cache(path)
    started = time.monotonic()
    warm_cache(path)
    return time.monotonic() - started


# ---- one font -------------------------------------------------------------

def command(program, spindle, font, song, out, extra):
    if program == "fluidsynth":
        return (["fluidsynth", "-ni", "-q", "-R", "0", "-C", "0", "-g", "1", "-r", str(RATE), "-O", "s16",
                 "-T", "wav"] + extra + ["-F", out, font, song])
    return [spindle, "--instrument", font, "--midi", song, "--wav", out, "--rate", str(RATE),
            "--format", "s16", "--reverb", "off", "--chorus", "off"] + extra  # as fluidsynth -R 0 -C 0


def spindle_report(stdout):
    """Spindle's own load line: (load s, sample MiB in RAM), or (None, None)."""
    found = re.search(r"samples: +\d+ loaded of \d+ \(([0-9.]+) MiB in RAM, ([0-9.]+) s\)", stdout)
    return (float(found.group(2)), float(found.group(1))) if found else (None, None)


def median_row(runs):
    row = {key: statistics.median(run[key] for run in runs) for key in ("wall_s", "cpu_s", "peak_rss_mib")}
    row["wall_runs_s"] = [run["wall_s"] for run in runs]
    resident = [run["resident_mib"] for run in runs if run["resident_mib"] is not None]
    row["resident_mib"] = max(resident) if resident else None
    loads = [run["load_s"] for run in runs if run["load_s"] is not None]
    if loads:
        row["load_s"], row["ram_mib"] = statistics.median(loads), runs[0]["ram_mib"]
    return row


def measure_font(spindle, font, song, folder, runs):
    """{renderer key: {"cold": row, "warm": row}}, runs interleaved so drift spreads evenly."""
    samples = {key: {"cold": [], "warm": []} for key, _, _, _ in RENDERERS}
    out = os.path.join(folder, "out.wav")
    for _ in range(runs):
        for key, _, program, extra in RENDERERS:
            for state, prepare in (("cold", drop_cache), ("warm", warm_cache)):
                resident = prepare(font)
                cpu, wall, rss, stdout = measure(command(program, spindle, font, song, out, extra))
                load_s, ram_mib = spindle_report(stdout)
                samples[key][state].append({"wall_s": wall, "cpu_s": cpu, "peak_rss_mib": rss,
                                            "resident_mib": resident, "load_s": load_s, "ram_mib": ram_mib})
    result = {key: {state: median_row(rows) for state, rows in states.items()} for key, states in samples.items()}
    for state in ("cold", "warm"):
        base = result["fluidsynth"][state]
        for key in result:
            row = result[key][state]
            row["wall_ratio"] = row["wall_s"] / base["wall_s"]
            row["rss_ratio"] = row["peak_rss_mib"] / base["peak_rss_mib"]
    return result


def run(spindle, cache, size_mb, runs, fixtures):
    """Both fonts (TimGM6mb only when the fixtures hold it); a dict for markdown()."""
    folder = tempfile.mkdtemp(prefix="spindle-bench-sf2-")
    song = os.path.join(folder, "note.mid")
    write_midi(song, [(0, 1, bytes([0x90, 60, 100])), (TICKS_PER_SECOND // 10, 0, bytes([0x80, 60, 0]))])
    fonts = []
    timgm = os.path.join(fixtures, TIMGM)
    skipped = None if os.path.isfile(timgm) else "no %s (set SPINDLE_FIXTURES)" % timgm
    if not skipped:
        fonts.append(("TimGM6mb", timgm))
    generated = generated_font(cache, size_mb)
    fonts.append(("generated %d MiB" % size_mb, generated))
    result = {"runs": runs, "size_mb": size_mb, "skipped": skipped, "free_page_reporting": free_page_reporting(),
              "fonts": []}
    for name, path in fonts:
        result["fonts"].append({"name": name, "path": path, "mib": os.path.getsize(path) / 2 ** 20,
                                "cold_read_s": cold_read_seconds(path),
                                "rows": measure_font(spindle, path, song, folder, runs)})
    shutil.rmtree(folder, ignore_errors=True)
    return result


def markdown(r):
    lines = ["One note (0.1 s) after loading the font; whole-process wall, CPU (user+sys) and peak RSS, median of "
             "%d runs. Cold: the font's pages dropped with posix_fadvise DONTNEED (resident MiB checked by "
             "fincore); warm: the font read whole first. Ratios are to plain fluidsynth in the same state. "
             "fluidsynth holds every sample as 16-bit (mlocked), Spindle as in the file (16-bit here); "
             "spindle-render's default streams every sample past what one read holds\n" % r["runs"]]
    if r["skipped"]:
        lines.append("TimGM6mb skipped: %s\n" % r["skipped"])
    lines += ["| font | renderer | cache | wall s | wall s, each run | CPU s | peak RSS MiB | wall / fluidsynth "
              "| RSS / fluidsynth | Spindle's load s | font resident MiB |",
              "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for font in r["fonts"]:
        for key, label, _, _ in RENDERERS:
            for state in ("cold", "warm"):
                x = font["rows"][key][state]
                load = "%.2f" % x["load_s"] if x.get("load_s") is not None else ""
                resident = "%.0f" % x["resident_mib"] if x["resident_mib"] is not None else "?"
                each = " ".join("%.2f" % w for w in x["wall_runs_s"])
                lines.append("| %s (%.0f MiB) | %s | %s | %.3f | %s | %.3f | %.1f | %.2f | %.2f | %s | %s |" % (
                    font["name"], font["mib"], label, state, x["wall_s"], each, x["cpu_s"], x["peak_rss_mib"],
                    x["wall_ratio"], x["rss_ratio"], load, resident))
    lines.append("")
    if r.get("free_page_reporting"):
        lines.append("This is a virtual machine whose balloon reports free pages to the host: memory freed here may "
                     "be handed back, and touching it again costs host faults (the guest's sys time), so a large "
                     "font's rows can vary by seconds from run to run, cold ones most (each run's wall is shown)\n")
    lines += ["%s: reading the whole file from a dropped cache takes %.2f s (%.0f MiB/s)" % (
        f["name"], f["cold_read_s"], f["mib"] / max(f["cold_read_s"], 1e-9)) for f in r["fonts"]]
    return "\n".join(lines)


def default_fixtures():
    """$SPINDLE_FIXTURES, else shared/fixtures beside the repository (as CMake's default)."""
    return os.environ.get("SPINDLE_FIXTURES") or os.path.join(os.path.dirname(ROOT), "shared", "fixtures")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size-mb", type=int, default=1024, help="MiB of samples in the generated font")
    parser.add_argument("--quick", action="store_true", help="a 100 MiB font and one run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "spindle-bench-sf2"),
                        help="where the generated font is kept between runs")
    parser.add_argument("--fixtures", default=default_fixtures(), help="folder holding sf2/TimGM6mb.sf2")
    parser.add_argument("--spindle-render", help="use this binary instead of building one")
    parser.add_argument("--json", help="also write the results, every run's wall time included, to this file")
    args = parser.parse_args()
    size_mb, runs = (100, 1) if args.quick else (args.size_mb, args.runs)
    spindle = args.spindle_render or os.path.join(build_spindle(), "src", "app", "spindle-render")
    result = run(spindle, args.cache, size_mb, runs, args.fixtures)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    print(markdown(result))


if __name__ == "__main__":
    main()
