// Plugin, its main thread: the state the host saves and loads (the instrument is loaded
// there, never on the audio thread), the parameters' descriptions and values, the log.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <sstream>

#include "clap/Plugin.h"

namespace spindle::clap {

namespace {

constexpr const char* kStateHeader = "spindle-clap-state 1";

}  // namespace

// A few lines of text: the header, "level <dB>" (printed to round-trip the float),
// "controls <v1> .. <v32>" (-1: unset), and "instrument <path>" up to the line's end.
std::string writeState(const SavedState& state) {
  char level[64];
  std::snprintf(level, sizeof level, "level %.9g\n", static_cast<double>(state.levelDb));
  std::string text = std::string(kStateHeader) + "\n" + level + "controls";
  for (const float value : state.controls) {
    char number[32];
    std::snprintf(number, sizeof number, " %.9g", static_cast<double>(value));
    text += number;
  }
  text += "\n";
  if (!state.instrument.empty()) text += "instrument " + state.instrument + "\n";
  if (!state.instrumentInHome.empty()) text += "instrument-in-home " + state.instrumentInHome + "\n";
  return text;
}

bool readState(const std::string& text, SavedState& state) {
  std::istringstream lines(text);
  std::string line;
  if (!std::getline(lines, line) || line != kStateHeader) return false;
  SavedState read;
  while (std::getline(lines, line)) {
    if (line.rfind("level ", 0) == 0) {
      const float db = std::strtof(line.c_str() + 6, nullptr);
      read.levelDb = std::isfinite(db) ? std::clamp(db, plugin::kMinLevelDb, plugin::kMaxLevelDb) : 0.0f;
    } else if (line.rfind("controls ", 0) == 0) {
      std::istringstream values(line.substr(9));
      for (float& value : read.controls) {
        float v = kControlUnset;
        if (!(values >> v)) break;
        value = std::isfinite(v) ? std::clamp(v, kControlUnset, 127.0f) : kControlUnset;
      }
    } else if (line.rfind("instrument ", 0) == 0) {
      read.instrument = line.substr(11);
    } else if (line.rfind("instrument-in-home ", 0) == 0) {
      read.instrumentInHome = line.substr(19);
    }
  }
  state = read;
  return true;
}

std::string homeRelative(const std::string& path) {
  const char* home = std::getenv("HOME");
  if (!home || !*home || path.empty()) return {};
  const std::filesystem::path relative = std::filesystem::path(path).lexically_relative(home);
  if (relative.empty() || relative.is_absolute() || *relative.begin() == "..") return {};
  return relative.string();
}

std::string findInstrument(const SavedState& state) {
  std::error_code error;
  if (state.instrument.empty() || std::filesystem::exists(state.instrument, error)) return state.instrument;
  const char* home = std::getenv("HOME");
  if (home && *home && !state.instrumentInHome.empty()) {
    const std::filesystem::path moved = std::filesystem::path(home) / state.instrumentInHome;
    if (std::filesystem::exists(moved, error)) return moved.string();
  }
  return state.instrument;
}

bool Plugin::saveState(const clap_ostream_t& stream) {
  SavedState state;
  state.levelDb = level_.load(std::memory_order_relaxed);
  state.instrument = instrument_;
  state.instrumentInHome = homeRelative(instrument_);
  for (std::size_t n = 0; n < state.controls.size(); ++n)
    state.controls[n] = controlValues_[n].load(std::memory_order_relaxed);
  if (state.instrument.find('\n') != std::string::npos) {
    log(CLAP_LOG_ERROR, "cannot save an instrument path with a line break: " + state.instrument);
    return false;
  }
  const std::string text = writeState(state);
  for (std::size_t written = 0; written < text.size();) {
    const int64_t n = stream.write(&stream, text.data() + written, text.size() - written);
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

// The saved level and instrument play from here: a running core loads them on the loader
// thread (the library before plays until the new one is ready), else activate() does.
bool Plugin::loadState(const clap_istream_t& stream) {
  if (!mayLoad("state load")) return false;
  std::string text;
  char buffer[4096];
  for (int64_t n; (n = stream.read(&stream, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  SavedState state;
  if (!readState(text, state)) {
    log(CLAP_LOG_ERROR, "not a Spindle CLAP state");
    return false;
  }
  level_.store(state.levelDb, std::memory_order_relaxed);
  levelSet_.store(true, std::memory_order_relaxed);
  levelPending_.store(false, std::memory_order_relaxed);
  instrument_ = findInstrument(state);
  if (instrument_ != state.instrument) log(CLAP_LOG_INFO, "the instrument moved: playing " + instrument_);
  for (std::size_t n = 0; n < state.controls.size(); ++n)
    controlValues_[n].store(state.controls[n], std::memory_order_relaxed);
  controlsVersion_.fetch_add(1, std::memory_order_release);  // the audio thread sends them again
  if (hostParams_) hostParams_->rescan(host_, CLAP_PARAM_RESCAN_VALUES);  // the level moved
  if (core_) worker_->submit(*core_, instrument_, state.levelDb);  // else activate() loads it
  return true;
}

// Loading parses files and allocates: never on the audio thread, which a host that
// offers thread-check can tell.
bool Plugin::mayLoad(const char* what) {
  if (!threadCheck_ || !threadCheck_->is_audio_thread(host_)) return true;
  log(CLAP_LOG_HOST_MISBEHAVING, std::string(what) + " called on the audio thread: refused");
  return false;
}

// activate(), the core's controlMutex() held. A path that does not load leaves the last
// one playing; one that does has its underruns counted from the next block.
void Plugin::playInstrument(const std::string& path) {
  if (core_->loadInstrument(path)) {
    newInstrument_.store(true, std::memory_order_release);
    publishControls(core_->loadedControls());
  }
  instrument_ = core_->loadedPath();
  takeLibraryNames();
}

// The library's control labels name the control params; its key labels are the notes'.
void Plugin::takeLibraryNames() {
  const plugin::ControlMap& controls = core_->loadedControls();
  if (controls.count != controlLabels_.count || controls.labelBytes != controlLabels_.labelBytes ||
      std::memcmp(controls.labels.data(), controlLabels_.labels.data(), controls.labelBytes) != 0) {
    controlLabels_ = controls;
    if (hostParams_) hostParams_->rescan(host_, CLAP_PARAM_RESCAN_INFO | CLAP_PARAM_RESCAN_TEXT);
  }
  if (noteNames_.size() == core_->loadedKeyLabels().size() &&
      std::equal(noteNames_.begin(), noteNames_.end(), core_->loadedKeyLabels().begin(),
                 [](const auto& a, const auto& b) { return a.key == b.key && a.label == b.label; }))
    return;
  noteNames_ = core_->loadedKeyLabels();
  if (hostNoteName_ && hostNoteName_->changed) hostNoteName_->changed(host_);
}

// Each name for its key on every channel and port.
bool Plugin::noteName(uint32_t index, clap_note_name_t& name) const {
  if (index >= noteNames_.size()) return false;
  name = clap_note_name_t{};
  std::snprintf(name.name, sizeof name.name, "%s", noteNames_[index].label.c_str());
  name.port = -1;
  name.channel = -1;
  name.key = static_cast<int16_t>(noteNames_[index].key);
  return true;
}

void Plugin::log(clap_log_severity severity, const std::string& text) const {
  if (hostLog_ && hostLog_->log)
    hostLog_->log(host_, severity, ("spindle.clap: " + text).c_str());
  else
    std::fprintf(stderr, "spindle.clap: %s\n", text.c_str());
}

bool Plugin::paramInfo(uint32_t index, clap_param_info_t& info) const {
  struct Description {
    const char* name;
    double min, max, initial;
  };
  static constexpr Description kParams[kFirstControlParam] = {
      {"Level (dB)", plugin::kMinLevelDb, plugin::kMaxLevelDb, 0.0},
      {"Voices", 0.0, 4096.0, 0.0},
      {"Underruns", 0.0, 1e9, 0.0},
      {"Note-on latency (ms)", 0.0, 1000.0, 0.0},
      {"Cache fill (%)", 0.0, 100.0, 0.0},
  };
  if (index >= kParamCount) return false;
  info = clap_param_info_t{};
  info.id = index;
  if (index >= kFirstControlParam) {  // a MIDI CC value, or -1: the library's own
    // Modulated for the part, or per CLAP note (by id, key or channel: Notes.h).
    info.flags = CLAP_PARAM_IS_AUTOMATABLE | CLAP_PARAM_IS_STEPPED | CLAP_PARAM_IS_MODULATABLE |
                 CLAP_PARAM_IS_MODULATABLE_PER_NOTE_ID | CLAP_PARAM_IS_MODULATABLE_PER_KEY |
                 CLAP_PARAM_IS_MODULATABLE_PER_CHANNEL;
    std::snprintf(info.name, sizeof info.name, "%s", controlName(index - kFirstControlParam).c_str());
    std::snprintf(info.module, sizeof info.module, "Controls");
    info.min_value = info.default_value = kControlUnset;
    info.max_value = 127.0;
    return true;
  }
  info.flags = index == kLevelParam ? CLAP_PARAM_IS_AUTOMATABLE : CLAP_PARAM_IS_READONLY;
  std::snprintf(info.name, sizeof info.name, "%s", kParams[index].name);
  std::snprintf(info.module, sizeof info.module, "%s", index == kLevelParam ? "" : "Health");
  info.min_value = kParams[index].min;
  info.max_value = kParams[index].max;
  info.default_value = kParams[index].initial;
  return true;
}

bool Plugin::paramValue(clap_id id, double& value) const {
  if (id >= kParamCount) return false;
  if (id >= kFirstControlParam) value = controlValues_[id - kFirstControlParam].load(std::memory_order_relaxed);
  else value = id == kLevelParam ? level_.load(std::memory_order_relaxed) : health_[id].load(std::memory_order_relaxed);
  return true;
}

}  // namespace spindle::clap
