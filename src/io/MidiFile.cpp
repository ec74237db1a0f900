#include "io/MidiFile.h"

#include "core/MidiTuning.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>

namespace spindle::io {

namespace {

// Bounds-checked big-endian reads over [begin, end) of the file's bytes; every
// failure names the file and the offset of the byte that could not be read.
class ByteReader {
 public:
  ByteReader(const uint8_t* data, std::size_t begin, std::size_t end, const std::string& name)
      : data_(data), pos_(begin), end_(end), name_(name) {}

  std::size_t pos() const noexcept { return pos_; }
  bool atEnd() const noexcept { return pos_ >= end_; }
  [[noreturn]] void fail(const std::string& message, std::size_t at) const {
    throw MidiFileError(name_, at, message);
  }
  [[noreturn]] void fail(const std::string& message) const { fail(message, pos_); }

  uint8_t peek() const { return data_[pos_]; }  // not at the end
  uint8_t u8() {
    if (pos_ >= end_) fail("unexpected end of data");
    return data_[pos_++];
  }
  uint32_t u16() { return static_cast<uint32_t>(u8() << 8) | u8(); }
  uint32_t u32() { return (u16() << 16) | u16(); }
  uint32_t vlq() {
    const std::size_t start = pos_;
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      const uint8_t byte = u8();
      value = (value << 7) | (byte & 0x7F);
      if (!(byte & 0x80)) return value;
    }
    fail("variable-length quantity longer than 4 bytes", start);
  }
  // The next `count` bytes, in place; an overrun is reported at `lengthAt`.
  const uint8_t* take(std::size_t count, std::size_t lengthAt) {
    const uint8_t* at = data_ + pos_;
    skip(count, lengthAt);
    return at;
  }
  // Skips `count` bytes; an overrun is reported at `lengthAt`, where the length was read.
  void skip(std::size_t count, std::size_t lengthAt) {
    if (count > end_ - pos_) fail("length " + std::to_string(count) + " runs past the end of its chunk", lengthAt);
    pos_ += count;
  }

 private:
  const uint8_t* data_;
  std::size_t pos_, end_;
  const std::string& name_;
};

enum class RawKind : uint8_t { Skip, Channel, Tempo, EndOfTrack };

struct RawEvent {
  uint64_t tick = 0;
  RawKind kind = RawKind::Skip;
  uint8_t status = 0, data1 = 0, data2 = 0;
  uint16_t parts = 0;  // tuning events (core/MidiTuning.h)
  float cents = 0.0f;
  uint32_t tempo = 0;  // microseconds per quarter note, for RawKind::Tempo
};

std::string hexByte(uint8_t byte) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", byte);
  return hex;
}

int dataBytes(uint8_t status) {
  const int type = status & 0xF0;
  return (type == 0xC0 || type == 0xD0) ? 1 : 2;
}

uint8_t dataByte(ByteReader& in) {
  const std::size_t at = in.pos();
  const uint8_t byte = in.u8();
  if (byte & 0x80) in.fail("data byte " + hexByte(byte) + " has its top bit set", at);
  return byte;
}

// Meta event after its 0xFF: type, length, payload. Tempo and end of track matter.
void readMeta(ByteReader& in, RawEvent& event) {
  const uint8_t type = in.u8();
  const std::size_t lengthAt = in.pos();
  const uint32_t length = in.vlq();
  if (type == 0x51) {
    if (length != 3) in.fail("tempo meta event of length " + std::to_string(length) + " (expected 3)", lengthAt);
    const uint32_t high = in.u8(), mid = in.u8(), low = in.u8();
    event.tempo = (high << 16) | (mid << 8) | low;
    if (event.tempo == 0) in.fail("tempo of 0 microseconds per quarter note", lengthAt);
    event.kind = RawKind::Tempo;
    return;
  }
  in.skip(length, lengthAt);
  if (type == 0x2F) event.kind = RawKind::EndOfTrack;
}

