#!/usr/bin/env python3
"""The Qtractor session of live_qtractor_clap, and the check of what it played.

  qtractor_session.py write DIR PLUGIN INSTRUMENT
      DIR/song.mid (the notes below) and DIR/song.qtr: a Qtractor session with one MIDI
      track holding a clip of song.mid and, in its plugin list, PLUGIN (spindle.clap)
      with a saved CLAP state naming INSTRUMENT, as Qtractor writes its sessions.
  qtractor_session.py check WAV PERIOD
      the onsets in WAV (a recording of Qtractor's master outputs): one per note, each
      at its frame relative to the first note's. Exit 0 when so; 4 when notes are only
      missing, or off by whole server periods of PERIOD frames (what a break of the
      server's cycles did here on a loaded machine: the notes after an xrun one or two
      periods early); 1 for anything else.

Times: 120 BPM, 960 ticks per beat in the file and the session, so a tick is 25 frames
at 48 kHz, exactly; the notes fall at every offset within the server's 256-frame cycles.
"""
import base64
import struct
import sys
import wave
import zlib

RATE = 48000
TICKS_PER_BEAT = 960
FRAMES_PER_TICK = RATE * 60 // 120 // TICKS_PER_BEAT  # 25
CLIP_START = RATE // 2  # frames: the clip starts half a second into the song
# (tick, key): onsets 0.31 s apart at least, far more than the impulse's 64 frames.
NOTES = [(0, 60), (617, 62), (1301, 64), (1920, 65), (2563, 67), (3207, 69),
         (3841, 71), (4490, 72), (5123, 48), (5777, 84)]
NOTE_TICKS = 96
TOLERANCE = 0  # frames: Qtractor gives each event to the plugin at its frame in the block


def vlq(value):
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.insert(0, 0x80 | (value & 0x7F))
        value >>= 7
    return bytes(out)


def midi_file():
    """A format-0 Standard MIDI File: tempo 120, the notes on channel 1."""
    events = [(tick, 0x90, key, 100) for tick, key in NOTES]
    events += [(tick + NOTE_TICKS, 0x80, key, 0) for tick, key in NOTES]
    events.sort()
    track = bytearray(b"\x00\xff\x51\x03\x07\xa1\x20")  # 500000 us per beat
    now = 0
    for tick, status, key, velocity in events:
        track += vlq(tick - now) + bytes([status, key, velocity])
        now = tick
    track += b"\x00\xff\x2f\x00"
    header = b"MThd" + struct.pack(">IHHH", 6, 0, 1, TICKS_PER_BEAT)
    return header + b"MTrk" + struct.pack(">I", len(track)) + bytes(track)


def clap_state(instrument):
    """The plugin's state as Qtractor keeps it: qCompress (big-endian length, then zlib)
    of the plugin's own state, in base64."""
    state = ("spindle-clap-state 1\nlevel 0\ncontrols" + " -1" * 32 + "\n"
             "instrument " + instrument + "\n").encode()
    return base64.b64encode(struct.pack(">I", len(state)) + zlib.compress(state)).decode()


