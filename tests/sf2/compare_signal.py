"""Measurements of tests/sf2/fluidsynth_compare.py, in the standard library only
(no numpy on the test machines): reading WAV files, envelopes, alignment, correlation,
level, a fundamental-frequency estimator and volume-envelope stage times.

Loops run through map/sum over arrays so the C code does the per-frame work: a 25 s
stereo render at 44.1 kHz is measured in about a second.
"""
import array
import math
import operator
import struct
import sys


class Render:
    """A rendered file: its rate and its stereo sum (left + right) as floats."""

    def __init__(self, rate, mono):
        self.rate, self.mono = rate, mono

    @property
    def seconds(self):
        return len(self.mono) / self.rate


def _frames(fmt, bits, payload):
    """The interleaved samples of a data chunk as an array of floats in [-1, 1)."""
    if fmt == 3 and bits in (32, 64):
        samples = array.array("f" if bits == 32 else "d", payload)
    elif fmt == 1 and bits in (16, 32):
        ints = array.array("h" if bits == 16 else "i", payload)
        scale = 1.0 / (1 << (bits - 1))
        samples = array.array("d", (v * scale for v in ints))
    elif fmt == 1 and bits == 24:
        scale = 1.0 / (1 << 23)
        samples = array.array("d", (int.from_bytes(payload[i:i + 3], "little", signed=True) * scale
                                    for i in range(0, len(payload) - 2, 3)))
    else:
        raise ValueError("unsupported WAV format %d with %d bits" % (fmt, bits))
    if sys.byteorder != "little":
        samples.byteswap()
    return samples


