#include "control/SessionFile.h"

#include <unistd.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "control/SessionEffects.h"
#include "control/SessionHosts.h"
#include "control/SessionPartEffects.h"
#include "control/SessionValues.h"

namespace spindle::control {

namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

constexpr int kConnections = -2;
constexpr int kEffects = -3;
constexpr int kHost = -4;  // [host NAME]: the last of state.hosts

struct Parser {
  const std::filesystem::path& file;
  SessionState state;
  int part = -1;          // -1: [settings] or before any section; kConnections: [connections]
  bool inSection = false;
  std::string error;

  bool fail(int line, const std::string& message) {
    error = file.string() + ":" + std::to_string(line) + ": " + message;
    return false;
  }
  bool section(const std::string& name, int line);
  bool setting(const std::string& key, const std::string& value, int line);
  bool partValue(PartSettings& p, const std::string& key, const std::string& value, int line);
  bool connection(const std::string& key, const std::string& value, int line);
  bool parseLine(const std::string& raw, int line);
};

// One link per line: Spindle's port (short name) = the other port's full name; a port
// may appear on several lines.
bool Parser::connection(const std::string& key, const std::string& value, int line) {
  if (key.empty() || key.find(':') != std::string::npos) return fail(line, "expected one of Spindle's ports (out_L, midi_in ..), not '" + key + "'");
  if (value.empty()) return fail(line, "no port named for " + key);
  state.connections.push_back({key, value});
  return true;
}

bool Parser::section(const std::string& name, int line) {
  inSection = true;
  if (name == "settings") {
    part = -1;
    return true;
  }
  if (name == "effects") {
    part = kEffects;
    return true;
  }
  if (name == "connections") {
    part = kConnections;
    state.hasConnections = true;
    return true;
  }
  if (name.rfind("host ", 0) == 0 && !trim(name.substr(5)).empty()) {
    part = kHost;
    state.hosts.push_back(HostSettings{trim(name.substr(5)), {}, 9951, {}, {}});
    return true;
  }
  int n = 0;
  if (name.rfind("part ", 0) == 0 && toInt(trim(name.substr(5)), 1, kParts, n)) {
    part = n - 1;
    return true;
  }
  return fail(line, "unknown section [" + name + "] (expected [settings], [effects], [connections], [part 1] .. [part 16] or [host NAME])");
}

bool Parser::setting(const std::string& key, const std::string& value, int line) {
  EngineSettings& s = state.settings;
  bool ok = false;
  if (key == "polyphony") ok = toInt(value, 1, limits::kMaxVoices, s.polyphony);
  else if (key == "preload") ok = toInt(value, 512, 1 << 20, s.preloadFrames);
  else if (key == "quality") ok = toInt(value, 0, 3, s.quality);
  else if (key == "tempo") ok = toFloat(value, 1.0f, 999.0f, s.tempo);
  else if (key == "mpe-lower") ok = toInt(value, 0, 15, s.mpeLower);
  else if (key == "mpe-upper") ok = toInt(value, 0, 15, s.mpeUpper);
  else return fail(line, "unknown setting '" + key + "' (polyphony, preload, quality, tempo, mpe-lower, mpe-upper)");
  if (ok && s.mpeLower + s.mpeUpper > 14 && s.mpeLower > 0 && s.mpeUpper > 0)
    return fail(line, "MPE zones overlap: mpe-lower + mpe-upper is at most 14 when both are on");
  return ok || fail(line, "bad value '" + value + "' for " + key);
}

bool Parser::partValue(PartSettings& p, const std::string& key, const std::string& value, int line) {
  int flag = 0;
  bool ok = true;
  if (key == "instrument" || key == "scale" || key == "keymap") {
    std::filesystem::path path(value);
    if (path.is_relative() && !value.empty()) path = file.parent_path() / path;
    std::string& field = key == "instrument" ? p.instrument : (key == "scale" ? p.scale : p.keymap);
    field = value.empty() ? std::string() : path.lexically_normal().string();
  } else if (key == "volume") ok = toFloat(value, -144.0f, 12.0f, p.volumeDb);
  else if (key == "reverb-send") ok = toInt(value, 0, 127, p.reverbSend);
  else if (key == "chorus-send") ok = toInt(value, 0, 127, p.chorusSend);
  else if (key == "bypass") ok = parseBypassList(value, p.effectBypass);
  else if (key == "pan") ok = toFloat(value, -1.0f, 1.0f, p.pan);
  else if (key == "mute" || key == "solo") {
    ok = toInt(value, 0, 1, flag);
    (key == "mute" ? p.mute : p.solo) = flag != 0;
  } else
    return fail(line, "unknown part key '" + key +
                          "' (instrument, volume, pan, mute, solo, scale, keymap, reverb-send, chorus-send, bypass)");
  return ok || fail(line, "bad value '" + value + "' for " + key);
}

bool Parser::parseLine(const std::string& raw, int line) {
  const std::string text = trim(raw);
  if (text.empty() || text[0] == '#' || text[0] == ';') return true;
  if (text.front() == '[') {
    if (text.back() != ']') return fail(line, "section header without ']'");
    return section(trim(text.substr(1, text.size() - 2)), line);
  }
  const auto eq = text.find('=');
  if (eq == std::string::npos) return fail(line, "expected 'key = value' or '[section]'");
  if (!inSection) return fail(line, "'" + trim(text.substr(0, eq)) + "' outside a section");
  const std::string key = trim(text.substr(0, eq)), value = trim(text.substr(eq + 1));
  if (part == kConnections) return connection(key, value, line);
  if (part == kEffects) {
    std::string message;
    return parseEffectsLine(state.effects, key, value, message) || fail(line, message);
  }
  if (part == kHost) {
    std::string message;
    return parseHostLine(state.hosts.back(), key, value, message) || fail(line, message);
  }
  if (part < 0) return setting(key, value, line);
  return partValue(state.parts[static_cast<std::size_t>(part)], key, value, line);
}

}  // namespace

