#!/usr/bin/env python3
"""Compares an export of Ardour's with the render it should equal.

  compare.py EXPORT.wav REFERENCE.wav

Both are 32-bit float stereo WAVs at one rate. The export must be non-silent (peak
above -40 dBFS and RMS above -60 dBFS over its first note's second). The two are
aligned on their first frame above -80 dBFS (Ardour may add latency; the lag must be
under 8192 frames; Ardour's MIDI sometimes plays 16 frames early or late from one export
to the next), the export is cut to the reference's length (spindle-render stops when the
tails die, Ardour's range goes on in silence, which must stay silent; an export that
starts late may end early by as much, where the reference must be silent), and
then, frame by frame:
  - the largest difference must stay under 1e-5 (-100 dBFS). Both renders run the same
    engine with the same events at the same frames, so they differ only where a gain
    is applied at another stage: part 0's level in the plugin, --master-gain in
    spindle-render (float rounding, measured 3e-8);
  - each 10 ms window's RMS must match within 0.05 dB where it is above -60 dBFS
    (a gain Ardour added, or a block in the wrong place, shows here first).
Prints the figures and exits 1 when one is out of bounds.
"""
import math
import struct
import sys
from array import array

MAX_LAG = 8192
MAX_DIFF = 1e-5
MAX_WINDOW_DB = 0.05
WINDOW = 480  # frames: 10 ms at 48 kHz


def read_float_wav(path):
    try:
        data = open(path, "rb").read()
    except OSError as error:
        sys.exit(f"FAILED: cannot read {path}: {error.strerror}")
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        sys.exit(f"compare.py: {path} is not a WAV file")
    at, fmt = 12, None
    while at + 8 <= len(data):
        chunk, size = data[at:at + 4], struct.unpack("<I", data[at + 4:at + 8])[0]
        body = data[at + 8:at + 8 + size]
        if chunk == b"fmt ":
            fmt = struct.unpack("<HHIIHH", body[:16])
        elif chunk == b"data":
            if not fmt or fmt[0] != 3 or fmt[1] != 2 or fmt[5] != 32:
                sys.exit(f"compare.py: {path} is not 32-bit float stereo (fmt {fmt})")
            frames = array("f")
            frames.frombytes(body[:len(body) - len(body) % 8])
            return frames
        at += 8 + size + (size & 1)
    sys.exit(f"compare.py: {path} has no data chunk")


def db(x):
    return 20 * math.log10(x) if x > 0 else -math.inf


def first_sound(frames):
    for i, x in enumerate(frames):
        if abs(x) > 1e-4:
            return i // 2
    return None


def window_rms(frames, start):
    chunk = frames[2 * start:2 * (start + WINDOW)]
    return math.sqrt(sum(x * x for x in chunk) / max(1, len(chunk)))


def main(export_path, reference_path):
    export, reference = read_float_wav(export_path), read_float_wav(reference_path)
    onset_e, onset_r = first_sound(export), first_sound(reference)
    if onset_e is None:
        return fail(f"{export_path} is silent")
    peak = max(abs(x) for x in export)
    note = export[2 * onset_e:2 * (onset_e + 48000)]
    rms = math.sqrt(sum(x * x for x in note) / len(note))
    print(f"export: first sound at frame {onset_e}, peak {db(peak):.1f} dBFS, RMS {db(rms):.1f} dBFS over 1 s")
    if db(peak) < -40 or db(rms) < -60:
        return fail("the export is too quiet")
    lag = onset_e - (onset_r or 0)
    print(f"lag: {lag} frames (export after reference)")
    if onset_r is None or abs(lag) >= MAX_LAG:
        return fail("cannot align the export with the reference")
    frames = len(reference) // 2
    aligned = export[2 * max(lag, 0):]
    if lag < 0:
        aligned = array("f", [0.0] * (-2 * lag)) + export
    if len(aligned) < len(reference):
        # An export Ardour started late ends as many frames early: what it cut off must be
        # the reference's silence.
        short = frames - len(aligned) // 2
        cut = max((abs(x) for x in reference[len(aligned):]), default=0.0)
        if short > abs(lag) or cut > MAX_DIFF:
            return fail(f"the export ends {short} frames before the reference (peak {cut:.3g} there)")
        reference = reference[:len(aligned)]
        frames = len(reference) // 2
    tail = max((abs(x) for x in aligned[len(reference):]), default=0.0)
    diff = max(abs(a - b) for a, b in zip(aligned, reference))
    worst, worst_at = 0.0, 0
    for start in range(0, frames - WINDOW + 1, WINDOW):
        ref = window_rms(reference, start)
        if db(ref) < -60:
            continue
        delta = abs(db(window_rms(aligned, start)) - db(ref))
        if delta > worst:
            worst, worst_at = delta, start
    print(f"largest difference {diff:.3g} ({db(diff):.1f} dBFS) over {frames} frames; "
          f"10 ms levels within {worst:.4f} dB (worst at frame {worst_at}); after the reference's end, peak {tail:.3g}")
    if diff > MAX_DIFF or worst > MAX_WINDOW_DB or tail > MAX_DIFF:
        return fail("the export differs from the reference")
    return 0


def fail(message):
    print(f"FAILED: {message}")
    return 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
