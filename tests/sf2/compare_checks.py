"""The three sections of tests/sf2/fluidsynth_compare.py. Each writes its MIDI files
(and SoundFont) into a folder, renders them with the reference (FluidSynth) and the
renderer under test, measures both and returns (a Markdown table, failure lines).
"""
import math
import os
import re
import subprocess

import compare_midi
import compare_signal
from sf2_writer import Zone, write_sf2

FONT = os.path.join("sf2", "TimGM6mb.sf2")
SONG_RATE = 44100
MIN_CORRELATION, MAX_LEVEL_DB = 0.9, 2.0

PITCH_PROGRAM, PITCH_KEY = 19, 69  # Church Organ: a looped, steady tone
PITCH_RATES = [22050, 32000, 37800, 44056, 88200]
PITCH_WINDOW_S = (0.5, 1.5)
MAX_CENTS = 2.0

ENVELOPE_RATE = 48000
SINE_HZ = 1000
HELD_S, TAIL_S = 1.5, 1.2
MAX_STAGE_MS = 5.0
GEN_DELAY, GEN_ATTACK, GEN_HOLD, GEN_DECAY, GEN_SUSTAIN, GEN_RELEASE = 33, 34, 35, 36, 37, 38
STAGES = ["delay", "attack", "hold", "decay", "release"]
# name, key, (delay, attack, hold, decay, release) in seconds, sustain in cB of attenuation
ENVELOPES = [("A", 60, (0.020, 0.050, 0.030, 1.0, 0.25), 120),
             ("B", 72, (0.001, 0.200, 0.001, 0.4, 1.0), 300)]


def fluidsynth_version():
    out = subprocess.run(["fluidsynth", "--version"], stdout=subprocess.PIPE, text=True).stdout
    found = re.search(r"runtime version (\S+)", out)
    return "FluidSynth " + (found.group(1) if found else "(unknown version)")


def estimator_error_cents():
    return compare_signal.self_test_fundamental()


def render_pair(reference, other, font, events, end_tick, folder, name, rate, effects=False):
    """Writes name.mid, renders it with both, reverb and chorus on when `effects` (or as the
    pair (reverb, chorus) says):
    (reference Render, other Render)."""
    song = os.path.join(folder, name + ".mid")
    compare_midi.write_midi(song, events, end_tick)
    wavs = [os.path.join(folder, "%s.%s.wav" % (name, who)) for who in ("fluidsynth", "other")]
    reference.render(font, song, wavs[0], rate, effects)
    other.render(font, song, wavs[1], rate, effects)
    return compare_signal.read_wav(wavs[0]), compare_signal.read_wav(wavs[1])


def table(title, columns, rows):
    lines = ["| %s |" % " | ".join([title] + columns), "|---|" + "---:|" * len(columns)]
    return "\n".join(lines + ["| %s |" % " | ".join(row) for row in rows])


# ---- song ----------------------------------------------------------------------

def song(reference, other, fixtures, folder):
    """The whole song, then each part alone (reported, not checked)."""
    font = os.path.join(fixtures, FONT)
    events, end_tick = compare_midi.gm_song()
    parts = [("song", "whole song", events)]
    for channel, program, name in compare_midi.PARTS:
        label = "%s (%s %d)" % (name, "bank 128 program" if channel == compare_midi.DRUM_CHANNEL else "program",
                                program)
        parts.append(("solo_" + name, label, compare_midi.solo(events, channel)))
    rows, failures = [], []
    for name, label, part in parts:
        ref, oth = render_pair(reference, other, font, part, end_tick, folder, name, SONG_RATE)
        m = compare_signal.compare_renders(ref, oth)
        poor = m["correlation"] < MIN_CORRELATION or not abs(m["level_db"]) <= MAX_LEVEL_DB
        rows.append([label, "%.4f" % m["correlation"], "%+.2f" % m["level_db"],
                     "%.1f" % compare_signal.db(compare_signal.rms(ref.mono)), "%+.0f" % m["lag_ms"],
                     "%.2f / %.2f" % (ref.seconds, oth.seconds), "outside" if poor else ""])
        if name == "song" and m["correlation"] < MIN_CORRELATION:
            failures.append("song: envelope correlation %.4f < %.2f" % (m["correlation"], MIN_CORRELATION))
        if name == "song" and not abs(m["level_db"]) <= MAX_LEVEL_DB:
            failures.append("song: level %+.2f dB, more than %.0f dB from fluidsynth's" % (m["level_db"], MAX_LEVEL_DB))
    outside = [r[0] for r in rows[1:] if r[-1]]
    if failures and outside:
        failures.append("song: parts outside the thresholds alone: " + ", ".join(outside))
    title = "song, TimGM6mb.sf2 at %d Hz" % SONG_RATE
    columns = ["envelope correlation", "level dB", "fluidsynth dBFS", "lag ms", "seconds (fluidsynth / other)",
               "vs 0.9, 2 dB"]
    return table(title, columns, rows), failures


