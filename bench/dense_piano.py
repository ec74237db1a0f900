#!/usr/bin/env python3
"""The dense piano render, side by side in one run: spindle-render streamed
(the decoded-block cache), spindle-render with every sample in RAM, fluidsynth -F and
sfizz_render on the same notes.

    bench/dense_piano.py [--build DIR] [--runs 3] [--keep DIR] [--wav] [--sfizz PATH]

bench/run runs it as item 6 (--quick: 12 roots, a 5 s song, one run).

The piano is generated (bench/DensePiano.h via spindle-bench-piano): 240 regions over
240 stereo 16-bit FLAC files of 1.5-15 s at 44.1 kHz (62.5 M frames), 4 velocity
layers; the song is 45 s of held 64-note chords, repeated notes and pedalled glissandi
(3,396 notes; 256 voices saturate and steal). fluidsynth gets the same frames as an SF2
(each stereo file as a linked left/right pair), reverb and chorus off, 4-point
interpolation, and synth.polyphony=512: FluidSynth counts mono voices, so each stereo
note is two of them, and 512 is what plays the same notes as Spindle's 256 voices (at
256 it holds at most 128 notes and steals the rest early, so it did less work: one run
took 4.38 s at 256 and 6.28 s at 512); Spindle runs Hermite (--quality 1), sfizz_render -q 2 (its
Hermite-like polynomial). CPU is user+sys of the whole process (loading included),
RSS the peak resident size; each tool runs --runs times, in rounds (one run of each
tool per round), and the median is shown.
The effects rows play the same notes with the shared reverb and chorus on every part:
the song with CC91 = CC93 = 127 on all 16 channels at its start (fx_song.mid), through
the SF2 (SoundFont regions send to the reverb and chorus with CC91/CC93), rendered by
spindle-render with its reverb and chorus on (FluidSynth's defaults) and by fluidsynth
-R 1 -C 1; the same SF2 and song with both effects off in spindle-render gives the dry
row they are compared with.
Spindle's "disk streaming:" line gives frames decoded, frames the voices read and
the block cache's hit rate. spindle-render streams with its offline defaults (no
preload, a 64 MiB block cache) and again with a 128 MiB cache (memory traded for less
decoding); both outputs are compared byte for byte with the in-RAM one.

Spindle is built in Release in build/bench unless --build names a build folder that
holds src/app/spindle-render and bench/spindle-bench-piano. sfizz_render is found
through --sfizz or $SPINDLE_SFIZZ_RENDER (default ../shared/reference/sfizz_render);
skipped when absent. Generated files go to a temporary folder (or --keep).
"""
import argparse
import filecmp
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, build_spindle, line_of, measure  # noqa: E402


POLYPHONY = 256  # spindle-render's default: stereo notes; fluidsynth gets twice this (mono voices)
BIG_CACHE_MIB = 128  # the second streamed row: memory traded for less decoding


def interleaved_runs(commands, runs):
    """Runs every command `runs` times, round by round (one run of each per round), and
    gives each its medians: a change in the machine's load (this VM's host varies from
    minute to minute) then reaches every row alike instead of the rows run during it."""
    results = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            results[name].append(measure(command))
    return {name: {"cpu_s": statistics.median(r[0] for r in rs), "wall_s": statistics.median(r[1] for r in rs),
                   "peak_rss_mib": statistics.median(r[2] for r in rs), "stdout": rs[-1][3]}
            for name, rs in results.items()}


def disk_figures(stdout):
    line = line_of(stdout, "disk streaming")
    number = lambda pattern: float(re.search(pattern, line).group(1)) if re.search(pattern, line) else float("nan")
    return {"decoded_m": number(r"([\d.]+) M frames decoded"), "read_m": number(r"([\d.]+) M read by voices"),
            "ratio": number(r"([\d.]+) decoded per frame read"), "hits_pct": number(r"([\d.]+) % hits"),
            "underruns": number(r"(\d+) underruns"), "line": line}


