#!/usr/bin/env python3
"""The library index: `spindle --list-libraries --json` over 2,000 generated instruments,
cold (no index cache) and warm (the cache from the cold run, nothing changed).

The tree (in /tmp, never in the repository, rebuilt each run) is a fake home whose
XDG data folder holds 1,400 SFZ files of 8 regions each (over shared 16-bit WAV files,
a folder of them per 100 instruments), 300 SoundFonts of one preset, 200 DecentSampler
presets and 100 Hydrogen kit folders. HOME, XDG_DATA_HOME, XDG_DATA_DIRS,
XDG_CACHE_HOME and XDG_CONFIG_HOME point into it, so only the tree (and the fixed
system folders /usr/share/sounds/sf2 and /usr/share/soundfonts) is read. The files are
in the page cache (just written): "cold" is the index's cold start, not the disk's.

    bench/library_index.py [--spindle build/ci/src/app/spindle] [--count 2000]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, write_wav  # noqa: E402
from sf2_writer import Zone, write_sf2  # noqa: E402


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as out:
        out.write(text)


def samples_folder(base, group):
    folder = os.path.join(base, "samples%02d" % group)
    if not os.path.isdir(folder):
        os.makedirs(folder)
        for k in range(8):
            write_wav(os.path.join(folder, "s%d.wav" % k), [(k * 100) % 3000] * 2000)
    return folder


def generate(data, count):
    """Writes `count` instruments: 70 % SFZ, 15 % SF2, 10 % DecentSampler, 5 % Hydrogen."""
    sfz, sf2, ds = count * 70 // 100, count * 15 // 100, count * 10 // 100
    kits = count - sfz - sf2 - ds
    for i in range(sfz):
        folder = samples_folder(os.path.join(data, "sfz"), i // 100)
        regions = "".join("<region> sample=%s/s%d.wav lokey=%d hikey=%d pitch_keycenter=%d\n"
                          % (folder, k, 36 + 8 * k, 43 + 8 * k, 40 + 8 * k) for k in range(8))
        write(os.path.join(data, "sfz", "lib%02d" % (i // 100), "inst%04d.sfz" % i), "<control> label_cc1=Tone\n" + regions)
    os.makedirs(os.path.join(data, "soundfonts"), exist_ok=True)
    for i in range(sf2):
        write_sf2(os.path.join(data, "soundfonts", "font%04d.sf2" % i), "font%d" % i,
                  [("s", 44100, [1000] * 500)], [Zone(0, 0, 127, 60, 0.5)])
    for i in range(ds):
        folder = samples_folder(os.path.join(data, "sfz"), i // 100)
        write(os.path.join(data, "sfz", "ds", "preset%04d.dspreset" % i),
              '<DecentSampler><groups><group>' + "".join(
                  '<sample path="%s/s%d.wav" loNote="%d" hiNote="%d" rootNote="%d"/>' % (folder, k, 36 + k, 36 + k, 36 + k)
                  for k in range(8)) + '</group></groups></DecentSampler>\n')
    for i in range(kits):
        kit = os.path.join(data, "hydrogen", "data", "drumkits", "Kit%03d" % i)
        os.makedirs(kit)
        write_wav(os.path.join(kit, "kick.wav"), [500] * 1000)
        write(os.path.join(kit, "drumkit.xml"), "<drumkit_info><name>Kit %d</name><instrumentList><instrument><id>0</id>"
              "<name>Kick</name><layer><filename>kick.wav</filename><min>0</min><max>1</max></layer></instrument>"
              "</instrumentList></drumkit_info>\n" % i)


def list_once(spindle, env):
    begin = time.monotonic()
    run = subprocess.run([spindle, "--list-libraries", "--json"], env=env, capture_output=True, text=True, check=True)
    return time.monotonic() - begin, json.loads(run.stdout)["entries"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spindle", default=os.path.join(ROOT, "build", "ci", "src", "app", "spindle"))
    parser.add_argument("--count", type=int, default=2000)
    args = parser.parse_args()
    base = tempfile.mkdtemp(prefix="spindle-bench-library-")
    try:
        home = os.path.join(base, "home")
        data = os.path.join(home, ".local", "share")
        generate(data, args.count)
        env = dict(os.environ, HOME=home, XDG_DATA_HOME=data, XDG_DATA_DIRS=os.path.join(base, "none"),
                   XDG_CACHE_HOME=os.path.join(base, "cache"), XDG_CONFIG_HOME=os.path.join(base, "config"))
        cold, entries = list_once(args.spindle, env)
        ours = [e for e in entries if e["path"].startswith(base)]
        warm, again = list_once(args.spindle, env)
        errors = sum(1 for e in ours if e["error"])
        print("instruments: %d generated, %d listed (%d with errors), %d in all" % (args.count, len(ours), errors, len(entries)))
        print("cold (no index cache): %.2f s" % cold)
        print("warm (cache, nothing changed): %.2f s" % warm)
        if len(ours) != args.count or len(again) != len(entries):
            sys.exit("the listing is incomplete")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
