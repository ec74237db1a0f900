#!/usr/bin/env python3
"""The self-test's stand-in for spindle-render: takes spindle-render's arguments and
renders with fluidsynth instead, optionally wrong on purpose, so that
fluidsynth_compare.py --self-test can show its checks pass on equal renders and fail
on unequal ones.

    fluidsynth_as_spindle.py [--gain-db G] [--rate-factor F] [--room-size R] --instrument FONT.sf2
        --midi SONG.mid --wav OUT.wav [--rate HZ] [--format f32] [--reverb on|off] [--chorus on|off]

--gain-db raises fluidsynth's gain by G dB. --rate-factor renders at F times the rate
and labels the file with the requested rate: every time stretches by F and every
pitch drops by 1200 log2(F) cents. --room-size sets the reverb's room size (FluidSynth's
default 0.2): its tail grows longer and louder.
"""
import argparse
import struct
import subprocess
import sys


def relabel_rate(path, rate):
    """Writes `rate` (and the byte rate to match) into the WAV file's fmt chunk."""
    with open(path, "r+b") as f:
        data = f.read()
        pos = 12
        while pos + 8 <= len(data):
            tag, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
            if tag == b"fmt ":
                block_align = struct.unpack("<H", data[pos + 20:pos + 22])[0]
                f.seek(pos + 12)
                f.write(struct.pack("<II", rate, rate * block_align))
                return
            pos += 8 + size + (size & 1)
    sys.exit("%s: no fmt chunk" % path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gain-db", type=float, default=0.0)
    parser.add_argument("--rate-factor", type=float, default=1.0)
    parser.add_argument("--room-size", type=float, default=0.2)
    parser.add_argument("--instrument", required=True)
    parser.add_argument("--midi", required=True)
    parser.add_argument("--wav", required=True)
    parser.add_argument("--rate", type=int, default=48000)
    parser.add_argument("--format", default="f32", choices=["f32"])
    parser.add_argument("--reverb", default="on", choices=["on", "off"])
    parser.add_argument("--chorus", default="on", choices=["on", "off"])
    args = parser.parse_args()
    gain = 10 ** (args.gain_db / 20)
    command = ["fluidsynth", "-ni", "-q", "-R", str(int(args.reverb == "on")), "-C", str(int(args.chorus == "on")),
               "-o", "synth.reverb.room-size=%g" % args.room_size, "-g", "%.6f" % gain,
               "-r", "%.6f" % (args.rate * args.rate_factor), "-O", "float", "-T", "wav", "-F", args.wav,
               args.instrument, args.midi]
    result = subprocess.run(command, stdout=subprocess.DEVNULL)
    if result.returncode != 0:
        sys.exit(result.returncode)
    if args.rate_factor != 1.0:
        relabel_rate(args.wav, args.rate)


if __name__ == "__main__":
    main()
