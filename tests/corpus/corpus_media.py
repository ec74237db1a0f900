"""Audio files (read as a sample is: stream::SamplePool) and Standard MIDI files."""
import random
import struct

from corpus_bytes import FRAMES, chunk, midi_file, midi_song, midi_track, riff, wav, wav_fmt

HEADER = 44  # bytes before the first frame of corpus_bytes.wav()


def junk(size, seed):
    return bytes(random.Random(seed).getrandbits(8) for _ in range(size))


def wav_cases(c):
    good = wav()
    c.case("audio", "audio/ok.wav", good, "frames=%d" % FRAMES)
    c.case("audio", "audio/empty.wav", b"", "error", "Format not recognised")
    c.case("audio", "audio/junk.wav", junk(4096, 1), "error", "Format not recognised")
    c.case("audio", "audio/cut-in-riff-header.wav", good[:10], "error", "Format not recognised")
    c.case("audio", "audio/cut-in-fmt.wav", good[:28], "error",
           "its 'fmt ' chunk at byte 12 declares 16 bytes, past the end of the file")
    c.case("audio", "audio/cut-in-data.wav", good[:HEADER + 2 * 400 + 1], "frames=400")
    c.case("audio", "audio/wrong-magic.wav", b"RIFX" + good[4:], "error", "Malformed 'fmt ' chunk")
    c.case("audio", "audio/not-wave.wav", good[:8] + b"AVI " + good[12:], "error", "Format not recognised")
    c.case("audio", "audio/data-larger-than-file.wav", wav(data_size=0x7FFFFFF0), "frames=%d" % FRAMES)
    odd = chunk(b"junk", b"abc", pad=False)
    c.case("audio", "audio/odd-chunk-no-pad.wav", wav(extra=odd), "frames=%d" % FRAMES)  # read with the pad put back
    c.case("audio", "audio/odd-chunk-padded.wav", wav(extra=chunk(b"junk", b"abc")), "frames=%d" % FRAMES)
    huge_list = b"LIST" + struct.pack("<I", 0x80000000) + b"INFO"
    c.case("audio", "audio/list-of-2gib.wav", wav(extra=huge_list), "error",
           "its 'LIST' chunk at byte 36 declares 2147483648 bytes, past the end of the file")
    no_data = riff(b"WAVE", wav_fmt())
    c.case("audio", "audio/no-data-chunk.wav", no_data, "error", "No 'data' chunk marker")
    zero_channels = riff(b"WAVE", chunk(b"fmt ", struct.pack("<HHIIHH", 1, 0, 44100, 0, 0, 16)) + b"data\0\0\0\0")
    c.case("audio", "audio/zero-channels.wav", zero_channels, "error", "Channel count is zero")


def other_audio_cases(c):
    c.case("audio", "audio/junk.flac", junk(2048, 2), "error", "Format not recognised")
    c.case("audio", "audio/flac-magic-only.flac", b"fLaC" + junk(30, 3), "error", "no readable STREAMINFO block")
    c.case("audio", "audio/junk.ogg", b"OggS" + junk(200, 4), "error", "unimplemented format")
    c.case("audio", "audio/wav-named.flac", wav(), "frames=%d" % FRAMES)


def midi_cases(c):
    song = midi_song()
    c.case("midi", "midi/ok.mid", song, "events=6")
    c.case("midi", "midi/empty.mid", b"", "error", "byte 0: unexpected end of data")
    c.case("midi", "midi/wrong-magic.mid", b"MThx" + song[4:], "error", "MThd")
    c.case("midi", "midi/cut-in-header.mid", song[:9], "error", "byte 9: unexpected end of data")
    c.case("midi", "midi/cut-in-track.mid", song[:30], "error",
           "byte 14: chunk of 28 bytes runs past the end of the file")
    c.case("midi", "midi/running-status-first.mid", midi_file([midi_track([(0, b"\x3c\x64")])]), "error",
           "running status")
    huge = song[:14] + b"MTrk" + struct.pack(">I", 0x7FFFFFFF) + song[22:]
    c.case("midi", "midi/track-of-2gib.mid", huge, "error",
           "byte 14: chunk of 2147483647 bytes runs past the end of the file")
    tracks = song[:10] + struct.pack(">H", 0xFFFF) + song[12:]
    c.case("midi", "midi/65535-tracks-declared.mid", tracks, "events=6,warn",
           "65535-tracks-declared.mid: header declares 65535 tracks, the file holds 1")
    c.case("midi", "midi/junk.mid", junk(512, 5), "error", "byte 0: not a Standard MIDI File")


def cases(c):
    wav_cases(c)
    other_audio_cases(c)
    midi_cases(c)
