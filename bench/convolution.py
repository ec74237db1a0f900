#!/usr/bin/env python3
"""Benchmark item 9 (convolution): the convolution bus effect's CPU time per period,
against the SFZ bus reverb (fverb) on the same input.

spindle-bench-convolution runs both as the engine runs a bus effect (BusEffectState,
32-frame control steps) on white noise: a 3 s stereo impulse response at 48 kHz, a
256-frame period (5.33 ms), each period timed on the thread's CPU clock. Reported: mean,
p99 and worst microseconds per period, the mean and p99 as a fraction of the period,
and the convolution's cost over the reverb's (mean and p99).

    bench/convolution.py [--periods 4000] [--seconds 3] [--build build/release]
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import build_spindle  # noqa: E402


def run(build, periods=4000, seconds=3.0, period=256):
    exe = os.path.join(build, "bench", "spindle-bench-convolution")
    out = subprocess.run([exe, "--periods", str(periods), "--seconds", str(seconds), "--period", str(period)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def markdown(result):
    lines = ["CPU per %d-frame period (%.2f ms), %d periods, white noise in; a %.1f s stereo response at 48 kHz\n"
             % (result["period_frames"], result["period_us"] / 1000.0, result["periods"], result["response_seconds"]),
             "| effect | mean us | p99 us | worst us | mean / period | p99 / period |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, label in (("convolution", "convolution"), ("bus_reverb", "bus reverb (fverb)")):
        r = result[name]
        lines.append("| %s | %.1f | %.1f | %.1f | %.2f %% | %.2f %% |" % (
            label, r["mean_us"], r["p99_us"], r["worst_us"], 100 * r["mean_fraction"], 100 * r["p99_fraction"]))
    lines.append("\nconvolution / bus reverb: x%.1f mean, x%.1f p99" % (result["mean_ratio"], result["p99_ratio"]))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--periods", type=int, default=4000)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--build", help="an existing build folder instead of building build/bench")
    args = parser.parse_args()
    build = os.path.abspath(args.build) if args.build else build_spindle(targets=("spindle-bench-convolution",))
    print(markdown(run(build, args.periods, args.seconds)))


if __name__ == "__main__":
    main()
