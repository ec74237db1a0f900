// The plugin renders through run() what spindle-render renders: in freewheel, the same
// engine waits for the disk, so the output is byte-identical whatever the host's blocks.
#include <random>

#include "Fixtures.h"
#include "PluginSong.h"
#include "PluginRenderChecks.h"
#include "catch.h"

namespace plugin_render_tests {

using namespace spindle::test;

namespace {

void checkIdentical(const std::filesystem::path& instrument, const std::filesystem::path& dir, bool modulated) {
  checkRendersLikeSpindleRender<Lv2Host>(instrument, writeSong(dir), dir, modulated, 7);
}

// An MPE phrase (480 ticks a quarter, 120 bpm): the MPE Configuration Message for a
// lower zone of 15, then three notes on member channels 2, 3 and 4, each with its own
// pitch bend ramp, pressure and CC74, one key twice on two channels.
// Without `mcm`, the same notes with no configuration message.
std::filesystem::path writeMpeSong(const std::filesystem::path& dir, bool mcm = true) {
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> events;
  if (mcm) events = {{0, {0xB0, 101, 0}}, {0, {0xB0, 100, 6}}, {0, {0xB0, 6, 15}}};
  const uint8_t keys[3] = {60, 67, 60};
  for (uint8_t n = 0; n < 3; ++n) {
    const auto channel = static_cast<uint8_t>(n + 1);
    const uint32_t on = 100 + 250u * n;
    events.push_back({on, {static_cast<uint8_t>(0xD0 | channel), static_cast<uint8_t>(40 + 30 * n)}});
    events.push_back({on, {static_cast<uint8_t>(0x90 | channel), keys[n], 100}});
    for (uint32_t step = 1; step <= 24; ++step) {
      const int bend = 8192 + static_cast<int>(step) * (n == 1 ? -40 : 30);
      events.push_back({on + 20 * step, {static_cast<uint8_t>(0xE0 | channel), static_cast<uint8_t>(bend & 0x7F),
                                          static_cast<uint8_t>(bend >> 7)}});
      events.push_back({on + 20 * step + 7, {static_cast<uint8_t>(0xB0 | channel), 74, static_cast<uint8_t>(5 * step)}});
    }
    events.push_back({on + 1400, {static_cast<uint8_t>(0x80 | channel), keys[n], 0}});
  }
  std::stable_sort(events.begin(), events.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  TrackBuilder track;
  uint32_t now = 0;
  for (const auto& [tick, b] : events) {
    if (b.size() == 2) track.event(tick - now, {b[0], b[1]});
    else track.event(tick - now, {b[0], b[1], b[2]});
    now = tick;
  }
  track.end();
  const auto file = dir / (mcm ? "mpe.mid" : "plain.mid");
  saveBytes(file, buildSmf(0, 480, {track}));
  return file;
}

}  // namespace

TEST_CASE("The LV2 plugin plays an MPE phrase from its MIDI input byte-identical to spindle-render", "[lv2][mpe]") {
  const auto dir = lv2Scratch("identical-mpe");
  const auto instrument = writeStreamedInstrument(dir);
  const auto song = writeMpeSong(dir);
  const Stereo reference = renderReference(instrument, song, dir, 256);
  REQUIRE(reference.left.size() > 48000 * 2);
  REQUIRE(peak(reference.left, 0, reference.left.size()) > 0.05);
  Lv2Host host;
  REQUIRE(host.ok());
  const Stereo out = renderPlugin(host, instrument, song, reference.left.size(), [] { return 256; });
  std::size_t first = 0;
  const std::size_t differing = differingFrames(reference, out, &first);
  INFO(differing << " frames differ, the first " << first);
  CHECK(differing == 0);
  // It plays as MPE: the same notes with no configuration message are parts 2..4, each
  // bent 2 semitones at full bend, not 48, and sound otherwise.
  const Stereo plain = renderReference(instrument, writeMpeSong(dir, false), dir, 256);
  REQUIRE(plain.left.size() == reference.left.size());
  CHECK(differingFrames(reference, plain) > 48000);
}

TEST_CASE("The LV2 plugin renders a streamed sample byte-identical to spindle-render", "[lv2]") {
  const auto dir = lv2Scratch("identical-generated");
  checkIdentical(writeStreamedInstrument(dir), dir, false);
}

TEST_CASE("The LV2 plugin renders weresax Sax1 byte-identical to spindle-render", "[lv2][fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "realworld/karoryfer-weresax/Programs/Sax1.sfz");
  checkIdentical(fixtures / "realworld/karoryfer-weresax/Programs/Sax1.sfz", lv2Scratch("identical-sax1"), true);
}

TEST_CASE("Host blocks longer than the engine's are split at the engine's block", "[lv2]") {
  const auto dir = lv2Scratch("split-blocks");
  const auto instrument = writeStreamedInstrument(dir);
  const auto song = writeSong(dir);
  const Stereo reference = renderReference(instrument, song, dir, 1024);
  REQUIRE_FALSE(reference.left.empty());
  Lv2Host host({48000.0, 0, true});  // no options: the engine's block is 1024 frames
  REQUIRE(host.ok());
  const Stereo out = renderPlugin(host, instrument, song, reference.left.size(), [] { return 2048; });
  CHECK(differingFrames(reference, out) == 0);
}

TEST_CASE("patch:Get replies with the instrument; a bad one is named and the old one plays on", "[lv2]") {
  const auto dir = lv2Scratch("patch-get");
  const auto instrument = writeStreamedInstrument(dir);
  Lv2Host host;
  REQUIRE(host.ok());
  host.setInstrument(instrument.string());
  host.run(64);
  host.run(64);  // the load's response: the plugin announces the new path
  CHECK(host.replies().at("urn:spindle:lv2#instrument") == instrument.string());
  host.takeLog();

  std::ofstream(dir / "bad.sfz") << "// no sample of it exists\n<region> sample=nothere.wav\n";
  host.setInstrument((dir / "bad.sfz").string());
  host.run(64);
  const std::vector<std::string> log = host.takeLog();
  bool named = false;
  for (const std::string& line : log) named |= line.find((dir / "bad.sfz").string() + ":2: ") != std::string::npos;
  INFO(log.size() << " log lines, first: " << (log.empty() ? "" : log.front()));
  CHECK(named);
  host.getParameters();
  host.run(64);
  CHECK(host.replies().at("urn:spindle:lv2#instrument") == instrument.string());
  const uint8_t on[] = {0x90, 60, 100};
  host.midi(10, on, 3);
  host.run(256);
  CHECK(peak(std::vector<float>(host.left(), host.left() + 10), 0, 10) == 0.0);
  CHECK(peak(std::vector<float>(host.left(), host.left() + 256), 10, 256) > 0.01);
}

TEST_CASE("A load the host's full worker queue refused is asked again in the next cycles", "[lv2]") {
  const auto dir = lv2Scratch("worker-full");
  const auto instrument = writeStreamedInstrument(dir);
  Lv2Host host;
  REQUIRE(host.ok());
  host.refuseWork(true);
  host.setInstrument(instrument.string());
  host.run(64);
  host.run(64);
  CHECK(host.replies().count("urn:spindle:lv2#instrument") == 0);
  host.refuseWork(false);
  host.run(64);  // asked again; the worker loads it after this cycle
  host.run(64);
  CHECK(host.replies().at("urn:spindle:lv2#instrument") == instrument.string());
}

}  // namespace plugin_render_tests
