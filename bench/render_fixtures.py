#!/usr/bin/env python3
"""Renders every program in the fixtures with one song and prints a hash per program.

A refactoring that must not change the sound is checked by rendering before and after:

    bench/render_fixtures.py --render OLD/spindle-render --out before.json
    bench/render_fixtures.py --render NEW/spindle-render --compare before.json

Programs: every .sfz, .sf2/.sf3, .dspreset and Hydrogen drumkit.xml under
$SPINDLE_FIXTURES (default ../shared/fixtures). The song plays every key from 21 to 108
at four velocities in turn on channel 1, with the mod wheel, the sustain pedal and the
pitch bend moving, then the General MIDI drum keys on channel 10. A program renders
deterministically when two renders give the same bytes; --out records only those (the
others are listed as such), and --compare compares only programs deterministic on both
sides. Exit status 1 when a compared program differs.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

STEP = 60  # ticks between notes (62.5 ms)


def song_events():
    events, tick = [], 0
    for i, key in enumerate(range(21, 109)):
        velocity = (30, 64, 100, 127)[i % 4]
        events.append((tick, 1, bytes([0x90, key, velocity])))
        events.append((tick + 4 * STEP, 0, bytes([0x80, key, 0])))
        events.append((tick, 2, bytes([0xB0, 1, (i * 11) % 128])))
        events.append((tick, 2, bytes([0xE0, 0, (64 + (i * 7) % 32 - 16) & 0x7F])))
        if i % 16 == 0:
            events.append((tick, 2, bytes([0xB0, 64, 127 if i % 32 == 0 else 0])))
        tick += STEP
    for key in range(35, 82):
        events.append((tick, 1, bytes([0x99, key, 100])))
        events.append((tick + STEP, 0, bytes([0x89, key, 0])))
        tick += STEP // 2
    return events, tick + 2 * common.TICKS_PER_SECOND


def programs(root):
    found = []
    for folder, _, files in os.walk(root):
        for name in files:
            lower = name.lower()
            if lower.endswith((".sfz", ".sf2", ".sf3", ".dspreset")) or lower == "drumkit.xml":
                found.append(os.path.join(folder, name))
    return sorted(found)


def render_hash(render, program, song, folder):
    out = os.path.join(folder, hashlib.sha1(program.encode()).hexdigest() + ".wav")
    result = subprocess.run([render, "--instrument", program, "--midi", song, "--wav", out],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    if result.returncode != 0:
        return "exit %d" % result.returncode
    with open(out, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    os.remove(out)
    return digest


def hash_all(render, root, jobs):
    events, end = song_events()
    with tempfile.TemporaryDirectory() as folder:
        song = os.path.join(folder, "song.mid")
        common.write_midi(song, events, end)
        paths = programs(root)
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            first = list(pool.map(lambda p: render_hash(render, p, song, folder), paths))
            second = list(pool.map(lambda p: render_hash(render, p, song, folder), paths))
    table = {}
    for path, a, b in zip(paths, first, second):
        table[os.path.relpath(path, root)] = a if a == b else "nondeterministic"
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--render", required=True, help="the spindle-render binary")
    parser.add_argument("--out", help="write the hashes here (JSON)")
    parser.add_argument("--compare", help="compare with hashes written by --out")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    root = os.environ.get("SPINDLE_FIXTURES", os.path.join(common.ROOT, "..", "shared", "fixtures"))
    if not os.path.isdir(root):
        print("render_fixtures: no fixtures at %s" % root)
        return 77
    table = hash_all(os.path.abspath(args.render), root, args.jobs)
    failed = sum(1 for h in table.values() if h.startswith("exit"))
    unstable = sum(1 for h in table.values() if h == "nondeterministic")
    print("%d programs: %d deterministic, %d nondeterministic, %d failed to render"
          % (len(table), len(table) - unstable - failed, unstable, failed))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(table, f, indent=1, sort_keys=True)
    if not args.compare:
        return 0
    with open(args.compare) as f:
        before = json.load(f)
    same, differ = 0, []
    for name, digest in sorted(table.items()):
        old = before.get(name)
        if old is None or "nondeterministic" in (old, digest):
            continue
        if old.startswith("exit") and digest.startswith("exit"):
            continue  # unreadable before and after: nothing rendered to compare
        if old == digest:
            same += 1
        else:
            differ.append(name)
    for name in differ:
        print("differs: %s" % name)
    print("compared %d programs deterministic before and after: %d identical, %d differ"
          % (same + len(differ), same, len(differ)))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