def read_wav(path):
    """Reads PCM or IEEE-float WAV (also WAVE_FORMAT_EXTENSIBLE) and sums the channels."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise ValueError("%s: not a WAV file" % path)
    pos, fmt, payload = 12, None, None
    while pos + 8 <= len(data):
        tag, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        body = data[pos + 8:pos + 8 + size]
        if tag == b"fmt ":
            fmt = struct.unpack("<HHIIHH", body[:16])
            if fmt[0] == 0xFFFE:  # extensible: the real format is the sub-format GUID's first two bytes
                fmt = (struct.unpack("<H", body[24:26])[0],) + fmt[1:]
        elif tag == b"data":
            payload = body
        pos += 8 + size + (size & 1)
    if fmt is None or payload is None:
        raise ValueError("%s: no fmt or data chunk" % path)
    code, channels, rate, _, _, bits = fmt
    samples = _frames(code, bits, payload[:len(payload) - len(payload) % (bits // 8)])
    mono = array.array("d", samples[0::channels])
    for c in range(1, channels):
        mono = array.array("d", map(operator.add, mono, samples[c::channels]))
    return Render(rate, mono)


# ---- envelopes, alignment, correlation, level ------------------------------

def rms_envelope(x, window):
    """RMS of each whole window of `window` frames."""
    out = []
    for start in range(0, len(x) - window + 1, window):
        w = x[start:start + window]
        out.append(math.sqrt(sum(map(operator.mul, w, w)) / window))
    return out


def peak_envelope(x, window):
    """max |x| of each whole window."""
    return [max(max(x[s:s + window]), -min(x[s:s + window])) for s in range(0, len(x) - window + 1, window)]


def pearson(a, b):
    n = min(len(a), len(b))
    a, b = a[:n], b[:n]
    ma, mb = sum(a) / n, sum(b) / n
    da, db = [v - ma for v in a], [v - mb for v in b]
    den = math.sqrt(sum(map(operator.mul, da, da)) * sum(map(operator.mul, db, db)))
    return sum(map(operator.mul, da, db)) / den if den > 0 else 0.0


def best_lag(a, b, max_lag):
    """The shift d in -max_lag..max_lag maximising the correlation of a[i] with b[i + d]."""
    def score(d):
        return pearson(a[max(0, -d):], b[max(0, d):])
    return max(range(-max_lag, max_lag + 1), key=score)


def shift(x, frames):
    """x advanced by `frames` (dropping its first frames) or delayed (zeros before it)."""
    return x[frames:] if frames >= 0 else array.array("d", [0.0] * -frames) + x


def rms(x):
    return math.sqrt(sum(map(operator.mul, x, x)) / len(x)) if len(x) else 0.0


def db(ratio):
    return 20 * math.log10(ratio) if ratio > 0 else -math.inf


def compare_renders(reference, other, window_s=0.010, align_s=0.050):
    """Envelope correlation and level of `other` against `reference` (same rate), after
    aligning them by the lag that best correlates their 1 ms RMS envelopes within
    +-align_s: {lag_ms, correlation, level_db}."""
    rate = reference.rate
    ms = max(1, rate // 1000)
    lag = best_lag(rms_envelope(reference.mono, ms), rms_envelope(other.mono, ms), int(align_s * 1000))
    ref, oth = reference.mono, shift(other.mono, lag * ms)
    n = min(len(ref), len(oth))
    window = int(round(window_s * rate))
    correlation = pearson(rms_envelope(ref[:n], window), rms_envelope(oth[:n], window))
    ref_rms, oth_rms = rms(ref[:n]), rms(oth[:n])
    level = db(oth_rms / ref_rms) if ref_rms > 0 and oth_rms > 0 else math.nan
    return {"lag_ms": lag * ms * 1000.0 / rate, "correlation": correlation, "level_db": level}


# ---- pitch -------------------------------------------------------------------

def _lag_correlation(x, lag, length):
    return sum(map(operator.mul, x[:length], x[lag:lag + length]))


def _peak_lag(x, centre, reach, length):
    """The lag near `centre` (integer lags within +-reach) where x correlates best with
    itself, refined by a parabola through the best lag and its two neighbours."""
    lo = max(1, int(round(centre)) - reach)
    values = {lag: _lag_correlation(x, lag, length) for lag in range(lo - 1, int(round(centre)) + reach + 2)}
    best = max(range(lo, int(round(centre)) + reach + 1), key=values.get)
    left, mid, right = values[best - 1], values[best], values[best + 1]
    curve = left - 2 * mid + right
    return best + (0.5 * (left - right) / curve if curve < 0 else 0.0)


def fundamental(x, rate, guess_hz, semitones=1.0):
    """The fundamental of a steady periodic segment x, within +-`semitones` of guess_hz.

    The period is found as the best self-correlation lag near rate/guess_hz, then
    refined at lags of 8, 64, 512... periods: a lag error of a hundredth of a frame at
    K periods is a period error of 1/(100 K) frames, so over half a second of audio the
    estimate is good to a hundredth of a cent (see self_test_fundamental)."""
    period = rate / guess_hz
    spread = period * (2 ** (semitones / 12) - 1)
    length = len(x) // 2
    period = _peak_lag(x, period, int(math.ceil(spread)), length)
    periods = 8
    while periods * period + 4 < len(x) - length:
        period = _peak_lag(x, periods * period, 3, length) / periods
        periods *= 8
    return rate / period


def cents(f, reference):
    return 1200 * math.log2(f / reference)


def self_test_fundamental():
    """The estimator's worst error in cents on synthetic tones with harmonics."""
    worst = 0.0
    for rate, freq in ((22050, 440.0), (37800, 439.17), (44056, 441.3), (88200, 440.5)):
        w = 2 * math.pi * freq / rate
        x = array.array("d", (math.sin(w * i) + 0.5 * math.sin(2 * w * i + 1) + 0.3 * math.sin(3 * w * i + 2)
                              for i in range(rate // 2)))
        worst = max(worst, abs(cents(fundamental(x, rate, 440.0), freq)))
    return worst


# ---- volume-envelope stages ---------------------------------------------------

def _crossing(env_db, start, stop, level, rising, ms):
    """The time (s) of the first window in start..stop where env_db crosses `level`
    (upwards when rising), interpolated linearly in dB between windows; None if never."""
    step = 1 if stop >= start else -1
    for i in range(start, stop, step):
        above = env_db[i] >= level
        if above == rising:
            j = i - step
            if j < 0 or j >= len(env_db) or env_db[i] == env_db[j]:
                return i * ms
            return (j + (level - env_db[j]) / (env_db[i] - env_db[j]) * (i - j)) * ms
    return None


def envelope_stages(render, note_on_s, note_off_s, window_s=0.001):
    """Stage times (s) of one held note's volume envelope, from the peak envelope of its
    stereo sum in `window_s` windows (one cycle of the test's 1 kHz sine at 48 kHz):

        delay   note-on to onset (first reaching 60 dB below the peak)
        attack  onset to first reaching 0.5 dB below the peak
        hold    that to the last time 0.5 dB below the peak, where the decay starts
        decay   that to first reaching 1 dB above the sustain level
        release the last time 0.5 dB below sustain (before the note-off ends it)
                to 40 dB below sustain
    The sustain level is the median of the last 100 ms before the note-off."""
    ms = window_s
    env = peak_envelope(render.mono, int(round(window_s * render.rate)))
    env_db = [db(v) if v > 0 else -200.0 for v in env]
    peak_i = max(range(len(env_db)), key=env_db.__getitem__)
    peak = env_db[peak_i]
    off_i = int(note_off_s / ms)
    held = sorted(env_db[off_i - 100:off_i])
    sustain = held[len(held) // 2]
    onset = _crossing(env_db, 0, peak_i + 1, peak - 60, True, ms)
    attack_end = _crossing(env_db, 0, peak_i + 1, peak - 0.5, True, ms)
    decay_start = _crossing(env_db, off_i, peak_i - 1, peak - 0.5, True, ms)
    decay_end = _crossing(env_db, int(decay_start / ms), off_i, sustain + 1, False, ms)
    release_start = _crossing(env_db, len(env_db) - 1, off_i - 100, sustain - 0.5, True, ms)
    release_end = _crossing(env_db, int(release_start / ms), len(env_db), sustain - 40, False, ms)
    if None in (onset, attack_end, decay_start, decay_end, release_start, release_end):
        raise ValueError("envelope stage not found")
    return {"delay": onset - note_on_s, "attack": attack_end - onset, "hold": decay_start - attack_end,
            "decay": decay_end - decay_start, "release": release_end - release_start,
            "sustain_db": sustain - peak, "release_latency": release_start - note_off_s}


# ---- modulation ----------------------------------------------------------------

def pitch_track(render, start_s, stop_s):
    """(time s, cents re 1 kHz) at each rising zero crossing of a ~1 kHz tone between
    start_s and stop_s, from the period to the next crossing (interpolated linearly)."""
    x, rate = render.mono, render.rate
    crossings = [i - 1 + x[i - 1] / (x[i - 1] - x[i]) for i in range(int(start_s * rate) + 1, int(stop_s * rate))
                 if x[i - 1] < 0 <= x[i]]
    return [(a / rate, 1200 * math.log2(rate / (b - a) / 1000.0)) for a, b in zip(crossings, crossings[1:])]


def oscillation(track):
    """(rate Hz, peak-to-peak) of a (time, value) track oscillating about its mean: the
    rate from its upward mean crossings, the swing from its extremes."""
    values = [v for _, v in track]
    mean = sum(values) / len(values)
    ups = [t0 + (t1 - t0) * (mean - v0) / (v1 - v0) for (t0, v0), (t1, v1) in zip(track, track[1:])
           if v0 < mean <= v1]
    rate = (len(ups) - 1) / (ups[-1] - ups[0]) if len(ups) > 1 else 0.0
    return rate, max(values) - min(values)


def level_track(render, start_s, stop_s, window_s=0.001):
    """(time s, dB) of the peak envelope in `window_s` windows between start_s and stop_s."""
    window = int(round(window_s * render.rate))
    first = int(start_s / window_s)
    env = peak_envelope(render.mono[first * window:int(stop_s * render.rate)], window)
    return [((first + i) * window_s, db(v) if v > 0 else -200.0) for i, v in enumerate(env)]
