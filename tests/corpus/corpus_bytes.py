"""Small valid files of every format, built byte by byte (no third-party file is copied):
a 16-bit WAV, a Standard MIDI File, a one-preset SoundFont, and the texts of an SFZ, a
DecentSampler preset, a Hydrogen kit and a multisample mapping. make_corpus.py damages them.
"""
import math
import struct

FRAMES = 1000  # frames of the generated WAV


def chunk(cid, payload, pad=True):
    """A RIFF chunk; an odd payload gets its pad byte unless pad is False."""
    tail = b"\0" if pad and len(payload) % 2 else b""
    return cid + struct.pack("<I", len(payload)) + payload + tail


def riff(form, body):
    return b"RIFF" + struct.pack("<I", len(form) + len(body)) + form + body


def pcm16(frames):
    return b"".join(struct.pack("<h", int(12000 * math.sin(2 * math.pi * 441 * i / 44100))) for i in range(frames))


def wav_fmt(channels=1, rate=44100):
    return chunk(b"fmt ", struct.pack("<HHIIHH", 1, channels, rate, rate * channels * 2, channels * 2, 16))


def wav(frames=FRAMES, extra=b"", data_size=None):
    """Mono 16-bit 44.1 kHz; `extra` chunks before data; data_size overrides the declared size."""
    data = pcm16(frames)
    declared = len(data) if data_size is None else data_size
    return riff(b"WAVE", wav_fmt() + extra + b"data" + struct.pack("<I", declared) + data)


def vlq(value):
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append(0x80 | (value & 0x7F))
        value >>= 7
    return bytes(reversed(out))


def midi_track(events):
    """events: (delta ticks, bytes); an end-of-track meta event is appended."""
    body = b"".join(vlq(d) + e for d, e in events) + b"\x00\xff\x2f\x00"
    return b"MTrk" + struct.pack(">I", len(body)) + body


def midi_file(tracks, division=480):
    return b"MThd" + struct.pack(">IHHH", 6, 1 if len(tracks) > 1 else 0, len(tracks), division) + b"".join(tracks)


def midi_song():
    """Three notes, the second and third under running status: 6 channel events."""
    return midi_file([midi_track([(0, b"\x90\x3c\x64"), (240, b"\x3e\x64"), (240, b"\x3c\x00"),
                                  (0, b"\x40\x64"), (480, b"\x80\x3e\x00"), (0, b"\x80\x40\x00")])])


def sf2_pdta(frames, presets=None):
    """The hydra of one preset -> one instrument -> one sample; `presets` overrides the
    phdr chunk's declared size in records."""
    phdr = struct.pack("<20sHHHIII", b"Corpus", 0, 0, 0, 0, 0, 0) + struct.pack("<20sHHHIII", b"EOP", 0, 0, 1, 0, 0, 0)
    shdr = struct.pack("<20sIIIIIBbHH", b"Sine", 0, frames, 8, frames - 8, 44100, 60, 0, 0, 1) + bytes(46)
    parts = [(b"pbag", struct.pack("<HHHH", 0, 0, 1, 0)), (b"pmod", bytes(10)),
             (b"pgen", struct.pack("<HHHH", 41, 0, 0, 0)),
             (b"inst", struct.pack("<20sH", b"Inst", 0) + struct.pack("<20sH", b"EOI", 1)),
             (b"ibag", struct.pack("<HHHH", 0, 0, 1, 0)), (b"imod", bytes(10)),
             (b"igen", struct.pack("<HHHH", 53, 0, 0, 0)), (b"shdr", shdr)]
    head = chunk(b"phdr", phdr)
    if presets is not None:
        head = b"phdr" + struct.pack("<I", 38 * presets) + phdr
    return b"pdta" + head + b"".join(chunk(c, p) for c, p in parts)


def sf2_info(name=b"Corpus\0\0"):
    return b"INFO" + chunk(b"ifil", struct.pack("<HH", 2, 1)) + chunk(b"isng", b"EMU8000\0") + chunk(b"INAM", name)


def sf2(frames=FRAMES, presets=None, info=None, pdta_size=None):
    """A SoundFont of one preset playing one looped sine sample (46 zero frames after it)."""
    pdta = sf2_pdta(frames, presets)
    pdta_list = chunk(b"LIST", pdta) if pdta_size is None else b"LIST" + struct.pack("<I", pdta_size) + pdta
    sdta = chunk(b"LIST", b"sdta" + chunk(b"smpl", pcm16(frames) + bytes(92)))
    return riff(b"sfbk", chunk(b"LIST", info or sf2_info()) + sdta + pdta_list)


SFZ = "<control> default_path=samples/\n<group> ampeg_release=0.2\n<region> sample=sine.wav key=60\n" \
      "<region> sample=sine.wav key=62 pitch_keycenter=60\n"
DSPRESET = """<?xml version="1.0" encoding="UTF-8"?>
<DecentSampler>
  <groups>
    <group>
      <sample path="sine.wav" rootNote="60" loNote="0" hiNote="63"/>
      <sample path="sine.wav" rootNote="64" loNote="64" hiNote="127"/>
    </group>
  </groups>
</DecentSampler>
"""
DRUMKIT = """<?xml version="1.0" encoding="UTF-8"?>
<drumkit_info>
  <name>Corpus</name>
  <instrumentList>
    <instrument><id>0</id><name>Kick</name><filename>sine.wav</filename></instrument>
    <instrument><id>1</id><name>Snare</name><filename>sine.wav</filename></instrument>
  </instrumentList>
</drumkit_info>
"""
MULTISAMPLE = """<multisample name="Corpus">
  <sample file="sine.wav"><key low="0" high="59" root="48"/></sample>
  <sample file="sine.wav"><key low="60" high="127" root="72"/></sample>
</multisample>
"""