def session(plugin, instrument):
    length = (NOTES[-1][0] + NOTE_TICKS + TICKS_PER_BEAT) * FRAMES_PER_TICK
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE qtractorSession>
<session version="Qtractor 0.9.31" name="spindle-clap">
 <properties>
  <description/>
  <sample-rate>{RATE}</sample-rate>
  <tempo>120</tempo>
  <ticks-per-beat>{TICKS_PER_BEAT}</ticks-per-beat>
  <beats-per-bar>4</beats-per-bar>
  <beat-divisor>2</beat-divisor>
 </properties>
 <files>
  <audio-list/>
  <midi-list/>
 </files>
 <devices>
  <audio-engine>
   <audio-control><transport-mode>duplex</transport-mode><timebase>false</timebase></audio-control>
   <audio-bus name="Master" mode="duplex">
    <monitor>false</monitor><channels>2</channels><auto-connect>false</auto-connect>
   </audio-bus>
  </audio-engine>
  <midi-engine>
   <midi-bus name="Master" mode="duplex"><monitor>false</monitor></midi-bus>
  </midi-engine>
 </devices>
 <tracks>
  <track name="Spindle" type="midi">
   <properties>
    <input-bus>Master</input-bus>
    <output-bus>Master</output-bus>
    <midi-omni>false</midi-omni>
    <midi-channel>0</midi-channel>
    <midi-drums>false</midi-drums>
   </properties>
   <state>
    <mute>false</mute><solo>false</solo><record>false</record><monitor>false</monitor>
    <gain>1</gain><panning>0</panning>
   </state>
   <clips>
    <clip name="song">
     <properties>
      <name>song</name>
      <start>{CLIP_START}</start>
      <offset>0</offset>
      <length>{length}</length>
      <gain>1</gain>
      <panning>0</panning>
      <mute>false</mute>
     </properties>
     <midi-clip>
      <filename>song.mid</filename>
      <track-channel>0</track-channel>
      <revision>0</revision>
     </midi-clip>
    </clip>
   </clips>
   <plugins>
    <plugin type="CLAP">
     <filename>{plugin}</filename>
     <index>0</index>
     <label>spindle.sampler</label>
     <activated>true</activated>
     <configs><config key="state">{clap_state(instrument)}</config></configs>
    </plugin>
    <audio-output-bus>false</audio-output-bus>
    <audio-output-auto-connect>false</audio-output-auto-connect>
   </plugins>
  </track>
 </tracks>
</session>
"""


def write(directory, plugin, instrument):
    with open(f"{directory}/song.mid", "wb") as out:
        out.write(midi_file())
    with open(f"{directory}/song.qtr", "w", encoding="utf-8") as out:
        out.write(session(plugin, instrument))


def frames(path):
    """The recording's frames, each the largest absolute sample of its channels."""
    with wave.open(path, "rb") as wav:
        width, channels, count = wav.getsampwidth(), wav.getnchannels(), wav.getnframes()
        if wav.getframerate() != RATE:
            raise SystemExit(f"FAILED: {path} is at {wav.getframerate()} Hz, not {RATE}")
        data = wav.readframes(count)
    if width not in (2, 4):
        raise SystemExit(f"FAILED: {path} has {8 * width}-bit samples")
    samples = struct.unpack(f"<{len(data) // width}{'h' if width == 2 else 'i'}", data)
    full = float(1 << (8 * width - 1))
    return [max(abs(s) for s in samples[i:i + channels]) / full
            for i in range(0, len(samples), channels)]


def onsets(levels, threshold=0.1, hold=1000):
    """Each frame whose level rises above threshold after hold frames below it."""
    found, quiet = [], hold
    for frame, level in enumerate(levels):
        if level >= threshold and quiet >= hold:
            found.append(frame)
        quiet = 0 if level >= threshold else quiet + 1
    return found


def check(path, period):
    found = onsets(frames(path))
    expected = [(tick - NOTES[0][0]) * FRAMES_PER_TICK for tick, _ in NOTES]
    print(f"onsets at frames {found}")
    if len(found) != len(NOTES):
        print(f"FAILED: {len(found)} onsets for {len(NOTES)} notes")
        return 4 if len(found) < len(NOTES) else 1
    relative = [frame - found[0] for frame in found]
    errors = [got - want for got, want in zip(relative, expected)]
    print(f"relative to the first: {relative}\nexpected:              {expected}\n"
          f"errors (frames):       {errors}")
    if any(abs(e) > TOLERANCE for e in errors):
        print(f"FAILED: a note more than {TOLERANCE} frames from its frame")
        return 4 if all(e % period == 0 for e in errors) else 1
    print(f"every note at its frame ({len(NOTES)} notes)")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "write":
        write(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], int(sys.argv[3])))
    else:
        sys.exit("usage: qtractor_session.py write DIR PLUGIN INSTRUMENT | check WAV PERIOD")