# ---- pitch ---------------------------------------------------------------------

def pitch(reference, other, fixtures, folder):
    font = os.path.join(fixtures, FONT)
    events, end_tick = compare_midi.held_note(PITCH_PROGRAM, PITCH_KEY, 100, 2.0, 0.3)
    rows, failures = [], []
    for rate in PITCH_RATES:
        renders = render_pair(reference, other, font, events, end_tick, folder, "pitch_%d" % rate, rate)
        start, stop = (int(t * rate) for t in PITCH_WINDOW_S)
        freqs = [compare_signal.fundamental(r.mono[start:stop], rate, 440.0 * 2 ** ((PITCH_KEY - 69) / 12))
                 for r in renders]
        diff = compare_signal.cents(freqs[1], freqs[0])
        rows.append(["%d" % rate, "%.3f" % freqs[0], "%.3f" % freqs[1], "%+.3f" % diff])
        if not abs(diff) <= MAX_CENTS:
            failures.append("pitch at %d Hz: %+.2f cents from fluidsynth's (%.3f Hz against %.3f Hz)"
                            % (rate, diff, freqs[1], freqs[0]))
    title = "pitch, program %d key %d, %.1f..%.1f s" % ((PITCH_PROGRAM, PITCH_KEY) + PITCH_WINDOW_S)
    return table(title, ["fluidsynth Hz", "other Hz", "cents"], rows), failures


# ---- envelope ------------------------------------------------------------------

def _timecents(seconds):
    return int(round(1200 * math.log2(seconds)))


def write_envelope_font(path):
    """One looped 1 kHz sine (1 s, 1000 whole cycles at 48 kHz), one zone per envelope,
    on its key, rooted there so every note plays the sine at 1 kHz."""
    frames = [int(round(16000 * math.sin(2 * math.pi * SINE_HZ * i / ENVELOPE_RATE))) for i in range(ENVELOPE_RATE)]
    zones = []
    for _, key, times, sustain_cb in ENVELOPES:
        generators = [(gen, _timecents(t)) for gen, t in zip((GEN_DELAY, GEN_ATTACK, GEN_HOLD, GEN_DECAY), times)]
        generators += [(GEN_SUSTAIN, sustain_cb), (GEN_RELEASE, _timecents(times[4]))]
        zones.append(Zone(0, key, key, key, None, loop=True, generators=generators))
    write_sf2(path, "envelopes", [("sine1k", ENVELOPE_RATE, frames)], zones)


def envelope(reference, other, fixtures, folder):
    font = os.path.join(folder, "envelopes.sf2")
    write_envelope_font(font)
    rows, failures = [], []
    for name, key, times, sustain_cb in ENVELOPES:
        events, end_tick = compare_midi.held_note(0, key, 127, HELD_S, TAIL_S)
        renders = render_pair(reference, other, font, events, end_tick, folder, "envelope_" + name,
                               ENVELOPE_RATE)
        stages = [compare_signal.envelope_stages(r, 0.0, HELD_S) for r in renders]
        for stage, generator_s in zip(STAGES, times):
            ref_ms, oth_ms = stages[0][stage] * 1000, stages[1][stage] * 1000
            rows.append([name, stage, "%.0f" % (generator_s * 1000), "%.1f" % ref_ms, "%.1f" % oth_ms,
                         "%+.1f" % (oth_ms - ref_ms)])
            if not abs(oth_ms - ref_ms) <= MAX_STAGE_MS:
                failures.append("envelope %s %s: %.1f ms against fluidsynth's %.1f ms (%+.1f ms)"
                                % (name, stage, oth_ms, ref_ms, oth_ms - ref_ms))
        rows.append([name, "sustain dB (not checked)", "%.1f" % (-sustain_cb / 10), "%.2f" % stages[0]["sustain_db"],
                     "%.2f" % stages[1]["sustain_db"], "%+.2f" % (stages[1]["sustain_db"] - stages[0]["sustain_db"])])
        rows.append([name, "note-off to release ms (not checked)", "0", "%.1f" % (stages[0]["release_latency"] * 1000),
                     "%.1f" % (stages[1]["release_latency"] * 1000),
                     "%+.1f" % ((stages[1]["release_latency"] - stages[0]["release_latency"]) * 1000)])
    title = "volume envelope, 1 kHz sine at %d Hz" % ENVELOPE_RATE
    return table(title, ["stage", "generator ms", "fluidsynth ms", "other ms", "difference ms"], rows), failures

