#pragma once
// UserSettings: the saved settings Spindle's programs share, in the file the window
// keeps its settings in (QSettings' INI format): $XDG_CONFIG_HOME/spindle/spindle.conf,
// else ~/.config/spindle/spindle.conf.
//
//   [engine]
//   preloadFrames=4096
//
// `spindle --headless` reads the preload from it (no --preload-frames given), the
// window reads and writes it (gui/Settings.cpp), spindle-diskbench --save writes the
// preload it measured. Only the keys asked for are read or changed; every other line
// of the file is kept as it is.
//
// Thread: any one thread at a time (a file read or written whole).
#include <filesystem>
#include <optional>
#include <string>

namespace spindle::control {

std::filesystem::path userSettingsFile();

// The integer value of `key` in `[section]` of `file`; nothing when the file, the
// section or the key is missing or the value is not an integer.
std::optional<long long> readSetting(const std::filesystem::path& file, const std::string& section,
                                     const std::string& key);
// Sets `key` in `[section]` (adding either where missing), creating the file and its
// folder when needed. False with `error` set when the file cannot be written.
bool writeSetting(const std::filesystem::path& file, const std::string& section, const std::string& key,
                  long long value, std::string& error);

}  // namespace spindle::control
