// The demo MIDI file, read back with a tiny independent Standard MIDI File reader.
#include <cstdint>
#include <fstream>
#include <iterator>

#include "InstrumentFiles.h"
#include "catch.h"

namespace demo_song_tests {

namespace {

using Bytes = std::vector<std::uint8_t>;

struct TrackSummary {
  int noteOns = 0, noteOffs = 0, pedalEvents = 0, minKey = 128, maxKey = -1;
  int softest = 128, hardest = 0;
  std::uint32_t tempo = 0;  // microseconds per quarter note, 0 when absent
  std::uint32_t endTick = 0;
  bool endOfTrack = false;
};

std::uint32_t bigEndian(const Bytes& b, std::size_t at, int count) {
  std::uint32_t value = 0;
  for (int i = 0; i < count; ++i) value = (value << 8) | b.at(at + static_cast<std::size_t>(i));
  return value;
}

std::uint32_t variableLength(const Bytes& b, std::size_t& at) {
  std::uint32_t value = 0;
  for (int i = 0; i < 4; ++i) {
    const std::uint8_t byte = b.at(at++);
    value = (value << 7) | (byte & 0x7fu);
    if (!(byte & 0x80)) return value;
  }
  throw std::runtime_error("variable-length quantity longer than 4 bytes");
}

void channelMessage(TrackSummary& t, std::uint8_t status, std::uint8_t d1, std::uint8_t d2) {
  const int kind = status & 0xf0;
  if (kind == 0x90 && d2 > 0) {
    ++t.noteOns;
    t.minKey = std::min<int>(t.minKey, d1), t.maxKey = std::max<int>(t.maxKey, d1);
    t.softest = std::min<int>(t.softest, d2), t.hardest = std::max<int>(t.hardest, d2);
  } else if (kind == 0x80 || kind == 0x90) {
    ++t.noteOffs;
  } else if (kind == 0xb0 && d1 == 64) {
    ++t.pedalEvents;
  }
}

// Reads the events of one MTrk body [at, end); running status is accepted.
TrackSummary readTrack(const Bytes& b, std::size_t at, std::size_t end) {
  TrackSummary t;
  std::uint8_t status = 0;
  while (at < end && !t.endOfTrack) {
    t.endTick += variableLength(b, at);
    if (b.at(at) & 0x80) status = b.at(at++);
    if (status == 0xff) {
      const std::uint8_t type = b.at(at++);
      const std::uint32_t length = variableLength(b, at);
      if (type == 0x51 && length == 3) t.tempo = bigEndian(b, at, 3);
      t.endOfTrack = type == 0x2f;
      at += length;
    } else if (status == 0xf0 || status == 0xf7) {
      at += variableLength(b, at);
    } else {
      const bool oneDataByte = (status & 0xf0) == 0xc0 || (status & 0xf0) == 0xd0;
      const std::uint8_t d1 = b.at(at++), d2 = oneDataByte ? 0 : b.at(at++);
      channelMessage(t, status, d1, d2);
    }
  }
  if (at != end) t.endOfTrack = false;  // the end-of-track event must close the chunk
  return t;
}

Bytes readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("the demo is a valid format 1 SMF with a tempo track and a note track", "[resources]") {
  const Bytes b = readFile(spindle::test::instrumentDir() / spindle::instrument::kMidiFileName);
  REQUIRE(b.size() > 22);
  REQUIRE(std::string(b.begin(), b.begin() + 4) == "MThd");
  REQUIRE(bigEndian(b, 4, 4) == 6);
  CHECK(bigEndian(b, 8, 2) == 1);
  REQUIRE(bigEndian(b, 10, 2) == 2);
  const std::uint32_t division = bigEndian(b, 12, 2);
  REQUIRE((division > 0 && division < 0x8000));  // ticks per quarter note, not SMPTE
  std::vector<TrackSummary> tracks;
  std::size_t at = 14;
  while (at < b.size()) {
    REQUIRE(std::string(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(at) + 4) == "MTrk");
    const std::size_t length = bigEndian(b, at + 4, 4);
    REQUIRE(at + 8 + length <= b.size());
    tracks.push_back(readTrack(b, at + 8, at + 8 + length));
    at += 8 + length;
  }
  REQUIRE(tracks.size() == 2);
  const TrackSummary& tempo = tracks[0];
  const TrackSummary& notes = tracks[1];
  CHECK(tempo.endOfTrack);
  CHECK(notes.endOfTrack);
  CHECK(tempo.noteOns == 0);
  REQUIRE(tempo.tempo > 0);

  CHECK(notes.noteOns >= 60);
  CHECK(notes.noteOffs == notes.noteOns);
  CHECK(notes.pedalEvents >= 8);
  const double seconds = notes.endTick / double(division) * tempo.tempo / 1e6;
  CHECK(seconds > 15.0);
  CHECK(seconds < 30.0);
  // It shows off the instrument: from the bass to C7, and all three velocity layers.
  CHECK(notes.minKey <= 40);
  CHECK(notes.maxKey >= 96);
  CHECK(notes.minKey >= spindle::instrument::kLowestPlayableKey);
  CHECK(notes.softest <= spindle::instrument::kLayers[0].hiVel);
  CHECK(notes.hardest >= spindle::instrument::kLayers[2].loVel);
}

}  // namespace demo_song_tests
