"""The effects section of tests/sf2/fluidsynth_compare.py: the GM song of the song
section with CC91 (reverb send) and CC93 (chorus send) set on several channels, both
renderers with reverb and chorus on at their defaults.

Checked, on the stereo sum:
  - the 10 ms RMS envelopes' correlation over the whole render, the tail after the
    last note-off included: >= 0.9;
  - the tail's energy (last note-off to the end of FluidSynth's render): within 3 dB;
  - the tail's decay time T30 (the backward-integrated energy's -5 to -35 dB span,
    doubled): within 20 %.
FluidSynth stops where the MIDI file ends, 5 s after the last note-off; the comparison
stops there too. The song's tail holds the instruments' releases as well as the
reverb's: the reverb alone is measured on a generated font's 20 ms noise burst sent
at CC91=127, whose tail (from 50 ms after the note-off) must have its energy within
3 dB and its T30 within 20 % of FluidSynth's. (The chorus has no tail to measure; its
level is checked against FluidSynth's figures in tests/engine/dsp/ReverbTests.cpp.)
"""
import math
import os

import random

import compare_checks
import compare_midi
import compare_signal
from sf2_writer import Zone, write_sf2

MIN_CORRELATION, MAX_TAIL_DB, MAX_T30_RATIO = 0.9, 3.0, 0.2
TAIL_SECONDS = 5.0
# (channel, CC91, CC93): reverb and chorus sends on the melodic parts and the drums.
SENDS = [(0, 100, 40), (1, 90, 110), (2, 40, 0), (3, 70, 70), (4, 60, 30), (5, 127, 64), (6, 50, 90), (7, 110, 127),
         (compare_midi.DRUM_CHANNEL, 64, 0)]


def effects_song():
    """The GM song with the sends set at tick 0: (events, end tick, last note-off in seconds)."""
    events, _ = compare_midi.gm_song(tail_seconds=0.0)
    for channel, reverb, chorus in SENDS:
        events += [(0, bytes([0xB0 | channel, 91, reverb])), (0, bytes([0xB0 | channel, 93, chorus]))]
    last_off = max(tick for tick, data in events if data[0] & 0xF0 == 0x80)
    end = last_off + int(TAIL_SECONDS * compare_midi.TICKS_PER_SECOND)
    return events, end, last_off / compare_midi.TICKS_PER_SECOND


def t30(x, rate):
    """Seconds: twice the span from -5 to -35 dB of the backward-integrated energy."""
    edc, total = [0.0] * (len(x) + 1), 0.0
    for i in range(len(x) - 1, -1, -1):
        total += x[i] * x[i]
        edc[i] = total
    if total <= 0.0:
        return math.nan
    level = [10 * math.log10(e / total) if e > 0 else -math.inf for e in edc]
    first = [next((i for i, v in enumerate(level) if v <= db), None) for db in (-5.0, -35.0)]
    return math.nan if None in first else 2.0 * (first[1] - first[0]) / rate


def burst_row(reference, other, folder):
    """The noise burst through the reverb alone: (row, failures)."""
    font = os.path.join(folder, "burst.sf2")
    noise = random.Random(1)
    frames = [int(noise.uniform(-16000, 16000)) for _ in range(960)] + [0] * 2000
    write_sf2(font, "burst", [("noise", 48000, frames)], [Zone(0, 0, 127, 60, 0.001)])
    events = [(0, bytes([0xB0, 91, 127])), (0, bytes([0xC0, 0])), (480, bytes([0x90, 60, 127])),
              (500, bytes([0x80, 60, 0]))]
    renders = compare_checks.render_pair(reference, other, font, events, 480 * 8, folder, "burst", 48000,
                                         effects=True)
    start = int((500 / compare_midi.TICKS_PER_SECOND + 0.05) * 48000)
    tails = [r.mono[start:len(renders[0].mono)] for r in renders]
    energy = [sum(v * v for v in t) for t in tails]
    tail_db = 10 * math.log10(energy[1] / energy[0]) if min(energy) > 0 else math.nan
    decay = [t30(t, 48000) for t in tails]
    ratio = decay[1] / decay[0] - 1.0
    row = ["noise burst, reverb only (CC91=127)", "", "", "%+.2f" % tail_db, "%.3f / %.3f" % tuple(decay),
           "%+.0f" % (100 * ratio), ""]
    failures = []
    if not abs(tail_db) <= MAX_TAIL_DB:
        failures.append("effects: reverb tail energy %+.2f dB from fluidsynth's" % tail_db)
    if not abs(ratio) <= MAX_T30_RATIO:
        failures.append("effects: reverb tail T30 %.3f s against fluidsynth's %.3f s" % (decay[1], decay[0]))
    return row, failures


def effects(reference, other, fixtures, folder):
    font = os.path.join(fixtures, compare_checks.FONT)
    events, end_tick, last_off = effects_song()
    ref, oth = compare_checks.render_pair(reference, other, font, events, end_tick, folder, "effects",
                                          compare_checks.SONG_RATE, effects=True)
    m = compare_signal.compare_renders(ref, oth)
    rate, start = ref.rate, int(last_off * ref.rate)
    stop = len(ref.mono)
    tails = [r.mono[start:stop] for r in (ref, oth)]
    energy = [sum(v * v for v in t) for t in tails]
    tail_db = 10 * math.log10(energy[1] / energy[0]) if min(energy) > 0 else math.nan
    decay = [t30(t, rate) for t in tails]
    ratio = decay[1] / decay[0] - 1.0 if decay[0] > 0 else math.nan
    failures = []
    if not m["correlation"] >= MIN_CORRELATION:
        failures.append("effects: envelope correlation %.4f < %.2f" % (m["correlation"], MIN_CORRELATION))
    if not abs(tail_db) <= MAX_TAIL_DB:
        failures.append("effects: tail energy %+.2f dB, more than %.0f dB from fluidsynth's" % (tail_db, MAX_TAIL_DB))
    if not abs(ratio) <= MAX_T30_RATIO:
        failures.append("effects: tail T30 %.3f s against fluidsynth's %.3f s (%+.0f %%)" % (decay[1], decay[0],
                                                                                            100 * ratio))
    rows = [["whole song with its tail", "%.4f" % m["correlation"], "%+.2f" % m["level_db"], "%+.2f" % tail_db,
             "%.3f / %.3f" % (decay[0], decay[1]), "%+.0f" % (100 * ratio), "%+.0f" % m["lag_ms"]]]
    burst, burst_failures = burst_row(reference, other, folder)
    rows.append(burst)
    failures += burst_failures
    title = "effects: song with CC91/CC93, reverb and chorus on, TimGM6mb.sf2 at %d Hz" % compare_checks.SONG_RATE
    columns = ["envelope correlation", "level dB", "tail energy dB", "tail T30 s (fluidsynth / other)", "T30 %",
               "lag ms"]
    return compare_checks.table(title, columns, rows), failures
