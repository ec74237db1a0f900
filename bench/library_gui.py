#!/usr/bin/env python3
"""The window while the library index scans 2,000 instruments: the longest event-loop
stall of the gui thread and what the audio thread did meanwhile, cold (no index cache)
and warm (the cache of the cold run, nothing changed).

The tree is library_index.py's (1,400 SFZ, 300 SoundFonts, 200 DecentSampler presets,
100 Hydrogen kits in a fake home in /tmp; HOME and the XDG folders point into it).
spindle-bench-library-gui (bench/library_gui.cpp) opens the real main window offscreen
over it, renders the engine on an audio thread of its own while the window plays notes,
and reports from the window's construction until the browser lists every instrument.

    bench/library_gui.py [--build build/ci] [--count 2000]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT  # noqa: E402
from library_index import generate  # noqa: E402


def run(exe, env, count, label):
    print("--- %s" % label, flush=True)
    done = subprocess.run([exe, "--expect", str(count)], env=env)
    if done.returncode != 0:
        sys.exit("%s: the browser did not list %d instruments" % (label, count))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "ci"))
    parser.add_argument("--count", type=int, default=2000)
    args = parser.parse_args()
    exe = os.path.join(args.build, "bench", "spindle-bench-library-gui")
    base = tempfile.mkdtemp(prefix="spindle-bench-library-gui-")
    try:
        home = os.path.join(base, "home")
        data = os.path.join(home, ".local", "share")
        generate(data, args.count)
        env = dict(os.environ, HOME=home, XDG_DATA_HOME=data, XDG_DATA_DIRS=os.path.join(base, "none"),
                   XDG_CACHE_HOME=os.path.join(base, "cache"), XDG_CONFIG_HOME=os.path.join(base, "config"),
                   QT_QPA_PLATFORM="offscreen")
        run(exe, env, args.count, "cold (no index cache)")
        run(exe, env, args.count, "warm (the cache, nothing changed)")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
