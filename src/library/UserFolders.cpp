// The user's own instrument folders, in spindle.conf (control/UserSettings.h's file) as
// QSettings writes an array, so the window (QSettings) and the headless program read
// and write the same list:
//
//   [library]
//   folders\1\path=/home/me/Instruments
//   folders\size=1
#include <cstdlib>
#include <fstream>

#include "library/LibraryIndex.h"

namespace spindle::library {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSection = "[library]";
constexpr const char* kPrefix = "folders\\";

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

std::vector<std::string> linesOf(const fs::path& file) {
  std::vector<std::string> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The value of `folders\N\path` on `line`; empty when the line is no such key.
std::string folderValue(const std::string& line) {
  const std::string t = trimmed(line);
  const auto equals = t.find('=');
  if (t.rfind(kPrefix, 0) != 0 || equals == std::string::npos) return {};
  if (trimmed(t.substr(0, equals)).size() < 6 || t.substr(0, equals).find("\\path") == std::string::npos) return {};
  std::string value = trimmed(t.substr(equals + 1));
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
  return value;
}

bool isSection(const std::string& line) {
  const std::string t = trimmed(line);
  return t.size() >= 2 && t.front() == '[' && t.back() == ']';
}

}  // namespace

fs::path userSettingsPath() {
  const char* config = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  const fs::path base = config && *config ? fs::path(config) : fs::path(home ? home : ".") / ".config";
  return base / "spindle" / "spindle.conf";
}

std::vector<fs::path> userFolders() {
  std::vector<fs::path> folders;
  bool inside = false;
  for (const std::string& line : linesOf(userSettingsPath())) {
    if (isSection(line)) inside = trimmed(line) == kSection;
    else if (inside && !folderValue(line).empty()) folders.emplace_back(folderValue(line));
  }
  return folders;
}

bool saveUserFolders(const std::vector<fs::path>& folders) {
  const fs::path file = userSettingsPath();
  std::vector<std::string> kept, section{kSection};
  bool inside = false;
  for (const std::string& line : linesOf(file)) {
    if (isSection(line)) inside = trimmed(line) == kSection;
    if (!inside) kept.push_back(line);
    else if (trimmed(line) != kSection && trimmed(line).rfind(kPrefix, 0) != 0 && !trimmed(line).empty())
      section.push_back(line);
  }
  for (std::size_t i = 0; i < folders.size(); ++i)
    section.push_back(std::string(kPrefix) + std::to_string(i + 1) + "\\path=" + folders[i].string());
  section.push_back(std::string(kPrefix) + "size=" + std::to_string(folders.size()));
  if (!kept.empty() && !trimmed(kept.back()).empty()) kept.emplace_back();
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  std::ofstream out(file, std::ios::trunc);
  for (const std::string& line : kept) out << line << '\n';
  for (const std::string& line : section) out << line << '\n';
  out.flush();
  return static_cast<bool>(out);
}

}  // namespace spindle::library
