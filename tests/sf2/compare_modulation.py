"""The modulation section of tests/sf2/fluidsynth_compare.py: the vibrato LFO, the
modulation LFO on volume (tremolo) and the modulation envelope on pitch, on the
envelope section's 1 kHz sine. Reported side by side, not checked: the issue sets no
tolerance for them.
"""
import math
import os

import compare_checks
import compare_midi
import compare_signal
from sf2_writer import Zone, write_sf2

GEN_VIB_LFO_TO_PITCH, GEN_MOD_ENV_TO_PITCH = 6, 7
GEN_MOD_LFO_TO_VOLUME, GEN_DELAY_MOD_LFO, GEN_FREQ_MOD_LFO, GEN_DELAY_VIB_LFO, GEN_FREQ_VIB_LFO = 13, 21, 22, 23, 24
GEN_ATTACK_MOD_ENV, GEN_HOLD_MOD_ENV, GEN_DECAY_MOD_ENV, GEN_SUSTAIN_MOD_ENV = 26, 27, 28, 29
RATE = compare_checks.ENVELOPE_RATE
HELD_S = 1.5
ENV_TIMES = [0.05, 0.1, 0.2, 0.3, 0.5, 1.0]  # where the modulation envelope's pitch is read


def _timecents(seconds):
    return int(round(1200 * math.log2(seconds)))


def _abs_cents(hz):
    return int(round(1200 * math.log2(hz / 8.176)))


# name, key, generators
ZONES = [("vibrato 5 Hz, 50 cents, 200 ms delay", 48,
          [(GEN_FREQ_VIB_LFO, _abs_cents(5.0)), (GEN_VIB_LFO_TO_PITCH, 50), (GEN_DELAY_VIB_LFO, _timecents(0.2))]),
         ("tremolo 4 Hz, 60 cB", 50,
          [(GEN_FREQ_MOD_LFO, _abs_cents(4.0)), (GEN_MOD_LFO_TO_VOLUME, 60), (GEN_DELAY_MOD_LFO, -12000)]),
         ("mod env to pitch 1200 cents", 52,
          [(GEN_MOD_ENV_TO_PITCH, 1200), (GEN_ATTACK_MOD_ENV, _timecents(0.1)), (GEN_HOLD_MOD_ENV, -12000),
           (GEN_DECAY_MOD_ENV, _timecents(0.4)), (GEN_SUSTAIN_MOD_ENV, 500)])]


def _write_font(path):
    frames = [int(round(16000 * math.sin(2 * math.pi * compare_checks.SINE_HZ * i / RATE))) for i in range(RATE)]
    zones = [Zone(0, key, key, key, 0.1, loop=True, generators=generators) for _, key, generators in ZONES]
    write_sf2(path, "modulation", [("sine1k", RATE, frames)], zones)


def _cents_at(track, t):
    return min(track, key=lambda point: abs(point[0] - t))[1]


def _departure(track, cents):
    """The first time the track leaves its first 100 ms' median by more than `cents`."""
    early = sorted(c for t, c in track if t < 0.1)
    base = early[len(early) // 2]
    return next((t for t, c in track if abs(c - base) > cents), math.nan)


def modulation(reference, other, fixtures, folder):
    font = os.path.join(folder, "modulation.sf2")
    _write_font(font)
    rows = []
    for index, (name, key, _) in enumerate(ZONES):
        events, end_tick = compare_midi.held_note(0, key, 127, HELD_S, 0.3)
        renders = compare_checks.render_pair(reference, other, font, events, end_tick, folder,
                                             "modulation_%d" % index, RATE)
        if index == 0:
            tracks = [compare_signal.pitch_track(r, 0.5, 1.4) for r in renders]
            found = [compare_signal.oscillation(t) for t in tracks]
            rows.append([name, "rate Hz"] + ["%.3f" % f[0] for f in found])
            rows.append([name, "swing cents (peak to peak)"] + ["%.1f" % f[1] for f in found])
            onsets = [_departure(compare_signal.pitch_track(r, 0.0, 0.5), 5.0) for r in renders]
            rows.append([name, "first 5 cents off, ms"] + ["%.1f" % (t * 1000) for t in onsets])
        elif index == 1:
            found = [compare_signal.oscillation(compare_signal.level_track(r, 0.3, 1.4)) for r in renders]
            rows.append([name, "rate Hz"] + ["%.3f" % f[0] for f in found])
            rows.append([name, "swing dB (peak to peak)"] + ["%.2f" % f[1] for f in found])
        else:
            tracks = [compare_signal.pitch_track(r, 0.0, 1.2) for r in renders]
            for t in ENV_TIMES:
                rows.append([name, "cents at %.0f ms" % (t * 1000)] + ["%.1f" % _cents_at(tr, t) for tr in tracks])
    for row in rows:
        ref, oth = float(row[2]), float(row[3])
        row.append("%+.3g" % (oth - ref))
    title = "modulation (not checked), 1 kHz sine at %d Hz" % RATE
    return compare_checks.table(title, ["measure", "fluidsynth", "other", "difference"], rows), []
