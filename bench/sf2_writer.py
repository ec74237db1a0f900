"""A minimal SoundFont 2.01 writer: one preset, one instrument, mono 16-bit samples.

Written for bench/render_vs_fluidsynth.py and bench/per_voice.py, and for the
envelope and pitch fonts of tests/sf2/fluidsynth_compare.py. A sample's loop
points are its first and last frames (used only by zones with loop=True). The file layout follows the SoundFont 2.01
specification: RIFF 'sfbk' holding LIST INFO, LIST sdta (smpl) and LIST pdta with the
nine "hydra" sub-chunks, each ending with its terminal record.
"""
import math
import struct

GEN_RELEASE_VOL_ENV = 38
GEN_INSTRUMENT = 41
GEN_KEY_RANGE = 43
GEN_SAMPLE_ID = 53
GEN_SAMPLE_MODES = 54
GEN_OVERRIDING_ROOT_KEY = 58

SAMPLE_TAIL_FRAMES = 46  # zero frames the spec requires after every sample


def _chunk(tag, payload):
    pad = b"\0" if len(payload) % 2 else b""
    return tag + struct.pack("<I", len(payload)) + payload + pad


def _list(kind, chunks):
    return _chunk(b"LIST", kind + b"".join(chunks))


def _name(text):
    return text.encode("ascii")[:19].ljust(20, b"\0")


def _zstr(text):
    """An INFO string: zero-terminated and zero-padded to an even size, as the spec asks
    (a reader that skips the odd size's RIFF pad byte, as fluidsynth 2.3 does not, would
    otherwise read every later chunk one byte off)."""
    data = text.encode("ascii") + b"\0"
    return data + b"\0" * (len(data) % 2)


def _gen(oper, amount):
    return struct.pack("<Hh", oper, amount)


def _key_range(lo, hi):
    return struct.pack("<HBB", GEN_KEY_RANGE, lo, hi)


def _seconds_to_timecents(seconds):
    return int(round(1200 * math.log2(seconds)))


class Zone:
    """One instrument zone: a sample played over lokey..hikey, rooted at root_key.
    `generators` are further (operator, amount) pairs, written after releaseVolEnv;
    release_seconds=None leaves releaseVolEnv out (for a zone that sets it there)."""

    def __init__(self, sample_index, lokey, hikey, root_key, release_seconds, loop=False, generators=()):
        self.sample_index = sample_index
        self.lokey, self.hikey, self.root_key = lokey, hikey, root_key
        self.release_seconds = release_seconds
        self.loop = loop  # loop the whole sample while the key is held
        self.generators = list(generators)


def _sdta(samples):
    """samples: list of (name, rate, list of int16 frames). Returns (chunk, shdr records)."""
    data = bytearray()
    headers = []
    for name, rate, frames in samples:
        start = len(data) // 2
        data += struct.pack("<%dh" % len(frames), *frames)
        end = len(data) // 2
        data += b"\0\0" * SAMPLE_TAIL_FRAMES
        headers.append(_name(name) + struct.pack("<IIIIIBbHH", start, end, start, end, rate, 60, 0, 0, 1))
    headers.append(_name("EOS") + struct.pack("<IIIIIBbHH", 0, 0, 0, 0, 0, 0, 0, 0, 0))
    return _list(b"sdta", [_chunk(b"smpl", bytes(data))]), headers


def _instrument_chunks(zones):
    ibag, igen = [], []
    for zone in zones:
        ibag.append(struct.pack("<HH", len(igen), 0))
        # keyRange first and sampleID last, as the spec orders them.
        igen += [_key_range(zone.lokey, zone.hikey), _gen(GEN_OVERRIDING_ROOT_KEY, zone.root_key)]
        if zone.release_seconds is not None:
            igen.append(_gen(GEN_RELEASE_VOL_ENV, _seconds_to_timecents(zone.release_seconds)))
        igen += [_gen(oper, amount) for oper, amount in zone.generators]
        igen += [_gen(GEN_SAMPLE_MODES, 1 if zone.loop else 0), _gen(GEN_SAMPLE_ID, zone.sample_index)]
    ibag.append(struct.pack("<HH", len(igen), 0))
    igen.append(_gen(0, 0))
    inst = [_name("bench") + struct.pack("<H", 0), _name("EOI") + struct.pack("<H", len(zones))]
    return inst, ibag, igen


def _preset_chunks(name):
    phdr = [_name(name) + struct.pack("<HHHIII", 0, 0, 0, 0, 0, 0),
            _name("EOP") + struct.pack("<HHHIII", 0, 0, 1, 0, 0, 0)]
    pbag = [struct.pack("<HH", 0, 0), struct.pack("<HH", 1, 0)]
    pgen = [_gen(GEN_INSTRUMENT, 0), _gen(0, 0)]
    return phdr, pbag, pgen


def write_sf2(path, name, samples, zones):
    """samples: [(name, rate, int16 frames)], zones: [Zone]. Writes preset 0, bank 0."""
    sdta, shdr = _sdta(samples)
    inst, ibag, igen = _instrument_chunks(zones)
    phdr, pbag, pgen = _preset_chunks(name)
    terminal_mod = [b"\0" * 10]
    pdta = _list(b"pdta", [
        _chunk(b"phdr", b"".join(phdr)), _chunk(b"pbag", b"".join(pbag)),
        _chunk(b"pmod", b"".join(terminal_mod)), _chunk(b"pgen", b"".join(pgen)),
        _chunk(b"inst", b"".join(inst)), _chunk(b"ibag", b"".join(ibag)),
        _chunk(b"imod", b"".join(terminal_mod)), _chunk(b"igen", b"".join(igen)),
        _chunk(b"shdr", b"".join(shdr)),
    ])
    info = _list(b"INFO", [_chunk(b"ifil", struct.pack("<HH", 2, 1)),
                           _chunk(b"isng", b"EMU8000\0"),
                           _chunk(b"INAM", _zstr(name))])
    with open(path, "wb") as out:
        out.write(_chunk(b"RIFF", b"sfbk" + info + sdta + pdta))
