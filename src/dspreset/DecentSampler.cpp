#include "dspreset/DecentSampler.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "sfz/Reporter.h"
#include "sfz/SampleTable.h"

namespace spindle::dspreset {

namespace fs = std::filesystem;

namespace {

// The nodes a sample's settings come from, nearest first: <sample>, <group>, <groups>.
struct Scope {
  std::array<pugi::xml_node, 3> levels;
  pugi::xml_attribute find(const char* name) const {
    for (const pugi::xml_node& n : levels)
      if (pugi::xml_attribute a = n.attribute(name)) return a;
    return {};
  }
  double number(const char* name, double fallback) const {
    const pugi::xml_attribute a = find(name);
    return a ? a.as_double(fallback) : fallback;
  }
  int note(const char* name, int fallback) const {
    const pugi::xml_attribute a = find(name);
    const int n = a ? noteNumber(a.as_string()) : -1;
    return n >= 0 ? n : fallback;
  }
};

// "3dB" -> 3; a plain factor -> 20 log10(factor).
double decibels(const pugi::xml_attribute& a) {
  if (!a) return 0.0;
  const std::string text = a.as_string();
  const double value = a.as_double(1.0);
  if (text.size() > 2 && (text.ends_with("dB") || text.ends_with("db") || text.ends_with("DB"))) return value;
  return value > 0.0 ? 20.0 * std::log10(value) : -144.0;
}

uint8_t midi7(int v, int lo = 0) { return static_cast<uint8_t>(std::clamp(v, lo, 127)); }

// Volume and tuning add up over the levels; the rest is inherited.
void levels(const Scope& s, Region& r) {
  double db = 0.0;
  for (const pugi::xml_node& n : s.levels) db += decibels(n.attribute("volume"));
  r.volume = static_cast<float>(db);
  const double semitones = s.levels[0].attribute("tuning").as_double(0.0) +
                           s.levels[1].attribute("groupTuning").as_double(0.0) +
                           s.levels[2].attribute("globalTuning").as_double(0.0);
  r.tune = static_cast<float>(semitones * 100.0);
  r.pan = static_cast<float>(std::clamp(s.number("pan", 0.0), -100.0, 100.0));
  r.ampVeltrack = static_cast<float>(std::clamp(s.number("ampVelTrack", 1.0), 0.0, 1.0) * 100.0);
  r.pitchKeytrack = static_cast<float>(s.number("pitchKeyTrack", 1.0) * 100.0);
}

void envelope(const Scope& s, Region& r) {
  r.ampeg.attack = static_cast<float>(std::max(0.0, s.number("attack", 0.0)));
  r.ampeg.decay = static_cast<float>(std::max(0.0, s.number("decay", 0.0)));
  r.ampeg.sustain = static_cast<float>(std::clamp(s.number("sustain", 1.0), 0.0, 1.0) * 100.0);
  r.ampeg.release = static_cast<float>(std::max(0.001, s.number("release", 0.1)));
}

void playback(const Scope& s, Region& r) {
  const double start = s.number("start", 0.0);  // clamped before the conversion; NaN is 0
  r.offset = std::isnan(start) ? 0 : static_cast<int64_t>(std::clamp(start, 0.0, 4294967296.0));
  if (const pugi::xml_attribute end = s.find("end")) r.end = std::max<int64_t>(0, end.as_llong());
  r.loopModeSet = true;
  r.loopMode = s.find("loopEnabled").as_bool(false) ? LoopMode::LoopContinuous : LoopMode::NoLoop;
  if (r.loopMode == LoopMode::LoopContinuous) {
    if (const pugi::xml_attribute a = s.find("loopStart")) r.loopStart = a.as_llong();
    if (const pugi::xml_attribute a = s.find("loopEnd")) r.loopEnd = a.as_llong();
  }
  const std::string trigger = s.find("trigger").as_string("attack");
  r.trigger = trigger == "release" ? Trigger::Release
              : trigger == "first" ? Trigger::First
              : trigger == "legato" ? Trigger::Legato
                                    : Trigger::Attack;
}

// One tag -> one choke group number (1, 2, ...), shared by tags and silencedByTags.
class Tags {
 public:
  int64_t id(const std::string& list) {
    const std::string first = list.substr(0, list.find(','));
    if (first.empty()) return 0;
    return ids_.emplace(first, static_cast<int64_t>(ids_.size()) + 1).first->second;
  }

 private:
  std::map<std::string, int64_t> ids_;
};

struct Loader {
  sfz::Instrument& out;
  sfz::Reporter report;
  sfz::SampleTable table;
  Tags tags;
  fs::path folder;

  void ignoredOnce(const char* what) {
    if (report.firstTime(what)) report.warning(out.path.string(), 0, std::string(what) + " not played (ignored)");
  }

  Region region(const Scope& s) {
    Region r;
    const int root = s.note("rootNote", 60);
    r.lokey = midi7(s.note("loNote", 0));
    r.hikey = midi7(s.note("hiNote", 127));
    r.pitchKeycenter = midi7(root);
    r.lovel = midi7(s.find("loVel").as_int(1), 1);
    r.hivel = midi7(s.find("hiVel").as_int(127), 1);
    levels(s, r);
    envelope(s, r);
    playback(s, r);
    r.group = tags.id(s.find("tags").as_string());
    r.offBy = tags.id(s.find("silencedByTags").as_string());
    if (s.find("loopCrossfade").as_int(0) > 0) ignoredOnce("loop crossfades are");
    if (s.find("glideTime").as_double(0.0) > 0.0) ignoredOnce("glide is");
    return r;
  }

