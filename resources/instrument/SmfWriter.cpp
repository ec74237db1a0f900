#include "SmfWriter.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>

namespace spindle::instrument {
namespace {

constexpr int kOrderMeta = 0;
constexpr int kOrderNoteOff = 1;
constexpr int kOrderController = 2;
constexpr int kOrderNoteOn = 3;

void appendVariableLength(std::vector<std::uint8_t>& out, std::uint32_t value) {
  std::uint8_t groups[5];
  int count = 0;
  do {
    groups[count++] = static_cast<std::uint8_t>(value & 0x7f);
    value >>= 7;
  } while (value != 0);
  while (count > 1) out.push_back(static_cast<std::uint8_t>(groups[--count] | 0x80));
  out.push_back(groups[0]);
}

void appendBigEndian(std::vector<std::uint8_t>& out, std::uint32_t value, int bytes) {
  for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(value >> shift));
}

std::uint8_t data7(int value) { return static_cast<std::uint8_t>(std::clamp(value, 0, 127)); }
std::uint8_t status(int kind, int channel) { return static_cast<std::uint8_t>(kind | (channel & 0x0f)); }

}  // namespace

void SmfTrack::add(std::uint32_t tick, int order, std::vector<std::uint8_t> bytes) {
  events_.push_back({tick, order, std::move(bytes)});
}

void SmfTrack::trackName(const std::string& name) {
  std::vector<std::uint8_t> bytes{0xff, 0x03};
  appendVariableLength(bytes, static_cast<std::uint32_t>(name.size()));
  bytes.insert(bytes.end(), name.begin(), name.end());
  add(0, kOrderMeta, std::move(bytes));
}

void SmfTrack::tempo(std::uint32_t tick, double beatsPerMinute) {
  std::vector<std::uint8_t> bytes{0xff, 0x51, 0x03};
  appendBigEndian(bytes, static_cast<std::uint32_t>(std::lround(60'000'000.0 / beatsPerMinute)), 3);
  add(tick, kOrderMeta, std::move(bytes));
}

void SmfTrack::timeSignature(std::uint32_t tick, int numerator, int denominatorPower) {
  add(tick, kOrderMeta, {0xff, 0x58, 0x04, data7(numerator), data7(denominatorPower), 24, 8});
}

void SmfTrack::note(std::uint32_t tick, std::uint32_t lengthTicks, int channel, int key, int velocity) {
  add(tick, kOrderNoteOn, {status(0x90, channel), data7(key), data7(std::max(velocity, 1))});
  add(tick + lengthTicks, kOrderNoteOff, {status(0x80, channel), data7(key), 64});
}

void SmfTrack::controlChange(std::uint32_t tick, int channel, int controller, int value) {
  add(tick, kOrderController, {status(0xb0, channel), data7(controller), data7(value)});
}

std::vector<std::uint8_t> SmfTrack::chunk() const {
  std::vector<Event> sorted = events_;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Event& a, const Event& b) { return a.tick != b.tick ? a.tick < b.tick : a.order < b.order; });
  std::vector<std::uint8_t> body;
  std::uint32_t now = 0;
  for (const Event& e : sorted) {
    appendVariableLength(body, e.tick - now);
    body.insert(body.end(), e.bytes.begin(), e.bytes.end());
    now = e.tick;
  }
  body.insert(body.end(), {0x00, 0xff, 0x2f, 0x00});
  std::vector<std::uint8_t> out{'M', 'T', 'r', 'k'};
  appendBigEndian(out, static_cast<std::uint32_t>(body.size()), 4);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

void writeSmf(const std::filesystem::path& path, std::uint16_t ticksPerQuarter, const std::vector<SmfTrack>& tracks) {
  std::vector<std::uint8_t> bytes{'M', 'T', 'h', 'd'};
  appendBigEndian(bytes, 6, 4);
  appendBigEndian(bytes, 1, 2);  // format 1: simultaneous tracks
  appendBigEndian(bytes, static_cast<std::uint32_t>(tracks.size()), 2);
  appendBigEndian(bytes, ticksPerQuarter, 2);
  for (const SmfTrack& track : tracks) {
    const std::vector<std::uint8_t> chunk = track.chunk();
    bytes.insert(bytes.end(), chunk.begin(), chunk.end());
  }
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace spindle::instrument