std::string formatSession(const SessionState& state) {
  std::ostringstream out;
  out << "# Spindle session\n[settings]\npolyphony = " << state.settings.polyphony
      << "\npreload = " << state.settings.preloadFrames << "\nquality = " << state.settings.quality << "\n";
  if (state.settings.tempo > 0.0f) out << "tempo = " << state.settings.tempo << "\n";
  if (state.settings.mpeLower > 0) out << "mpe-lower = " << state.settings.mpeLower << "\n";
  if (state.settings.mpeUpper > 0) out << "mpe-upper = " << state.settings.mpeUpper << "\n";
  for (int k = 0; k < kParts; ++k) {
    const PartSettings& p = state.parts[static_cast<std::size_t>(k)];
    if (p == PartSettings{}) continue;
    out << "\n[part " << k + 1 << "]\ninstrument = " << p.instrument << "\nvolume = " << p.volumeDb
        << "\npan = " << p.pan << "\nmute = " << (p.mute ? 1 : 0) << "\nsolo = " << (p.solo ? 1 : 0) << "\n";
    if (!p.scale.empty()) out << "scale = " << p.scale << "\n";
    if (!p.keymap.empty()) out << "keymap = " << p.keymap << "\n";
    out << "reverb-send = " << p.reverbSend << "\nchorus-send = " << p.chorusSend << "\n";
    if (p.effectBypass != 0) out << "bypass = " << formatBypassList(p.effectBypass) << "\n";
  }
  out << formatEffectsSection(state.effects);
  out << formatHostSections(state.hosts);
  if (state.hasConnections) {
    out << "\n[connections]\n";
    for (const ConnectionLink& link : state.connections) out << link.port << " = " << link.peer << "\n";
  }
  return out.str();
}

std::optional<SessionState> parseSession(const std::string& text, const std::filesystem::path& file,
                                         std::string& error) {
  Parser parser{file, {}, -1, false, {}};
  std::istringstream in(text);
  std::string raw;
  for (int line = 1; std::getline(in, raw); ++line) {
    if (!parser.parseLine(raw, line)) {
      error = parser.error;
      return std::nullopt;
    }
  }
  return parser.state;
}

bool writeSessionFile(const std::filesystem::path& file, const SessionState& state, std::string& error) {
  const std::filesystem::path temp = file.string() + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::trunc);
    out << formatSession(state);
    out.flush();
    if (!out) {
      error = "cannot write " + temp.string();
      std::error_code ignored;
      std::filesystem::remove(temp, ignored);
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(temp, file, ec);
  if (ec) {
    error = "cannot replace " + file.string() + ": " + ec.message();
    std::filesystem::remove(temp, ec);
    return false;
  }
  return true;
}

std::optional<SessionState> readSessionFile(const std::filesystem::path& file, std::string& error) {
  std::ifstream in(file);
  if (!in) {
    error = "cannot open session file " + file.string();
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parseSession(text.str(), file, error);
}

}  // namespace spindle::control