def with_sends(song, fx_song):
    """Writes `song` again with CC91 (reverb) and CC93 (chorus) at 127 on every channel
    at the start of its first track, so every part sends everything to both effects."""
    with open(song, "rb") as f:
        data = bytearray(f.read())
    at = data.index(b"MTrk")
    events = bytearray()
    for channel in range(16):
        events += bytes([0, 0xB0 | channel, 91, 127, 0, 0xB0 | channel, 93, 127])
    length = int.from_bytes(data[at + 4:at + 8], "big") + len(events)
    data[at + 4:at + 8] = length.to_bytes(4, "big")
    data[at + 8:at + 8] = events
    with open(fx_song, "wb") as f:
        f.write(data)


def effects_commands(render, folder, out, song):
    """The SF2 with every part sending to the reverb and chorus: spindle-render with them
    on and off, fluidsynth with them on."""
    fx_song, sf2 = os.path.join(folder, "fx_song.mid"), os.path.join(folder, "piano.sf2")
    with_sends(song, fx_song)
    spindle = lambda name, onoff: [render, "--instrument", sf2, "--midi", fx_song, "--wav", out(name), "--quality",
                                   "1", "--format", "f32", "--reverb", onoff, "--chorus", onoff]
    return {"sf2_dry": spindle("sf2_dry", "off"), "sf2_fx": spindle("sf2_fx", "on"),
            "fluidsynth_fx": ["fluidsynth", "-ni", "-q", "-R", "1", "-C", "1", "-r", "48000", "-O", "float", "-T",
                              "wav", "-f", os.path.join(folder, "interp4.cfg"), "-o",
                              "synth.polyphony=%d" % (2 * POLYPHONY), "-F", out("fluidsynth_fx"), sf2, fx_song]}


def run(build, folder, runs, wav=False, sfizz=None, roots=60, seconds=45.0):
    """Generates the piano and song into `folder` and renders them with every tool."""
    render = os.path.join(build, "src", "app", "spindle-render")
    os.makedirs(folder, exist_ok=True)
    generator = [os.path.join(build, "bench", "spindle-bench-piano"), folder, "--roots", str(roots), "--seconds",
                 str(seconds)] + (["--wav"] if wav else [])
    print(subprocess.run(generator, check=True, capture_output=True, text=True).stdout.strip())
    sfz, song = os.path.join(folder, "piano.sfz"), os.path.join(folder, "song.mid")
    out = lambda name: os.path.join(folder, name + ".wav")
    spindle = lambda wav, extra: [render, "--sfz", sfz, "--midi", song, "--wav", wav, "--quality", "1",
                                  "--format", "f32"] + extra
    with open(os.path.join(folder, "interp4.cfg"), "w") as cfg:
        cfg.write("interp 4\n")
    commands = {"streamed": spindle(out("streamed"), []),
                "big_cache": spindle(out("big_cache"), ["--cache-size", str(BIG_CACHE_MIB)]),
                "ram": spindle(out("ram"), ["--preload-frames", "-1"]),
                # FluidSynth's polyphony counts mono voices: a stereo note takes two (see the docstring).
                "fluidsynth": ["fluidsynth", "-ni", "-q", "-R", "0", "-C", "0", "-r", "48000", "-O", "float", "-T",
                               "wav", "-f", os.path.join(folder, "interp4.cfg"), "-o",
                               "synth.polyphony=%d" % (2 * POLYPHONY), "-F", out("fluidsynth"),
                               os.path.join(folder, "piano.sf2"), song]}
    commands.update(effects_commands(render, folder, out, song))
    sfizz = sfizz or os.environ.get("SPINDLE_SFIZZ_RENDER") or os.path.join(ROOT, "..", "shared", "reference",
                                                                                "sfizz_render")
    if os.path.exists(sfizz):
        commands["sfizz"] = [sfizz, "--sfz", sfz, "--midi", song, "--wav", out("sfizz"), "-s", "48000", "-q", "2",
                             "-p", str(POLYPHONY)]
    rows = interleaved_runs(commands, runs)
    rows["runs"] = runs
    for name in ("streamed", "big_cache"):
        rows[name].update(disk_figures(rows[name]["stdout"]))
    rows["identical"] = all(filecmp.cmp(out(name), out("ram"), shallow=False) for name in ("streamed", "big_cache"))
    rows["fx_heard"] = not filecmp.cmp(out("sf2_fx"), out("sf2_dry"), shallow=False)
    return rows


