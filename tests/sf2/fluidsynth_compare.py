#!/usr/bin/env python3
"""spindle-render's SoundFont playback against FluidSynth's (fluidsynth -F), on the
same MIDI files and the same SoundFonts, reverb and chorus off on both but in the
effects section.

    fluidsynth_compare.py --spindle-render PATH [--fixtures DIR] [--keep DIR]
                          [--only SECTION...]  (song pitch envelope modulation effects sends)
    fluidsynth_compare.py --self-test

song      a General MIDI song (8 programs on 8 channels and the drum channel, 24 s) on
          sf2/TimGM6mb.sf2 under the fixtures ($SPINDLE_FIXTURES): the correlation of the two renders'
          10 ms RMS envelopes (stereo sum, aligned within +-50 ms) must be >= 0.9 and
          the overall RMS level within 2 dB; each part is also rendered alone and
          reported, so a failure names the instrument.
pitch     one held note (Church Organ, key 69) at 5 odd rates: the fundamentals over
          0.5..1.5 s must agree within 2 cents.
envelope  a generated SoundFont of a looped 1 kHz sine whose zones set every
          volume-envelope generator: delay, attack, hold, decay and release times,
          read from a 1 ms peak envelope, must agree within 5 ms.
modulation the vibrato LFO's rate, depth and delay, the modulation LFO's tremolo and
          the modulation envelope's pitch sweep on the same sine, reported side by
          side and not checked (the issue sets no tolerance for them).
effects   the song with CC91 and CC93 on several channels, reverb and chorus on at
          their defaults on both: envelope correlation including the tail >= 0.9, the
          tail's energy within 3 dB and its T30 within 20 % (compare_effects.py).
sends     four channels at once with CC91 = CC93 = 0, 40, 90 and 127 in turn, reverb and
          chorus on, then the chorus alone: the tail's energy relative to the peak within
          1.5 dB and its T60 within 10 % (compare_sends.py).

FluidSynth runs at gain 1.0 (its default is 0.2), so a voice at full level comes out at
the sample's own level, as Spindle's does.
Exit status: 0 every check held, 1 one failed ("FAILED: ..." lines), 77 skipped
(no fluidsynth, or no TimGM6mb.sf2 under the fixtures).

--self-test stands fluidsynth_as_spindle.py in for spindle-render: FluidSynth against
itself must pass, and against itself 3 dB louder, 2% slower, 5 cents sharp, 10% slower or
with a larger reverb room must fail the level, correlation, pitch, envelope and tail checks.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench"))
import compare_checks  # noqa: E402
import compare_effects  # noqa: E402
import compare_modulation  # noqa: E402
import compare_sends  # noqa: E402

FONT = os.path.join("sf2", "TimGM6mb.sf2")
SKIP, FAIL = 77, 1
SECTIONS = {"song": compare_checks.song, "pitch": compare_checks.pitch, "envelope": compare_checks.envelope,
            "modulation": compare_modulation.modulation, "effects": compare_effects.effects,
            "sends": compare_sends.sends}


class Renderer:
    """A command that renders FONT + SONG.mid into a float WAV at a rate."""

    def __init__(self, name, command):
        self.name, self.command = name, command

    def render(self, font, song, wav, rate, effects=False):
        try:
            result = subprocess.run(self.command(font, song, wav, rate, effects), stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True)
        except OSError as error:
            raise RenderError("%s did not start: %s" % (self.name, error))
        if result.returncode != 0 or not os.path.exists(wav):
            raise RenderError("%s exited %d on %s: %s" % (self.name, result.returncode, os.path.basename(song),
                                                           result.stdout.strip()[-400:]))


class RenderError(Exception):
    pass


def reverb_chorus(effects):
    """(reverb on, chorus on) from `effects`: one bool for both, or a pair."""
    return tuple(effects) if isinstance(effects, tuple) else (bool(effects), bool(effects))


def fluidsynth():
    return Renderer("fluidsynth", lambda font, song, wav, rate, effects: [
        "fluidsynth", "-ni", "-q", "-R", str(int(reverb_chorus(effects)[0])), "-C", str(int(reverb_chorus(effects)[1])),
        "-g", "1.0", "-r", str(rate), "-O", "float", "-T", "wav", "-F", wav, font, song])


def spindle(prefix, name="spindle-render"):
    return Renderer(name, lambda font, song, wav, rate, effects: prefix + [
        "--instrument", font, "--midi", song, "--wav", wav, "--rate", str(rate), "--format", "f32",
        "--reverb", "on" if reverb_chorus(effects)[0] else "off", "--chorus", "on" if reverb_chorus(effects)[1] else "off"])


def run(reference, other, fixtures, folder, only):
    """Runs the chosen sections; returns (tables, failures)."""
    sections = only or list(SECTIONS)
    tables, failures = [], []
    for section in sections:
        try:
            table, failed = SECTIONS[section](reference, other, fixtures, folder)
        except RenderError as error:
            table, failed = "", ["%s: %s" % (section, error)]
        tables.append(table)
        failures += failed
    return tables, failures


def report(tables, failures, header):
    print(header)
    for table in tables:
        if table:
            print("\n" + table)
    print()
    for failure in failures:
        print("FAILED: " + failure)
    return FAIL if failures else 0


def self_test(fixtures, folder):
    """FluidSynth against itself, then against three wrong variants of itself."""
    stand_in = [sys.executable, os.path.join(HERE, "fluidsynth_as_spindle.py")]
    tables, failures = run(fluidsynth(), spindle(stand_in, "fluidsynth-as-spindle"), fixtures, folder, None)
    status = report(tables, failures, "self-test: fluidsynth against itself (must pass)")
    variants = [("song", ["--gain-db", "3"], "level"),
                ("song", ["--rate-factor", "1.02"], "correlation"),
                ("pitch", ["--rate-factor", "%.9f" % 2 ** (-5 / 1200)], "cents"),
                ("envelope", ["--rate-factor", "1.1"], "ms"),
                ("effects", ["--room-size", "0.4"], "T30"),
                ("sends", ["--room-size", "0.5"], "sends:")]
    for section, options, expected in variants:
        name = "fluidsynth %s" % " ".join(options)
        _, failed = run(fluidsynth(), spindle(stand_in + options, name), fixtures, folder, [section])
        caught = any(expected in f for f in failed)
        print("self-test: %s on %s: %s" % (name, section, "failed as it must" if caught else "NOT caught"))
        for f in failed:
            print("    " + f)
        if not caught:
            print("FAILED: self-test variant %s passed the %s checks" % (name, section))
            status = FAIL
    return status


def default_fixtures():
    """As tests/gui/screenshot.sh finds them: the environment, then CMake's default."""
    beside_repo = os.path.join(HERE, "..", "..", "..", "shared", "fixtures")
    return os.environ.get("SPINDLE_FIXTURES") or os.environ.get("SPINDLE_FIXTURES_DEFAULT") or beside_repo


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spindle-render", help="the spindle-render binary")
    parser.add_argument("--fixtures", default=default_fixtures(),
                        help="folder holding sf2/TimGM6mb.sf2 (default $SPINDLE_FIXTURES, else the build's "
                             "$SPINDLE_FIXTURES_DEFAULT, else shared/fixtures beside the repository)")
    parser.add_argument("--keep", help="keep the MIDI, SoundFont and WAV files in this folder")
    parser.add_argument("--only", nargs="+", choices=list(SECTIONS), help="these sections alone")
    parser.add_argument("--self-test", action="store_true", help="check the checks, FluidSynth against itself")
    args = parser.parse_args()
    if not args.self_test and not args.spindle_render:
        parser.error("--spindle-render PATH is required (or --self-test)")
    if shutil.which("fluidsynth") is None:
        print("SKIPPED: fluidsynth not found (apt-get install fluidsynth)")
        return SKIP
    needs_font = args.self_test or not args.only or {"song", "pitch", "effects", "sends"} & set(args.only)
    if needs_font and not os.path.isfile(os.path.join(args.fixtures, FONT)):
        # tests/run.sh sets SPINDLE_REQUIRE_FIXTURES=1 when the fixtures are there.
        missing = "no %s in the fixtures" % os.path.join(args.fixtures, FONT)
        if os.environ.get("SPINDLE_REQUIRE_FIXTURES") == "1":
            print("FAILED: SPINDLE_REQUIRE_FIXTURES=1 but " + missing)
            return FAIL
        print("SKIPPED: %s (set SPINDLE_FIXTURES or --fixtures)" % missing)
        return SKIP
    worst = compare_checks.estimator_error_cents()
    if worst > 0.05:
        print("FAILED: the pitch estimator is %.3f cents off on synthetic tones" % worst)
        return FAIL
    folder = args.keep or tempfile.mkdtemp(prefix="spindle-sf2-compare-")
    os.makedirs(folder, exist_ok=True)
    try:
        if args.self_test:
            return self_test(args.fixtures, folder)
        header = "spindle-render (%s) against %s, gain 1.0, reverb and chorus off but in effects" % (
            args.spindle_render, compare_checks.fluidsynth_version())
        tables, failures = run(fluidsynth(), spindle([args.spindle_render]), args.fixtures, folder, args.only)
        return report(tables, failures, header)
    finally:
        if args.keep:
            print("files in %s" % folder)
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
