#!/usr/bin/env python3
"""Benchmark item 5 (note-on latency through JACK): the live latency test's probe
(tests/live/LiveProbe.cpp) in bench mode.

jackd (dummy backend, -R, period 256, 48 kHz); `spindle --headless` with the
probe's impulse instrument; the probe sends N note-ons at offsets spread over the
period and records the frame each one sounds at, through a recorder that declares 64
frames of playback latency. Reported: the notes that sounded exactly at their event
frame, Spindle's own note-on latency summary, and the engine's share, which must be
0 frames (events render at their frame inside the block).

    bench/latency.py [--notes 240]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Processes, build_spindle, jack_port_exists, start_jackd, wait_until  # noqa: E402

PLAYBACK_LATENCY = 64


def run(build, notes):
    folder = tempfile.mkdtemp(prefix="spindle-bench-latency-")
    probe = os.path.join(build, "tests", "live", "spindle-live-probe")
    subprocess.run([probe, "instrument", os.path.join(folder, "inst")], check=True, stdout=subprocess.DEVNULL)
    procs = Processes()
    try:
        env = start_jackd(procs, "spindle-bench-lat-%d" % os.getpid(), folder)
        name, log, out = "sblat%d" % os.getpid(), os.path.join(folder, "notes.log"), os.path.join(folder, "spindle.out")
        spindle = procs.start([os.path.join(build, "src", "app", "spindle"), "--headless", "--instrument",
                               os.path.join(folder, "inst", "impulse.sfz"), "--name", name, "--osc-port", "0",
                               "--note-log", log], out, env)
        if not wait_until(20, lambda: jack_port_exists(env, name + ":midi_in")):
            raise RuntimeError("spindle's ports did not appear (see %s)" % out)
        result = subprocess.run([probe, "run", "--target", name, "--notes", str(notes), "--note-log", log,
                                 "--latency", str(PLAYBACK_LATENCY)], env=env, capture_output=True, text=True,
                                timeout=120 + notes)
        spindle.send_signal(10)  # SIGUSR1: stats with the latency summary
        wait_until(5, lambda: "engine share" in open(out).read())
        text = open(out).read()
    finally:
        procs.stop_all()
        shutil.rmtree(folder, ignore_errors=True)
    return parse(result.stdout, text, notes)


def parse(probe_out, spindle_out, notes):
    summary = next((line for line in probe_out.splitlines() if line.startswith("probe: ")), "")
    # "24 notes sent (0 late cycles left out), ...": a count may carry a remark in brackets.
    count = lambda label: re.search(r"(\d+) %s(?: \([^)]*\))?[,;]" % label, summary)  # noqa: E731
    share = re.search(r"engine share: +min (-?\d+), max (-?\d+) frames; playback latency (\d+) frames", spindle_out)
    total = re.search(r"note-on latency: +(\d+) notes, total min ([0-9.]+) / mean ([0-9.]+) / max ([0-9.]+)",
                      spindle_out)
    xruns = re.search(r"xruns: +(\d+) reported by the backend, (\d+) detected", spindle_out)
    r = {"notes": notes, "probe": summary or probe_out.strip()}
    fields = {key: count(label) for key, label in (("sent", "notes sent"), ("heard", "onsets heard"),
                                                   ("exact", "exact"), ("displaced", "displaced"), ("lost", "lost"))}
    if not all(fields.values()) or not share:
        raise RuntimeError("cannot read the probe's or spindle's report: %s" % r["probe"])
    r.update({key: int(match.group(1)) for key, match in fields.items()})
    if share:
        r.update(engine_min=int(share.group(1)), engine_max=int(share.group(2)), playback=int(share.group(3)))
    if total:
        r.update(total_min_ms=float(total.group(2)), total_mean_ms=float(total.group(3)),
                 total_max_ms=float(total.group(4)))
    if xruns:
        r["xruns"] = int(xruns.group(1)) + int(xruns.group(2))
    return r


def markdown(r):
    return "\n".join([
        "jackd -d dummy -r 48000 -p 256 -R; %d note-ons at offsets spread over the period; the recorder declares "
        "%d frames of playback latency\n" % (r["notes"], PLAYBACK_LATENCY),
        "| notes sent | sounded at their exact frame | displaced (xrun) | lost | engine share (frames) min / max "
        "| total latency (ms) min / mean / max | xruns |",
        "|---:|---:|---:|---:|---:|---:|---:|",
        "| %d | %d | %d | %d | %d / %d | %.3f / %.3f / %.3f | %d |" % (
            r["sent"], r["exact"], r["displaced"], r["lost"], r["engine_min"], r["engine_max"],
            r.get("total_min_ms", 0), r.get("total_mean_ms", 0), r.get("total_max_ms", 0), r.get("xruns", 0))])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--notes", type=int, default=240)
    parser.add_argument("--build", help="a build folder with spindle and spindle-live-probe")
    args = parser.parse_args()
    build = args.build or build_spindle(targets=("spindle", "spindle-live-probe"))
    print(markdown(run(build, args.notes)))


if __name__ == "__main__":
    main()
