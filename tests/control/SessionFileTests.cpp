// Session files: a round trip keeps everything; every error names file:line.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "catch.h"
#include "control/SessionFile.h"

namespace session_file_tests {

using namespace spindle::control;

namespace {

std::filesystem::path tempDir() {
  const auto dir = std::filesystem::temp_directory_path() / ("spindle-session-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

SessionState sample() {
  SessionState s;
  s.settings = {128, 8192, 2};
  s.parts[0] = {"/lib/piano/piano.sfz", -3.5f, 0.25f, false, true, "", ""};
  s.parts[9] = {"/lib/drums with spaces/kit.sfz", 0.0f, 0.0f, true, false, "", ""};
  s.parts[15].volumeDb = -12.0f;
  s.parts[3].scale = "/tunings/19 tone.scl";
  s.parts[3].keymap = "/tunings/19.kbm";
  s.parts[4].keymap = "/tunings/a432.kbm";  // a map over 12-TET
  s.hasConnections = true;
  s.connections = {{"out_L", "system:playback_1"}, {"out_L", "system:playback_3"},
                   {"midi_in", "a2j:Keystation 49 [20] (capture): Keystation 49 MIDI 1"}};
  return s;
}

}  // namespace

TEST_CASE("a session survives a write and a read", "[control][session]") {
  const auto dir = tempDir();
  const auto file = dir / "round.spindle";
  std::string error;
  REQUIRE(writeSessionFile(file, sample(), error));
  const auto back = readSessionFile(file, error);
  REQUIRE(back);
  CHECK(*back == sample());
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    CHECK(entry.path().filename().string().find(".tmp") == std::string::npos);  // no temporary left
  std::filesystem::remove_all(dir);
}

TEST_CASE("the session file is readable text", "[control][session]") {
  const std::string text = formatSession(sample());
  CHECK_THAT(text, Catch::Contains("[settings]\npolyphony = 128\npreload = 8192\nquality = 2\n"));
  CHECK_THAT(text, Catch::Contains("[part 1]\ninstrument = /lib/piano/piano.sfz\nvolume = -3.5\npan = 0.25\n"));
  CHECK_THAT(text, Catch::Contains("[part 10]\ninstrument = /lib/drums with spaces/kit.sfz\n"));
  CHECK(text.find("[part 2]") == std::string::npos);  // default parts are left out
}

TEST_CASE("MPE zones set by hand are saved and read back; overlapping ones are an error on their line",
          "[control][session][mpe]") {
  SessionState zones = sample();
  zones.settings.mpeLower = 7;
  zones.settings.mpeUpper = 7;
  const std::string text = formatSession(zones);
  CHECK_THAT(text, Catch::Contains("mpe-lower = 7\nmpe-upper = 7\n"));
  CHECK(formatSession(sample()).find("mpe-") == std::string::npos);  // off: not written
  std::string error;
  const auto back = parseSession(text, "/s/x.spindle", error);
  REQUIRE(back);
  CHECK(*back == zones);
  CHECK_FALSE(parseSession("[settings]\nmpe-lower = 10\nmpe-upper = 5\n", "/s/y.spindle", error));
  CHECK(error == "/s/y.spindle:3: MPE zones overlap: mpe-lower + mpe-upper is at most 14 when both are on");
  CHECK_FALSE(parseSession("[settings]\nmpe-lower = 16\n", "/s/z.spindle", error));
  CHECK(error == "/s/z.spindle:2: bad value '16' for mpe-lower");
}

TEST_CASE("relative instrument paths are relative to the session file", "[control][session]") {
  std::string error;
  const auto state = parseSession("[part 2]\ninstrument = ../lib/a.sfz\n", "/home/me/sessions/x.spindle", error);
  REQUIRE(state);
  CHECK(state->parts[1].instrument == "/home/me/lib/a.sfz");
}

TEST_CASE("a session without [connections] leaves the connections alone; an empty one has none",
          "[control][session]") {
  std::string error;
  const auto without = parseSession("[settings]\npolyphony = 8\n", "/tmp/s.spindle", error);
  REQUIRE(without);
  CHECK_FALSE(without->hasConnections);
  const auto empty = parseSession("[connections]\n", "/tmp/s.spindle", error);
  REQUIRE(empty);
  CHECK(empty->hasConnections);
  CHECK(empty->connections.empty());
  CHECK(formatSession(*empty).find("[connections]") != std::string::npos);
}

TEST_CASE("session parse errors name the file and the line", "[control][session]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"polyphony = 3\n", "s.spindle:1: 'polyphony' outside a section"},
      {"[settings]\n\npolyphony = lots\n", "s.spindle:3: bad value 'lots' for polyphony"},
      {"[settings]\nspeed = 2\n", "s.spindle:2: unknown setting 'speed'"},
      {"# c\n[part 17]\n", "s.spindle:2: unknown section [part 17]"},
      {"[part 1\n", "s.spindle:1: section header without ']'"},
      {"[part 1]\nvolume = 99\n", "s.spindle:2: bad value '99' for volume"},
      {"[part 1]\npan = left\n", "s.spindle:2: bad value 'left' for pan"},
      {"[part 1]\nmute = yes\n", "s.spindle:2: bad value 'yes' for mute"},
      {"[part 1]\ncolour = red\n", "s.spindle:2: unknown part key 'colour'"},
      {"[settings]\njust words\n", "s.spindle:2: expected 'key = value'"},
      {"[connections]\nsystem:playback_1 = out_L\n", "s.spindle:2: expected one of Spindle's ports"},
      {"[connections]\nout_L =\n", "s.spindle:2: no port named for out_L"},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    std::string error;
    CHECK_FALSE(parseSession(text, "/tmp/s.spindle", error));
    const std::string prefix = "/tmp/" + expected;
    CHECK(error.substr(0, prefix.size()) == prefix);
  }
}

TEST_CASE("a missing session file is an error, not an empty session", "[control][session]") {
  std::string error;
  CHECK_FALSE(readSessionFile("/nonexistent/x.spindle", error));
  CHECK(error == "cannot open session file /nonexistent/x.spindle");
}

TEST_CASE("a part's scale and keymap are written, read back, and relative to the session", "[control][session]") {
  const std::string text = formatSession(sample());
  CHECK_THAT(text, Catch::Contains("[part 4]\ninstrument = \nvolume = 0\npan = 0\nmute = 0\nsolo = 0\n"
                                   "scale = /tunings/19 tone.scl\nkeymap = /tunings/19.kbm\n"));
  CHECK_THAT(text, Catch::Contains("solo = 0\nkeymap = /tunings/a432.kbm\n"));
  std::string error;
  const auto state = parseSession("[part 3]\nscale = tunings/a.scl\nkeymap = ../b.kbm\n", "/home/me/s/x.spindle", error);
  REQUIRE(state);
  CHECK(state->parts[2].scale == "/home/me/s/tunings/a.scl");
  CHECK(state->parts[2].keymap == "/home/me/b.kbm");
}

}  // namespace session_file_tests