// A sysex message after its F0: a MIDI Tuning Standard message becomes its tuning
// events (as Channel events, which the engine tells apart by status); others are skipped.
void readSysex(ByteReader& in, uint64_t tick, std::vector<RawEvent>& out) {
  const std::size_t lengthAt = in.pos();
  const uint32_t length = in.vlq();
  const uint8_t* bytes = in.take(length, lengthAt);
  std::array<MidiEvent, mts::kMaxEvents> tuning{};
  const int n = mts::decode(bytes, length, 0, tuning.data(), static_cast<int>(tuning.size()));
  for (int i = 0; i < n; ++i) {
    const MidiEvent& e = tuning[static_cast<std::size_t>(i)];
    RawEvent event;
    event.tick = tick;
    event.kind = RawKind::Channel;
    event.status = e.status;
    event.data1 = e.data1;
    event.data2 = e.data2;
    event.parts = e.parts;
    event.cents = e.cents;
    out.push_back(event);
  }
}

// An escape (F7, length, bytes) after its F7: a MIDI clock message alone in it (the way
// a file carries realtime bytes) becomes an event; any other is skipped.
void readEscape(ByteReader& in, RawEvent& event) {
  const std::size_t lengthAt = in.pos();
  const uint32_t length = in.vlq();
  const uint8_t* bytes = in.take(length, lengthAt);
  if (length != 1 || !midi::isClockMessage(bytes[0])) return;
  event.kind = RawKind::Channel;
  event.status = bytes[0];
}

// One event after its delta time; leaves event.kind == Skip for sysex and most meta.
// Running status survives meta and sysex events: lenient, and harmless for valid files.
void readEvent(ByteReader& in, uint8_t& runningStatus, RawEvent& event) {
  const std::size_t at = in.pos();
  const uint8_t first = in.u8();
  if (first == 0xFF) return readMeta(in, event);
  if (first == 0xF7) return readEscape(in, event);
  if (first == 0xF0) return in.skip(in.vlq(), at + 1);
  if (first > 0xF0) in.fail("status byte " + hexByte(first) + " is not allowed in a MIDI file", at);
  const bool running = first < 0x80;
  if (running && runningStatus == 0) in.fail("data byte " + hexByte(first) + " without a running status", at);
  const uint8_t status = running ? runningStatus : first;
  runningStatus = status;
  event.kind = RawKind::Channel;
  event.status = status;
  event.data1 = running ? first : dataByte(in);
  if (dataBytes(status) == 2) event.data2 = dataByte(in);
}

// One MTrk chunk's events, ticks absolute from the song's start.
void readTrack(ByteReader in, std::vector<RawEvent>& out) {
  uint64_t tick = 0;
  uint8_t runningStatus = 0;
  while (!in.atEnd()) {
    tick += in.vlq();
    if (!in.atEnd() && in.peek() == 0xF0) {
      in.u8();
      readSysex(in, tick, out);
      continue;
    }
    RawEvent event;
    event.tick = tick;
    readEvent(in, runningStatus, event);
    if (event.kind != RawKind::Skip) out.push_back(event);
    if (event.kind == RawKind::EndOfTrack) return;
  }
}

// Seconds per tick for an SMPTE division word (top bit set).
double smpteTickSeconds(int division, const ByteReader& in) {
  const int fps = -static_cast<int8_t>(static_cast<uint8_t>(division >> 8));
  const int ticksPerFrame = division & 0xFF;
  if ((fps != 24 && fps != 25 && fps != 29 && fps != 30) || ticksPerFrame == 0)
    in.fail("SMPTE division with " + std::to_string(fps) + " frames per second and " +
                std::to_string(ticksPerFrame) + " ticks per frame", 12);
  const double framesPerSecond = fps == 29 ? 30000.0 / 1001.0 : fps;
  return 1.0 / (framesPerSecond * ticksPerFrame);
}

