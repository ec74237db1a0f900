// control::UserSettings: one key of spindle.conf (the window's QSettings INI file) read
// and written, every other line kept.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "catch.h"
#include "control/UserSettings.h"

namespace user_settings_tests {

using spindle::control::readSetting;
using spindle::control::writeSetting;

namespace {
std::string text(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("user settings: a key is read from its section, written in place, added where missing") {
  const auto dir = std::filesystem::temp_directory_path() / ("spindle-usersettings-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const auto file = dir / "spindle" / "spindle.conf";
  CHECK_FALSE(readSetting(file, "engine", "preloadFrames"));  // no file yet
  std::string error;
  REQUIRE(writeSetting(file, "engine", "preloadFrames", 8192, error));  // the file and its folder made
  CHECK(text(file) == "[engine]\npreloadFrames=8192\n");
  CHECK(readSetting(file, "engine", "preloadFrames") == 8192);

  // As the window writes it: other sections and keys, which stay as they are.
  std::ofstream(file) << "[audio]\nbackend=jack\n\n[engine]\npolyphony=256\npreloadFrames=4096\nquality=1\n\n"
                         "[osc]\nport=9951\n";
  CHECK(readSetting(file, "engine", "preloadFrames") == 4096);
  CHECK(readSetting(file, "engine", "quality") == 1);
  CHECK_FALSE(readSetting(file, "audio", "preloadFrames"));  // another section's key is not it
  CHECK_FALSE(readSetting(file, "audio", "backend"));        // not an integer
  REQUIRE(writeSetting(file, "engine", "preloadFrames", 2048, error));
  CHECK(text(file) == "[audio]\nbackend=jack\n\n[engine]\npolyphony=256\npreloadFrames=2048\nquality=1\n\n"
                      "[osc]\nport=9951\n");
  REQUIRE(writeSetting(file, "engine", "cacheMiB", 96, error));  // a new key: at the end of its section
  CHECK(text(file) == "[audio]\nbackend=jack\n\n[engine]\npolyphony=256\npreloadFrames=2048\nquality=1\ncacheMiB=96\n\n"
                      "[osc]\nport=9951\n");
  REQUIRE(writeSetting(file, "disk", "tested", 1, error));  // a new section: at the end
  CHECK(text(file).find("[osc]\nport=9951\n\n[disk]\ntested=1\n") != std::string::npos);
  CHECK(readSetting(file, "disk", "tested") == 1);

  CHECK_FALSE(writeSetting("/proc/spindle/nowhere.conf", "engine", "preloadFrames", 1, error));
  CHECK(error == "cannot write /proc/spindle/nowhere.conf");
  std::filesystem::remove_all(dir);
}

}  // namespace user_settings_tests
