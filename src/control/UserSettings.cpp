#include "control/UserSettings.h"

#include <cstdlib>
#include <fstream>
#include <system_error>
#include <vector>

namespace spindle::control {

namespace {

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

std::vector<std::string> linesOf(const std::filesystem::path& file) {
  std::vector<std::string> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool isSection(const std::string& line) { return line.size() >= 2 && line.front() == '[' && line.back() == ']'; }

struct Place {
  std::size_t keyLine;   // the line of the key; npos: none
  std::size_t insertAt;  // just past the section's last line; npos: no such section
};
constexpr std::size_t kNone = std::string::npos;

Place find(const std::vector<std::string>& lines, const std::string& section, const std::string& key) {
  Place place{kNone, kNone};
  bool inside = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string line = trimmed(lines[i]);
    if (isSection(line)) {
      if (inside) break;
      inside = line == "[" + section + "]";
      if (inside) place.insertAt = i + 1;
      continue;
    }
    if (!inside) continue;
    const auto equals = line.find('=');
    if (equals != std::string::npos && trimmed(line.substr(0, equals)) == key) place.keyLine = i;
    if (!line.empty()) place.insertAt = i + 1;
  }
  return place;
}

}  // namespace

std::filesystem::path userSettingsFile() {
  const char* config = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  const std::filesystem::path base =
      config && *config ? std::filesystem::path(config) : std::filesystem::path(home ? home : ".") / ".config";
  return base / "spindle" / "spindle.conf";
}

std::optional<long long> readSetting(const std::filesystem::path& file, const std::string& section,
                                     const std::string& key) {
  const std::vector<std::string> lines = linesOf(file);
  const std::size_t at = find(lines, section, key).keyLine;
  if (at == kNone) return std::nullopt;
  const std::string value = trimmed(lines[at].substr(lines[at].find('=') + 1));
  char* rest = nullptr;
  const long long number = std::strtoll(value.c_str(), &rest, 10);
  if (value.empty() || *rest != '\0') return std::nullopt;
  return number;
}

bool writeSetting(const std::filesystem::path& file, const std::string& section, const std::string& key,
                  long long value, std::string& error) {
  std::vector<std::string> lines = linesOf(file);
  const Place place = find(lines, section, key);
  const std::string entry = key + "=" + std::to_string(value);
  if (place.keyLine != kNone) {
    lines[place.keyLine] = entry;
  } else if (place.insertAt != kNone) {
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(place.insertAt), entry);
  } else {
    if (!lines.empty() && !trimmed(lines.back()).empty()) lines.emplace_back();
    lines.push_back("[" + section + "]");
    lines.push_back(entry);
  }
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  std::ofstream out(file, std::ios::trunc);
  for (const std::string& line : lines) out << line << '\n';
  out.flush();
  if (!out) error = "cannot write " + file.string();
  return static_cast<bool>(out);
}

}  // namespace spindle::control
