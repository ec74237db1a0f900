#pragma once
// A minimal Standard MIDI File writer: tracks collect timed events in any order, and the
// file is written as format 1 with delta times and no running status.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace spindle::instrument {

class SmfTrack {
 public:
  void trackName(const std::string& name);
  void tempo(std::uint32_t tick, double beatsPerMinute);
  void timeSignature(std::uint32_t tick, int numerator, int denominatorPower);
  void note(std::uint32_t tick, std::uint32_t lengthTicks, int channel, int key, int velocity);
  void controlChange(std::uint32_t tick, int channel, int controller, int value);

  // The "MTrk" chunk: events sorted by tick (at equal ticks: meta, note-off, controller,
  // note-on) and an end-of-track meta event after the last one.
  std::vector<std::uint8_t> chunk() const;

 private:
  struct Event {
    std::uint32_t tick;
    int order;  // tie-break at equal ticks
    std::vector<std::uint8_t> bytes;
  };
  void add(std::uint32_t tick, int order, std::vector<std::uint8_t> bytes);
  std::vector<Event> events_;
};

// Writes a format 1 file; throws std::runtime_error on failure.
void writeSmf(const std::filesystem::path& path, std::uint16_t ticksPerQuarter, const std::vector<SmfTrack>& tracks);

}  // namespace spindle::instrument
