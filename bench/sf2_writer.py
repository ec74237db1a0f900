"""A minimal SoundFont 2.01 writer: mono 16-bit samples, one instrument per preset.

Written for bench/render_vs_fluidsynth.py and bench/per_voice.py, for the envelope
and pitch fonts of tests/sf2/fluidsynth_compare.py (write_sf2: one preset, a sample's
loop points its first and last frames, used only by zones with loop=True), and for the
large generated font of bench/sf2_loading.py (write_font: many presets, stated loops,
the sample data streamed to the file so that a font of a gigabyte never sits in memory).
The file layout follows the SoundFont 2.01 specification: RIFF 'sfbk' holding LIST INFO,
LIST sdta (smpl) and LIST pdta with the nine "hydra" sub-chunks, each ending with its
terminal record.
"""
import math
import struct
from dataclasses import dataclass, field

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


@dataclass
class Sample:
    """One mono sample: `pcm` is its int16 little-endian frames; the loop runs from
    loop_start to loop_end, in frames from its first (used by zones with loop=True)."""
    name: str
    rate: int
    pcm: bytes
    loop_start: int
    loop_end: int


@dataclass
class Preset:
    """A preset (bank, program) playing one instrument of its own, made of `zones`."""
    name: str
    program: int
    zones: list = field(default_factory=list)
    bank: int = 0


def _write_sdta(out, samples):
    """Streams LIST sdta (smpl) from `samples` (an iterable of Sample, consumed once) at
    the file's current position, patching the two chunk sizes once the data is written;
    returns the shdr records."""
    list_at = out.tell()
    out.write(b"LIST" + b"\0" * 4 + b"sdta" + b"smpl" + b"\0" * 4)
    headers, frame = [], 0
    for sample in samples:
        out.write(sample.pcm)
        start, end = frame, frame + len(sample.pcm) // 2
        out.write(b"\0\0" * SAMPLE_TAIL_FRAMES)
        frame = end + SAMPLE_TAIL_FRAMES
        headers.append(_name(sample.name) + struct.pack("<IIIIIBbHH", start, end, start + sample.loop_start,
                                                        start + sample.loop_end, sample.rate, 60, 0, 0, 1))
    headers.append(_name("EOS") + struct.pack("<IIIIIBbHH", 0, 0, 0, 0, 0, 0, 0, 0, 0))
    end_at = out.tell()
    out.seek(list_at + 4)
    out.write(struct.pack("<I", 4 + 8 + frame * 2) + b"sdta" + b"smpl" + struct.pack("<I", frame * 2))
    out.seek(end_at)
    return headers


def _instrument_chunks(instruments):
    """instruments: [(name, [Zone])]. Returns the inst, ibag and igen records."""
    inst, ibag, igen = [], [], []
    for name, zones in instruments:
        inst.append(_name(name) + struct.pack("<H", len(ibag)))
        for zone in zones:
            ibag.append(struct.pack("<HH", len(igen), 0))
            # keyRange first and sampleID last, as the spec orders them.
            igen += [_key_range(zone.lokey, zone.hikey), _gen(GEN_OVERRIDING_ROOT_KEY, zone.root_key)]
            if zone.release_seconds is not None:
                igen.append(_gen(GEN_RELEASE_VOL_ENV, _seconds_to_timecents(zone.release_seconds)))
            igen += [_gen(oper, amount) for oper, amount in zone.generators]
            igen += [_gen(GEN_SAMPLE_MODES, 1 if zone.loop else 0), _gen(GEN_SAMPLE_ID, zone.sample_index)]
    inst.append(_name("EOI") + struct.pack("<H", len(ibag)))
    ibag.append(struct.pack("<HH", len(igen), 0))
    igen.append(_gen(0, 0))
    return inst, ibag, igen


def _preset_chunks(presets):
    """Preset i has one bag whose one generator selects instrument i."""
    phdr = [_name(p.name) + struct.pack("<HHHIII", p.program, p.bank, i, 0, 0, 0) for i, p in enumerate(presets)]
    phdr.append(_name("EOP") + struct.pack("<HHHIII", 0, 0, len(presets), 0, 0, 0))
    pbag = [struct.pack("<HH", i, 0) for i in range(len(presets) + 1)]
    pgen = [_gen(GEN_INSTRUMENT, i) for i in range(len(presets))] + [_gen(0, 0)]
    return phdr, pbag, pgen


def write_font(path, name, presets, samples, instrument_names=None):
    """presets: [Preset]; samples: an iterable of Sample, written as they come, which
    the zones name by their index in it."""
    inst, ibag, igen = _instrument_chunks(zip(instrument_names or [p.name for p in presets],
                                              [p.zones for p in presets]))
    phdr, pbag, pgen = _preset_chunks(presets)
    terminal_mod = [b"\0" * 10]
    info = _list(b"INFO", [_chunk(b"ifil", struct.pack("<HH", 2, 1)),
                           _chunk(b"isng", b"EMU8000\0"),
                           _chunk(b"INAM", _zstr(name))])
    with open(path, "wb") as out:
        out.write(b"RIFF" + b"\0" * 4 + b"sfbk" + info)
        shdr = _write_sdta(out, samples)
        out.write(_list(b"pdta", [
            _chunk(b"phdr", b"".join(phdr)), _chunk(b"pbag", b"".join(pbag)),
            _chunk(b"pmod", b"".join(terminal_mod)), _chunk(b"pgen", b"".join(pgen)),
            _chunk(b"inst", b"".join(inst)), _chunk(b"ibag", b"".join(ibag)),
            _chunk(b"imod", b"".join(terminal_mod)), _chunk(b"igen", b"".join(igen)),
            _chunk(b"shdr", b"".join(shdr)),
        ]))
        riff_size = out.tell() - 8
        out.seek(4)
        out.write(struct.pack("<I", riff_size))


def write_sf2(path, name, samples, zones):
    """samples: [(name, rate, int16 frames)], zones: [Zone]. Writes preset 0, bank 0,
    playing the one instrument "bench"; each sample loops over all its frames."""
    pcm = [Sample(n, rate, struct.pack("<%dh" % len(frames), *frames), 0, len(frames)) for n, rate, frames in samples]
    write_font(path, name, [Preset(name, 0, zones)], pcm, instrument_names=["bench"])
