// Standard MIDI File parsing on byte arrays built here.
#include "catch.h"
#include "io/MidiFile.h"
#include "io/SmfBuilder.h"

namespace midi_file_tests {

using spindle::io::MidiFileError;
using spindle::io::MidiSong;
using spindle::io::parseMidiFile;
using spindle::io::TimedMidiEvent;
using spindle::test::buildSmf;
using spindle::test::TrackBuilder;

namespace {

MidiSong parse(const std::vector<uint8_t>& bytes) { return parseMidiFile(bytes.data(), bytes.size(), "test.mid"); }

// The offset a MidiFileError reports, or SIZE_MAX when parsing succeeded.
std::size_t errorOffset(const std::vector<uint8_t>& bytes, std::string* message = nullptr) {
  try {
    parse(bytes);
  } catch (const MidiFileError& e) {
    if (message) *message = e.what();
    return e.offset();
  }
  return SIZE_MAX;
}

bool same(const TimedMidiEvent& e, double seconds, uint8_t status, uint8_t d1, uint8_t d2) {
  return e.seconds == seconds && e.status == status && e.data1 == d1 && e.data2 == d2;
}

}  // namespace

TEST_CASE("format 0 with running status, at the default tempo of 120 bpm") {
  TrackBuilder track;
  track.event(0, {0x90, 60, 100})
      .event(240, {62, 90})        // running status: another note-on
      .event(240, {60, 0})         // note-on velocity 0 = note-off, kept as it is
      .event(0, {0xC0, 5})         // program change: one data byte
      .event(480, {7})             // running status with one data byte
      .end(960);
  const MidiSong song = parse(buildSmf(0, 480, {track}));
  CHECK(song.format == 0);
  CHECK(song.tracks == 1);
  REQUIRE(song.events.size() == 5);
  CHECK(same(song.events[0], 0.0, 0x90, 60, 100));
  CHECK(same(song.events[1], 0.25, 0x90, 62, 90));
  CHECK(same(song.events[2], 0.5, 0x90, 60, 0));
  CHECK(same(song.events[3], 0.5, 0xC0, 5, 0));
  CHECK(same(song.events[4], 1.0, 0xC0, 7, 0));
  CHECK(song.lengthSeconds == 2.0);
  CHECK(song.warnings.empty());
}

TEST_CASE("format 1: a tempo change in track 0 mid-song gives exact event times") {
  TrackBuilder tempoTrack;
  tempoTrack.tempo(0, 500000).tempo(960, 250000).tempo(960, 1000000).end();
  TrackBuilder notes;
  notes.event(480, {0x91, 64, 100})   // tick 480: 0.5 s
      .event(480, {0x81, 64, 0})      // tick 960: 1.0 s, the tempo doubles here
      .event(480, {0x91, 65, 100})    // tick 1440: 1.0 + 480 * 0.25 / 480 = 1.25 s
      .event(480, {0x81, 65, 0})      // tick 1920: 1.5 s, then 1 s per quarter
      .event(240, {0xB1, 64, 127})    // tick 2160: 1.5 + 0.5 = 2.0 s
      .end();
  const MidiSong song = parse(buildSmf(1, 480, {tempoTrack, notes}));
  CHECK(song.tracks == 2);
  REQUIRE(song.events.size() == 5);
  CHECK(same(song.events[0], 0.5, 0x91, 64, 100));
  CHECK(same(song.events[1], 1.0, 0x81, 64, 0));
  CHECK(same(song.events[2], 1.25, 0x91, 65, 100));
  CHECK(same(song.events[3], 1.5, 0x81, 65, 0));
  CHECK(same(song.events[4], 2.0, 0xB1, 64, 127));
}

TEST_CASE("tracks merge in time order; simultaneous events keep track order") {
  TrackBuilder first, second;
  first.event(100, {0x90, 1, 1}).event(100, {0x90, 3, 1}).end();
  second.event(50, {0x92, 0, 1}).event(50, {0x92, 2, 1}).event(100, {0x92, 4, 1}).end();
  const MidiSong song = parse(buildSmf(1, 100, {first, second}));
  REQUIRE(song.events.size() == 5);
  for (int i = 0; i < 5; ++i) CHECK(song.events[i].data1 == i);
  CHECK(song.events[1].status == 0x90);  // tick 100 in both tracks: track 1 first
  CHECK(song.events[2].status == 0x92);
}

TEST_CASE("sysex, escapes and meta events are skipped, running status survives them") {
  TrackBuilder track;
  track.event(0, {0x90, 60, 100})
      .event(10, {0xF0, 0x05, 0x7E, 0x7F, 0x09, 0x01, 0xF7})
      .event(10, {0xFF, 0x03, 0x04, 'l', 'e', 'a', 'd'})
      .event(10, {0xF7, 0x02, 0xF3, 0x01})
      .event(10, {60, 0})
      .end();
  const MidiSong song = parse(buildSmf(0, 40, {track}));
  REQUIRE(song.events.size() == 2);
  CHECK(same(song.events[1], 0.5, 0x90, 60, 0));
}

TEST_CASE("SMPTE divisions: 25 fps x 40 ticks and 29.97 fps") {
  TrackBuilder track;
  track.tempo(0, 250000).event(1000, {0x90, 60, 1}).end();  // tempo has no effect with SMPTE
  const auto d25 = static_cast<uint16_t>((static_cast<uint8_t>(-25) << 8) | 40);
  CHECK(parse(buildSmf(0, d25, {track})).events.at(0).seconds == Approx(1.0).epsilon(1e-12));
  const auto d2997 = static_cast<uint16_t>((static_cast<uint8_t>(-29) << 8) | 10);
  CHECK(parse(buildSmf(0, d2997, {track})).events.at(0).seconds == Approx(100.0 * 1001.0 / 30000.0));
  const auto bad = static_cast<uint16_t>((static_cast<uint8_t>(-26) << 8) | 10);
  CHECK(errorOffset(buildSmf(0, bad, {track})) == 12);
}

TEST_CASE("malformed files raise errors naming the file and the byte offset") {
  std::string message;
  SECTION("not a MIDI file") {
    const std::vector<uint8_t> riff{'R', 'I', 'F', 'F', 0, 0, 0, 0, 'W', 'A', 'V', 'E', 0, 0};
    CHECK(errorOffset(riff, &message) == 0);
    CHECK(message == "test.mid: byte 0: not a Standard MIDI File (no MThd chunk at the start)");
  }
  SECTION("a track chunk longer than the file") {
    auto bytes = buildSmf(0, 96, {TrackBuilder().event(0, {0x90, 60, 1}).end()});
    bytes.resize(bytes.size() - 2);  // header 14 bytes, track chunk header at 14
    CHECK(errorOffset(bytes, &message) == 14);
    CHECK(message.find("runs past the end of the file") != std::string::npos);
  }
  SECTION("a data byte with no running status") {
    // Track data starts at 22: delta 0 at 22, then data byte 60 at 23.
    CHECK(errorOffset(buildSmf(0, 96, {TrackBuilder().event(0, {60, 1}).end()}), &message) == 23);
    CHECK(message.find("without a running status") != std::string::npos);
  }
  SECTION("a status byte where a data byte belongs") {
    CHECK(errorOffset(buildSmf(0, 96, {TrackBuilder().event(0, {0x90, 60, 0x80}).end()})) == 25);
  }
  SECTION("an event cut off by the end of its track") {
    CHECK(errorOffset(buildSmf(0, 96, {TrackBuilder().event(0, {0x90, 60})})) == 25);
  }
  SECTION("a delta time longer than four bytes") {
    CHECK(errorOffset(buildSmf(0, 96, {TrackBuilder().raw({0x81, 0x81, 0x81, 0x81, 0x01})})) == 22);
  }
  SECTION("a meta event longer than its track") {
    CHECK(errorOffset(buildSmf(0, 96, {TrackBuilder().event(0, {0xFF, 0x01, 0x20, 'x'})})) == 25);
  }
  SECTION("format 2 is rejected") {
    CHECK(errorOffset(buildSmf(2, 96, {TrackBuilder().end()}), &message) == 8);
    CHECK(message.find("format 2") != std::string::npos);
  }
  SECTION("no track at all") {
    CHECK(errorOffset(buildSmf(0, 96, {})) == 14);
  }
}

TEST_CASE("an unreadable path is an error naming the file") {
  try {
    spindle::io::readMidiFile("/nonexistent/song.mid");
    FAIL("no error");
  } catch (const MidiFileError& e) {
    CHECK(std::string(e.what()) == "/nonexistent/song.mid: byte 0: cannot open the file");
  }
}

TEST_CASE("seconds to frames rounds to the nearest frame") {
  CHECK(spindle::io::secondsToFrames(0.5, 48000.0) == 24000);
  CHECK(spindle::io::secondsToFrames(1.25, 44100.0) == 55125);
  CHECK(spindle::io::secondsToFrames(1.0 / 3.0, 48000.0) == 16000);
}

TEST_CASE("a MIDI clock message in an escape (F7 01 F8) becomes an event; other escapes are skipped") {
  TrackBuilder track;
  track.event(0, {0xF7, 0x01, 0xFA})
      .event(20, {0xF7, 0x01, 0xF8})
      .event(20, {0xF7, 0x01, 0xFE})  // active sensing: not the clock's
      .event(20, {0xF7, 0x01, 0xFC})
      .end();
  const MidiSong song = parse(buildSmf(0, 40, {track}));  // 40 ticks a beat at 120 bpm: 1/80 s a tick
  REQUIRE(song.events.size() == 3);
  CHECK(same(song.events[0], 0.0, 0xFA, 0, 0));
  CHECK(same(song.events[1], 0.25, 0xF8, 0, 0));
  CHECK(same(song.events[2], 0.75, 0xFC, 0, 0));
}

}  // namespace midi_file_tests
