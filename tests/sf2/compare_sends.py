"""The sends section of tests/sf2/fluidsynth_compare.py: the shared reverb and chorus
against FluidSynth's at its defaults, four channels sending at once.

Four channels (piano, strings, choir, flute: programs 0, 48, 52, 73 of the GM font)
play a chord progression together, all with the same CC91 and CC93, at 0, 40, 90 and
127 in turn: first with reverb and chorus on, then with the chorus alone. For each
render, on the stereo sum:
  - the tail's energy over the second after the last note-off, relative to the render's
    own peak: within 1.5 dB of FluidSynth's;
  - the tail's decay time T60 (twice the -5..-35 dB span of the backward-integrated
    energy from the last note-off, compare_effects.t30): within 10 % of FluidSynth's.
The sends at 0 hold the instruments' own releases and no effect: they show where the
two renderers' dry tails stand.
"""
import math

import compare_checks
import compare_midi
from compare_effects import t30

MAX_TAIL_DB, MAX_T60_RATIO = 1.5, 0.10
SEND_VALUES = [0, 40, 90, 127]
PROGRAMS = [(0, 0, "piano"), (1, 48, "strings"), (2, 52, "choir"), (3, 73, "flute")]
# C, Am, F, G, each over three octaves: many partials, so that no one mode of either
# reverb decides the level.
CHORDS = [(48, 55, 60, 64, 67, 72, 76, 79), (45, 52, 57, 60, 64, 69, 72, 76), (41, 48, 53, 57, 60, 65, 69, 72),
          (43, 50, 55, 59, 62, 67, 71, 74)]
CHORD_TICKS, TAIL_TICKS = compare_midi.TICKS_PER_SECOND, 4 * compare_midi.TICKS_PER_SECOND


def song(send):
    """Every channel's program and sends at tick 0, then the chords: (events, end tick,
    last note-off in seconds)."""
    events = []
    for channel, program, _ in PROGRAMS:
        events += [(0, bytes([0xB0 | channel, 0, 0])), (0, bytes([0xC0 | channel, program])),
                   (0, bytes([0xB0 | channel, 91, send])), (0, bytes([0xB0 | channel, 93, send]))]
    start = compare_midi.TICKS_PER_BEAT // 2
    for i, chord in enumerate(CHORDS):
        for channel, _, _ in PROGRAMS:
            for key in chord:
                tick = start + i * CHORD_TICKS
                events += [(tick, bytes([0x90 | channel, key, 96])), (tick + CHORD_TICKS - 48, bytes([0x80 | channel, key, 0]))]
    last_off = start + len(CHORDS) * CHORD_TICKS - 48
    return events, last_off + TAIL_TICKS, last_off / compare_midi.TICKS_PER_SECOND


def measure(render, last_off):
    """(tail energy over the second after last_off relative to the peak in dB, T60 s)."""
    x, rate = render.mono, render.rate
    peak = max(abs(v) for v in x)
    start = int(last_off * rate)
    tail = x[start:start + rate]
    energy = sum(v * v for v in tail) / rate
    return 10 * math.log10(energy / (peak * peak)) if energy > 0 else -math.inf, t30(x[start:], rate)


def sends(reference, other, fixtures, folder):
    font = compare_checks.os.path.join(fixtures, compare_checks.FONT)
    rows, failures = [], []
    for label, chorus_only in (("reverb and chorus", False), ("chorus alone", True)):
        for send in SEND_VALUES:
            events, end, last_off = song(send)
            name = "sends_%s_%d" % ("chorus" if chorus_only else "both", send)
            renders = compare_checks.render_pair(reference, other, font, events, end, folder, name,
                                                 compare_checks.SONG_RATE, effects=(not chorus_only, True))
            (ref_db, ref_t60), (oth_db, oth_t60) = (measure(r, last_off) for r in renders)
            diff, ratio = oth_db - ref_db, oth_t60 / ref_t60 - 1.0
            rows.append(["%s, CC91/CC93 %d" % (label, send), "%.2f" % ref_db, "%.2f" % oth_db, "%+.2f" % diff,
                         "%.3f / %.3f" % (ref_t60, oth_t60), "%+.1f" % (100 * ratio)])
            if not abs(diff) <= MAX_TAIL_DB:
                failures.append("sends: %s at %d: tail %+.2f dB from fluidsynth's" % (label, send, diff))
            if not abs(ratio) <= MAX_T60_RATIO:
                failures.append("sends: %s at %d: T60 %.3f s against fluidsynth's %.3f s" % (label, send, oth_t60,
                                                                                             ref_t60))
    title = "sends: piano, strings, choir, flute at once, TimGM6mb.sf2 at %d Hz" % compare_checks.SONG_RATE
    columns = ["fluidsynth tail dB", "other tail dB", "difference dB", "T60 s (fluidsynth / other)", "T60 %"]
    return compare_checks.table(title, columns, rows), failures