// Sorts the merged tracks by tick (stable: track order, then file order) and
// converts ticks to seconds through the tempo map, exactly.
void assignTimes(std::vector<RawEvent>& raw, const ByteReader& in, MidiSong& song) {
  std::stable_sort(raw.begin(), raw.end(), [](const RawEvent& a, const RawEvent& b) { return a.tick < b.tick; });
  const bool smpte = (song.division & 0x8000) != 0;
  const double smpteSeconds = smpte ? smpteTickSeconds(song.division, in) : 0.0;
  const double ticksToSeconds = smpte ? 0.0 : 1.0 / (1e6 * song.division);
  uint64_t lastTick = 0, tempo = 500000;  // 120 bpm until the first tempo event
  uint64_t microTicks = 0;  // sum of delta ticks * tempo: exact (overflows after ~10^9 hours)
  for (const RawEvent& event : raw) {
    microTicks += (event.tick - lastTick) * tempo;
    lastTick = event.tick;
    const double seconds = smpte ? static_cast<double>(event.tick) * smpteSeconds
                                 : static_cast<double>(microTicks) * ticksToSeconds;
    song.lengthSeconds = seconds;
    if (event.kind == RawKind::Tempo) {
      tempo = event.tempo;
      song.tempos.push_back(TempoChange{seconds, 60e6 / static_cast<double>(event.tempo)});
    }
    if (event.kind == RawKind::Channel)
      song.events.push_back(TimedMidiEvent{seconds, event.status, event.data1, event.data2, event.parts, event.cents});
  }
}

void readHeader(ByteReader& in, MidiSong& song, int& declaredTracks) {
  if (in.u32() != 0x4D546864) in.fail("not a Standard MIDI File (no MThd chunk at the start)", 0);
  const uint32_t length = in.u32();
  if (length < 6) in.fail("MThd chunk of " + std::to_string(length) + " bytes (expected 6)", 4);
  song.format = static_cast<int>(in.u16());
  declaredTracks = static_cast<int>(in.u16());
  song.division = static_cast<int>(in.u16());
  in.skip(length - 6, 4);
  if (song.format == 2) in.fail("format 2 (independent sequences) is not supported", 8);
  if (song.format > 2) in.fail("unknown format " + std::to_string(song.format), 8);
  if (song.division == 0) in.fail("division of 0 ticks per quarter note", 12);
}

}  // namespace

MidiFileError::MidiFileError(const std::string& file, std::size_t offset, const std::string& message)
    : std::runtime_error(file + ": byte " + std::to_string(offset) + ": " + message), offset_(offset) {}

MidiSong parseMidiFile(const uint8_t* data, std::size_t size, const std::string& name) {
  MidiSong song;
  song.name = name;
  ByteReader in(data, 0, size, song.name);
  int declaredTracks = 0;
  readHeader(in, song, declaredTracks);
  std::vector<RawEvent> raw;
  while (size - in.pos() >= 8) {
    const std::size_t chunkAt = in.pos();
    const uint32_t id = in.u32(), length = in.u32();
    if (length > size - in.pos())
      in.fail("chunk of " + std::to_string(length) + " bytes runs past the end of the file (" +
                  std::to_string(size - in.pos()) + " bytes left)", chunkAt);
    if (id == 0x4D54726B) {
      readTrack(ByteReader(data, in.pos(), in.pos() + length, song.name), raw);
      ++song.tracks;
    } else {
      song.warnings.push_back(name + ": byte " + std::to_string(chunkAt) + ": skipped unknown chunk");
    }
    in.skip(length, chunkAt + 4);
  }
  if (song.tracks == 0) in.fail("no MTrk chunk", in.pos());
  if (song.tracks != declaredTracks)
    song.warnings.push_back(name + ": header declares " + std::to_string(declaredTracks) +
                            " tracks, the file holds " + std::to_string(song.tracks));
  if (!in.atEnd()) song.warnings.push_back(name + ": ignored " + std::to_string(size - in.pos()) + " trailing bytes");
  assignTimes(raw, in, song);
  return song;
}

MidiSong readMidiFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw MidiFileError(path.string(), 0, "cannot open the file");
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  return parseMidiFile(bytes.data(), bytes.size(), path.string());
}

int64_t secondsToFrames(double seconds, double sampleRate) noexcept {
  return static_cast<int64_t>(std::llround(seconds * sampleRate));
}

}  // namespace spindle::io
