"""The MIDI files of tests/sf2/fluidsynth_compare.py: a General MIDI song, the same
song one channel at a time, and single held notes.

Every file is format 0 at 480 ticks a beat and 120 bpm (960 ticks a second) and sends
no CC91/CC93 (reverb and chorus sends), so the renderers' effects play no part.
"""
import struct

from common import vlq as _vlq  # bench/common.py (fluidsynth_compare.py puts bench/ on the path)

TICKS_PER_BEAT = 480
TICKS_PER_SECOND = 960
BAR = 4 * TICKS_PER_BEAT  # 2 s

# (channel, program, name): eight melodic programs on eight channels, drums on channel 10.
PARTS = [(0, 0, "piano"), (1, 48, "strings"), (2, 33, "bass"), (3, 19, "organ"), (4, 61, "brass"),
         (5, 73, "flute"), (6, 24, "guitar"), (7, 89, "pad"), (9, 0, "drums")]
DRUM_CHANNEL = 9

# C, Am, F, G as (bass root, chord keys) from middle C up.
PROGRESSION = [(36, (60, 64, 67)), (33, (57, 60, 64)), (29, (53, 57, 60)), (31, (55, 59, 62))]
MELODY = [72, 74, 76, 79, 77, 76, 74, 72, 69, 71, 72, 74, 76, 74, 72, 71]


def write_midi(path, events, end_tick):
    """events: (tick, bytes); note-offs (0x8n) sort before other events at the same tick."""
    events = sorted(events, key=lambda e: (e[0], 0 if e[1][0] & 0xF0 == 0x80 else 1))
    track, last = bytearray(b"\x00\xff\x51\x03" + (500000).to_bytes(3, "big")), 0  # 120 bpm
    for tick, data in events:
        track += _vlq(tick - last) + data
        last = tick
    track += _vlq(max(0, end_tick - last)) + b"\xff\x2f\x00"
    with open(path, "wb") as out:
        out.write(b"MThd" + struct.pack(">IHHH", 6, 0, 1, TICKS_PER_BEAT))
        out.write(b"MTrk" + struct.pack(">I", len(track)) + track)


def _note(events, channel, tick, length, key, velocity):
    events.append((tick, bytes([0x90 | channel, key, velocity])))
    events.append((tick + length, bytes([0x80 | channel, key, 64])))


def _velocity(i, low=60, span=60):
    """A fixed, varied velocity: low..low+span-1, stepping by a number prime to span."""
    return low + (i * 37) % span


def _setup(channel, program, bank=0):
    """Bank select (CC0, CC32) then the program change, all at tick 0."""
    return [(0, bytes([0xB0 | channel, 0, bank])), (0, bytes([0xB0 | channel, 32, 0])),
            (0, bytes([0xC0 | channel, program]))]


def _melodic_bar(events, bar, root, chord):
    start, beat = bar * BAR, TICKS_PER_BEAT
    for i, key in enumerate(chord):  # piano: two chords a bar
        for half in (0, 2 * beat):
            _note(events, 0, start + half, 2 * beat - 60, key, _velocity(bar * 7 + i + half))
    if bar % 2 == 0:  # strings: chords held two bars
        for i, key in enumerate(chord):
            _note(events, 1, start, 2 * BAR - 40, key - 12, _velocity(bar + i, 50, 40))
    for step in range(8):  # bass: eighths
        _note(events, 2, start + step * beat // 2, beat // 2 - 30, root + (12 if step % 4 == 3 else 0),
              _velocity(bar * 8 + step))
    if bar % 4 < 2:  # organ: the first two bars of every four
        for key in chord:
            _note(events, 3, start, BAR - 30, key, 80)
    if bar % 4 == 3:  # brass: stabs on beats 1 and 2.5
        for key in chord:
            for tick in (0, beat * 3 // 2):
                _note(events, 4, start + tick, beat // 2, key, _velocity(bar + key, 80, 40))
    for step in range(4):  # flute: a melody in quarters
        _note(events, 5, start + step * beat, beat - 20, MELODY[(bar * 4 + step) % len(MELODY)],
              _velocity(bar * 4 + step, 70, 50))
    for step, key in enumerate(chord + (chord[0] + 12,) + chord[::-1] + (chord[0] - 12,)):  # guitar
        _note(events, 6, start + step * beat // 2, beat, key - 12, _velocity(bar * 8 + step, 50, 60))
    if bar % 4 == 2:  # pad: a long note under two bars
        _note(events, 7, start, 2 * BAR - 100, root + 24, 90)


def _drum_bar(events, bar):
    start, beat = bar * BAR, TICKS_PER_BEAT
    for step in range(8):
        tick = start + step * beat // 2
        if step in (0, 4, 5):
            _note(events, DRUM_CHANNEL, tick, 100, 36, 110)  # kick
        if step in (2, 6):
            _note(events, DRUM_CHANNEL, tick, 100, 38, _velocity(bar + step, 90, 37))  # snare
        hat = 46 if step == 7 and bar % 2 else 42  # open hat on odd bars' last eighth
        _note(events, DRUM_CHANNEL, tick, 100, hat, _velocity(bar * 8 + step, 50, 60))
    if bar % 4 == 0:
        _note(events, DRUM_CHANNEL, start, 200, 49, 100)  # crash


def gm_song(bars=12, tail_seconds=2.5):
    """The song's events and its end tick: bars of 2 s, then a tail for the releases."""
    events = []
    for channel, program, _ in PARTS:
        # The drum channel gets its program change only: GM makes channel 10 percussion
        # (bank 128), and a bank select there means different things to GS and XG.
        events += _setup(channel, program) if channel != DRUM_CHANNEL else [(0, bytes([0xC0 | channel, 0]))]
    for bar in range(bars):
        root, chord = PROGRESSION[bar % len(PROGRESSION)]
        _melodic_bar(events, bar, root, chord)
        _drum_bar(events, bar)
    _note(events, DRUM_CHANNEL, bars * BAR, 200, 49, 100)  # a last crash on the final downbeat
    return events, bars * BAR + int(tail_seconds * TICKS_PER_SECOND)


def solo(events, channel):
    """The events of one channel."""
    return [(tick, data) for tick, data in events if data[0] & 0x0F == channel]


def held_note(program, key, velocity, held_seconds, tail_seconds, channel=0, bank=0):
    """One note from tick 0, held `held_seconds`: (events, end tick)."""
    events = _setup(channel, program, bank)
    _note(events, channel, 0, int(held_seconds * TICKS_PER_SECOND), key, velocity)
    return events, int((held_seconds + tail_seconds) * TICKS_PER_SECOND)
