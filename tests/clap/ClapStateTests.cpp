// State: the plugin saves the instrument's path and part 0's level; a fresh instance
// that loads the state renders the same. The environment names an instrument for an
// instance no state names one for.
#include <chrono>
#include <cstdlib>
#include <thread>

#include "ClapSong.h"
#include "catch.h"

namespace clap_state_tests {

using namespace spindle::test;

namespace {

Stereo renderSong(ClapHost& host, const std::filesystem::path& song, std::size_t frames) {
  return renderThrough(host, framedEvents(spindle::io::readMidiFile(song.string()), 48000.0), frames,
                       [] { return 256; });
}

}  // namespace

TEST_CASE("State saved by one instance and loaded into a fresh one renders the same", "[clap]") {
  const auto dir = clapScratch("state");
  const auto instrument = writeStreamedInstrument(dir);
  const auto song = writeSong(dir);
  const std::size_t frames = 48000 * 4;
  ClapHost first;
  REQUIRE(first.ok());
  REQUIRE(first.loadState(stateFor(instrument, -6.0f)));
  REQUIRE(first.activate());
  const Stereo before = renderSong(first, song, frames);
  const std::optional<std::string> saved = first.saveState();
  REQUIRE(saved);
  CHECK(saved->find("instrument " + instrument.string() + "\n") != std::string::npos);
  CHECK(saved->find("level -6\n") != std::string::npos);

  // Loaded after activate(), as a host opening a project into a running instance...
  ClapHost second;
  REQUIRE(second.ok());
  REQUIRE(second.activate());
  REQUIRE(second.loadState(*saved));
  CHECK(second.takeLog().empty());
  const Stereo after = renderSong(second, song, frames);
  CHECK(peak(before.left, 0, frames) > 0.05);
  CHECK(differingFrames(before, after) == 0);
  double level = 0.0;
  REQUIRE(second.paramValue(param::kLevel, level));
  CHECK(level == Approx(-6.0));

  // ...and the level is heard: the same song at 0 dB is 6 dB louder where only part 0
  // (MIDI channel 1) plays, before the first note on channel 2 at 32000 frames.
  ClapHost unity;
  REQUIRE(unity.ok());
  const Stereo loud = renderPlugin(unity, instrument, song, frames, [] { return 256; });
  CHECK(peak(loud.left, 0, 32000) / peak(before.left, 0, 32000) == Approx(std::pow(10.0, 6.0 / 20.0)).epsilon(0.001));
}

TEST_CASE("A state that names no loadable instrument is reported; the last one plays on", "[clap]") {
  const auto dir = clapScratch("state-bad");
  const auto instrument = writeStreamedInstrument(dir);
  ClapHost host;
  REQUIRE(host.ok());
  REQUIRE(host.loadState(stateFor(instrument)));
  REQUIRE(host.activate());
  host.takeLog();
  CHECK_FALSE(host.loadState("not a state"));
  REQUIRE(host.loadState(stateFor(dir / "missing.sfz")));  // loads on the plugin's loader thread
  host.process(256);  // offline: waits for the load; the main-thread callback follows
  const std::vector<std::string> log = host.takeLog();
  bool named = false;
  for (const std::string& line : log) named |= line.find("missing.sfz") != std::string::npos;
  CHECK(named);
  const std::optional<std::string> saved = host.saveState();
  REQUIRE(saved);
  CHECK(saved->find("instrument " + instrument.string() + "\n") != std::string::npos);
  const uint8_t on[] = {0x90, 60, 100};
  host.midi(10, on);
  host.process(256);
  CHECK(std::fabs(host.left()[9]) == 0.0f);
  CHECK(peak(std::vector<float>(host.left(), host.left() + 256), 10, 256) > 0.01);
}

TEST_CASE("A state loaded into a live plugin loads beside it; the old library plays meanwhile", "[clap]") {
  const auto dir = clapScratch("state-live");
  const auto instrument = writeStreamedInstrument(dir);
  ClapHost host({48000.0, 256, false});
  REQUIRE(host.ok());
  REQUIRE(host.activate());
  REQUIRE(host.loadState(stateFor(instrument)));  // returns at once: the loader thread loads
  const uint8_t on[] = {0x90, 60, 100}, off[] = {0x80, 60, 0};
  bool heard = false;
  for (int block = 0; block < 2000 && !heard; ++block) {  // at most 10 s
    host.midi(0, on);
    host.process(256);
    heard = peak(std::vector<float>(host.left(), host.left() + 256), 0, 256) > 0.01;
    host.midi(0, off);
    host.process(256);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  CHECK(heard);
  const std::optional<std::string> saved = host.saveState();
  REQUIRE(saved);
  CHECK(saved->find("instrument " + instrument.string() + "\n") != std::string::npos);
}

TEST_CASE("SPINDLE_CLAP_INSTRUMENT names the instrument of an instance no state names one for", "[clap]") {
  const auto dir = clapScratch("environment");
  const auto instrument = writeStreamedInstrument(dir);
  ::setenv("SPINDLE_CLAP_INSTRUMENT", instrument.c_str(), 1);
  ClapHost host;
  ::unsetenv("SPINDLE_CLAP_INSTRUMENT");
  REQUIRE(host.ok());
  REQUIRE(host.activate());
  const uint8_t on[] = {0x90, 60, 100};
  host.midi(0, on);
  host.process(256);
  CHECK(peak(std::vector<float>(host.left(), host.left() + 256), 0, 256) > 0.01);
  const std::optional<std::string> saved = host.saveState();
  REQUIRE(saved);
  CHECK(saved->find("instrument " + instrument.string() + "\n") != std::string::npos);
}

TEST_CASE("A state load the host's thread-check places on the audio thread is refused", "[clap]") {
  const auto dir = clapScratch("thread-check");
  const auto instrument = writeStreamedInstrument(dir);
  ClapHost host;
  REQUIRE(host.ok());
  REQUIRE(host.activate());
  host.pretendAudioThread(true);
  CHECK_FALSE(host.loadState(stateFor(instrument)));
  host.pretendAudioThread(false);
  const std::vector<std::string> log = host.takeLog();
  REQUIRE(log.size() == 1);
  CHECK(log[0] == std::to_string(CLAP_LOG_HOST_MISBEHAVING) + " spindle.clap: state load called on the audio thread: refused");
  const uint8_t on[] = {0x90, 60, 100};
  host.midi(0, on);
  host.process(256);
  CHECK(peak(std::vector<float>(host.left(), host.left() + 256), 0, 256) == 0.0);  // nothing loaded
  REQUIRE(host.loadState(stateFor(instrument)));
  host.midi(0, on);
  host.process(256);
  CHECK(peak(std::vector<float>(host.left(), host.left() + 256), 0, 256) > 0.01);
}

}  // namespace clap_state_tests