def markdown(rows):
    runs = rows["runs"]
    ram, fluid = rows["ram"], rows["fluidsynth"]
    s = rows["streamed"]
    lines = ["| render | CPU s | CPU / in RAM | CPU / fluidsynth | peak RSS (MiB) | frames decoded / read by voices |"
             " cache hits | underruns |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    def row(label, r, extra="| | |"):
        lines.append("| %s | %.2f | %.2f | %.2f | %.0f %s" % (label, r["cpu_s"], r["cpu_s"] / ram["cpu_s"],
                                                           r["cpu_s"] / fluid["cpu_s"], r["peak_rss_mib"], extra))
    disk = lambda r: "| %.1f M / %.1f M = %.2f | %.1f %% | %d |" % (r["decoded_m"], r["read_m"], r["ratio"],
                                                                    r["hits_pct"], r["underruns"])
    row("spindle-render, streamed (defaults)", s, disk(s))
    row("spindle-render, streamed, --cache-size %d" % BIG_CACHE_MIB, rows["big_cache"], disk(rows["big_cache"]))
    row("spindle-render --preload-frames -1", ram, "| | | |")
    row("fluidsynth -F (SF2, 4-point, polyphony %d)" % (2 * POLYPHONY), fluid, "| | | |")
    if "sfizz" in rows:
        row("sfizz_render -q 2", rows["sfizz"], "| | | |")
    lines.append("\nstreamed outputs %s the in-RAM output, byte for byte; median of %d runs" % (
        "equal" if rows["identical"] else "DIFFER FROM", runs))
    lines += ["", effects_markdown(rows)]
    return "\n".join(lines)


def effects_markdown(rows):
    """Reverb and chorus on every part: Spindle against FluidSynth, both on the SF2."""
    dry, fx, fluid = rows["sf2_dry"], rows["sf2_fx"], rows["fluidsynth_fx"]
    lines = ["| reverb and chorus on every part (SF2, CC91 = CC93 = 127) | CPU s | CPU / fluidsynth | peak RSS (MiB) |",
             "|---|---:|---:|---:|"]
    for label, r in (("spindle-render, effects off", dry), ("spindle-render, reverb and chorus on", fx),
                     ("fluidsynth -F -R 1 -C 1", fluid)):
        lines.append("| %s | %.2f | %.2f | %.0f |" % (label, r["cpu_s"], r["cpu_s"] / fluid["cpu_s"], r["peak_rss_mib"]))
    lines.append("\nCPU ratio with reverb and chorus on, spindle-render / fluidsynth: %.2f; the effects cost "
                 "spindle-render %.2f s (%.0f %% over the dry render)%s" % (
                     fx["cpu_s"] / fluid["cpu_s"], fx["cpu_s"] - dry["cpu_s"],
                     100.0 * (fx["cpu_s"] - dry["cpu_s"]) / dry["cpu_s"],
                     "" if rows["fx_heard"] else "; THE EFFECTS RENDER EQUALS THE DRY ONE"))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", help="a build folder with spindle-render and spindle-bench-piano")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", help="folder for the generated files (default: a temporary one)")
    parser.add_argument("--wav", action="store_true", help="16-bit WAV samples instead of FLAC")
    parser.add_argument("--sfizz", help="sfizz_render binary")
    args = parser.parse_args()
    build = args.build or build_spindle(targets=("spindle-render", "spindle-bench-piano"))
    folder = args.keep or tempfile.mkdtemp(prefix="spindle-dense-piano-")
    rows = run(build, folder, args.runs, args.wav, args.sfizz)
    for name in ("streamed", "big_cache"):
        print(rows[name]["line"])
    print(markdown(rows))
    return 0 if rows["identical"] and rows["fx_heard"] else 1


if __name__ == "__main__":
    sys.exit(main())
