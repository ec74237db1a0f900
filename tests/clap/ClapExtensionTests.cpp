// voice-info, tail, and a state whose instrument moved with the user's home.
#include <cstdlib>

#include "ClapExpression.h"
#include "catch.h"

namespace clap_extension_tests {

using namespace spindle::test;

TEST_CASE("voice-info: the engine's polyphony, overlapping notes", "[clap][voice-info]") {
  const auto dir = clapScratch("voice-info");
  ClapHost host({48000.0, 512, true});
  REQUIRE(host.ok());
  const auto* voices = host.extension<clap_plugin_voice_info_t>(CLAP_EXT_VOICE_INFO);
  REQUIRE(voices);
  clap_voice_info_t info{};
  CHECK_FALSE(voices->get(&host.plugin(), &info));  // not active yet
  REQUIRE(host.loadState(stateFor(writeStepInstrument(dir))));
  REQUIRE(host.activate());
  REQUIRE(voices->get(&host.plugin(), &info));
  CHECK(info.voice_count == 256);
  CHECK(info.voice_capacity == 256);
  CHECK(info.flags == CLAP_VOICE_INFO_SUPPORTS_OVERLAPPING_NOTES);
}

TEST_CASE("tail: 0 with no effects, the longest effect memory with some", "[clap][tail]") {
  const auto dir = clapScratch("tail");
  const auto tailOf = [&](const std::string& sfz) {
    std::ofstream(dir / "tail.sfz") << sfz;
    ClapHost host({48000.0, 512, true});
    if (!host.ok() || !host.loadState(stateFor(dir / "tail.sfz")) || !host.activate()) return int64_t{-1};
    host.process(512);
    const auto* tail = host.extension<clap_plugin_tail_t>(CLAP_EXT_TAIL);
    return tail ? int64_t{tail->get(&host.plugin())} : int64_t{-1};
  };
  writeStepInstrument(dir);
  CHECK(tailOf("<region> sample=step.wav\n") == 0);
  // A delay of 0.5 s keeps 0.5 s of lines at the engine's memory rate (96 kHz) and a frame.
  CHECK(tailOf("<effect> type=delay delay_timel=0.5 delay_timer=0.25\n<region> sample=step.wav\n") == 48001);
}

TEST_CASE("A state finds its instrument again when the library moved with the user's home", "[clap][state]") {
  const auto dir = clapScratch("moved-home");
  const char* before = std::getenv("HOME");
  const std::string savedHome = before ? before : "";
  std::filesystem::create_directories(dir / "alice" / "Samples");
  const auto instrument = writeSidesInstrument(dir / "alice" / "Samples");
  setenv("HOME", (dir / "alice").c_str(), 1);
  std::optional<std::string> saved;
  {
    ClapHost host({48000.0, 512, true});
    REQUIRE(host.ok());
    REQUIRE(host.loadState(stateFor(instrument)));
    REQUIRE(host.activate());
    saved = host.saveState();
  }
  REQUIRE(saved);
  CHECK(saved->find("\ninstrument-in-home Samples/sides.sfz\n") != std::string::npos);
  std::filesystem::create_directories(dir / "bob");
  std::filesystem::rename(dir / "alice" / "Samples", dir / "bob" / "Samples");
  setenv("HOME", (dir / "bob").c_str(), 1);
  ClapHost host({48000.0, 512, true});
  REQUIRE(host.ok());
  REQUIRE(host.loadState(*saved));
  REQUIRE(host.activate());
  host.note(CLAP_EVENT_NOTE_ON, 0, 1, 0, 60, 0.8);
  host.process(512);
  const std::optional<std::string> again = host.saveState();
  if (before) setenv("HOME", savedHome.c_str(), 1);
  else unsetenv("HOME");
  CHECK(rms(std::vector<float>(host.left(), host.left() + 512), 0, 512) > 0.05);
  REQUIRE(again);
  CHECK(again->find("\ninstrument " + (dir / "bob" / "Samples" / "sides.sfz").string() + "\n") != std::string::npos);
}

}  // namespace clap_extension_tests