  // Turns within one <group>: round robin by seqPosition, random as equal shares.
  void sequences(std::vector<Region>& regions, const std::vector<Scope>& scopes) {
    int longest = 0;
    for (const Scope& s : scopes) longest = std::max(longest, s.find("seqPosition").as_int(1));
    for (size_t i = 0; i < regions.size(); ++i) {
      const Scope& s = scopes[i];
      const std::string mode = s.find("seqMode").as_string("always");
      const int length = std::clamp(s.find("seqLength").as_int(0) > 0 ? s.find("seqLength").as_int(0) : longest, 1, 100);
      const int position = std::clamp(s.find("seqPosition").as_int(1), 1, length);
      Region& r = regions[i];
      if (mode == "round_robin") {
        r.seqLength = static_cast<uint8_t>(length);
        r.seqPosition = static_cast<uint8_t>(position);
      } else if (mode == "random" || mode == "true_random") {
        r.lorand = static_cast<float>(position - 1) / static_cast<float>(length);
        r.hirand = static_cast<float>(position) / static_cast<float>(length);
      }
    }
  }

  void group(const pugi::xml_node& groups, const pugi::xml_node& g) {
    if (!g.attribute("enabled").as_bool(true)) return;
    std::vector<Region> regions;
    std::vector<Scope> scopes;
    for (const pugi::xml_node& sample : g.children()) {
      const std::string kind = sample.name();
      if (kind == "oscillator") ignoredOnce("oscillators are");
      if (kind != "sample") continue;
      const Scope s{{sample, g, groups}};
      Region r = region(s);
      r.sampleIndex = table.add(folder, sample.attribute("path").as_string());
      regions.push_back(r);
      scopes.push_back(s);
    }
    sequences(regions, scopes);
    for (const Region& r : regions) {
      out.regions.push_back(r);
      out.origins.push_back({out.path.string(), 0});
    }
  }

  void preset(const pugi::xml_node& root) {
    for (const char* part : {"effects", "ui", "modulators", "noteSequences", "buses"})
      if (root.child(part)) ignoredOnce((std::string("<") + part + "> is").c_str());
    if (root.child("midi")) ignoredOnce("<midi> bindings are");
    const pugi::xml_node groups = root.child("groups");
    for (const pugi::xml_node& g : groups.children("group")) group(groups, g);
  }
};

fs::path presetIn(const fs::path& bundle) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(bundle, ec))
    if (entry.path().extension() == ".dspreset") found.push_back(entry.path());
  std::sort(found.begin(), found.end());
  return found.empty() ? fs::path() : found.front();
}

}  // namespace

bool looksLikePreset(std::span<const char> head) {
  return std::string_view(head.data(), head.size()).find("<DecentSampler") != std::string_view::npos;
}

int noteNumber(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  if (text.empty()) return -1;
  if (std::isdigit(static_cast<unsigned char>(text.front()))) {
    int n = 0;
    for (char c : text) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
      n = n * 10 + (c - '0');
      if (n > 127) return -1;
    }
    return n;
  }
  static constexpr int kPitch[] = {9, 11, 0, 2, 4, 5, 7};  // a b c d e f g
  const int letter = std::tolower(static_cast<unsigned char>(text.front())) - 'a';
  if (letter < 0 || letter > 6) return -1;
  int pitch = kPitch[letter];
  size_t at = 1;
  if (at < text.size() && (text[at] == '#' || text[at] == 'b')) pitch += text[at++] == '#' ? 1 : -1;
  int sign = 1, octave = 0;
  if (at < text.size() && text[at] == '-') sign = -1, ++at;
  if (at >= text.size()) return -1;
  for (; at < text.size(); ++at) {
    if (!std::isdigit(static_cast<unsigned char>(text[at]))) return -1;
    octave = octave * 10 + (text[at] - '0');
    if (octave > 10) return -1;
  }
  const int n = 12 * (sign * octave + 2) + pitch;  // C3 = 60
  return n >= 0 && n <= 127 ? n : -1;
}

sfz::Instrument loadPreset(const fs::path& file) {
  sfz::Instrument out;
  std::error_code ec;
  out.path = fs::is_directory(file, ec) ? presetIn(file) : file;
  out.name = file.stem().string();
  Loader loader{out, sfz::Reporter(out.diagnostics), sfz::SampleTable(out), {}, out.path.parent_path()};
  if (out.path.empty()) {
    loader.report.error(file.string(), 0, "no .dspreset in this bundle");
    return out;
  }
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_file(out.path.c_str());
  if (!parsed) {
    loader.report.error(out.path.string(), 0, std::string("not readable as XML: ") + parsed.description() +
                                                  " at byte " + std::to_string(parsed.offset));
    return out;
  }
  const pugi::xml_node root = doc.child("DecentSampler");
  if (!root) {
    loader.report.error(out.path.string(), 0, "not a DecentSampler preset (no <DecentSampler> root)");
    return out;
  }
  out.ok = true;
  loader.preset(root);
  return out;
}

}  // namespace spindle::dspreset
