#include "dspreset/DecentSampler.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "core/Controllers.h"
#include "dspreset/ControlRegions.h"
#include "dspreset/Controls.h"
#include "instrument/Reporter.h"
#include "instrument/SampleTable.h"

namespace spindle::dspreset {

namespace fs = std::filesystem;

namespace {

// The nodes a sample's settings come from, nearest first: <sample>, the controls'
// settings for its <group>, the <group>, theirs for <groups>, <groups> (dspreset/Controls.h).
struct Scope {
  std::array<pugi::xml_node, 5> levels;
  pugi::xml_attribute find(const char* name) const {
    for (const pugi::xml_node& n : levels)
      if (pugi::xml_attribute a = n.attribute(name)) return a;
    return {};
  }
  // The attribute at one element, the controls' setting first: 0 sample, 1 group, 2 groups.
  pugi::xml_attribute at(int level, const char* name) const {
    if (level == 0) return levels[0].attribute(name);
    const pugi::xml_attribute set = levels[static_cast<size_t>(2 * level - 1)].attribute(name);
    return set ? set : levels[static_cast<size_t>(2 * level)].attribute(name);
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
  for (int level = 0; level < 3; ++level) db += decibels(s.at(level, "volume"));
  r.volume = static_cast<float>(db);
  const double semitones = s.at(0, "tuning").as_double(0.0) + s.at(1, "groupTuning").as_double(0.0) +
                           s.at(2, "globalTuning").as_double(0.0);
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
    r.loopCrossfadeFrames = std::max<int64_t>(0, s.find("loopCrossfade").as_llong(0));
  }
  const std::string trigger = s.find("trigger").as_string("attack");
  r.trigger = trigger == "release" ? Trigger::Release
              : trigger == "first" ? Trigger::First
              : trigger == "legato" ? Trigger::Legato
                                    : Trigger::Attack;
}

// One tag -> one voice group number (1, 2, ...), shared by tags and silencedByTags.
class Tags {
 public:
  int64_t id(const std::string& tag) {
    if (tag.empty()) return 0;
    return ids_.emplace(tag, static_cast<int64_t>(ids_.size()) + 1).first->second;
  }

 private:
  std::map<std::string, int64_t> ids_;
};

// One <sample>: where its settings come from, and what no control changes.
struct Slot {
  pugi::xml_node sample, group, groups;
  int groupIndex = 0;
  std::string path;               // as written; entered in the table once a region plays it
  std::vector<std::string> tags;  // the sample's and its group's
  uint8_t seqLength = 1, seqPosition = 1;
  float lorand = 0.0f, hirand = 1.0f;
};

struct Loader {
  instrument::Instrument& out;
  instrument::Reporter report;
  instrument::SampleTable table;
  Tags tags;
  fs::path folder;

  void ignoredOnce(const std::string& what) {
    if (report.firstTime(what)) report.warning(out.path.string(), 0, what + " not played (ignored)");
  }

  Built build(const Slot& slot, const Overrides& o) {
    const Scope s{{slot.sample, o.group(slot.groupIndex), slot.group, o.instrument(), slot.groups}};
    Built b;
    Region& r = b.region;
    const int root = s.note("rootNote", 60);
    r.lokey = midi7(s.note("loNote", 0));
    r.hikey = midi7(s.note("hiNote", 127));
    r.pitchKeycenter = midi7(root);
    r.lovel = midi7(s.find("loVel").as_int(1), 1);
    r.hivel = midi7(s.find("hiVel").as_int(127), 1);
    levels(s, r);
    envelope(s, r);
    playback(s, r);
    r.seqLength = slot.seqLength, r.seqPosition = slot.seqPosition;
    r.lorand = slot.lorand, r.hirand = slot.hirand;
    b.enabled = s.at(1, "enabled").as_bool(true);
    double gain = 1.0;
    for (const std::string& t : slot.tags) {
      const auto it = o.tags.find(t);
      if (it == o.tags.end()) continue;
      b.enabled = b.enabled && it->second.enabled;
      gain *= it->second.volume;
      if (r.polyphony < 0 && it->second.polyphony > 0) r.polyphony = it->second.polyphony, r.group = tags.id(t);
    }
    r.volume += static_cast<float>(gain > 0.0 ? 20.0 * std::log10(gain) : -144.0);
    if (r.group == 0 && !slot.tags.empty()) r.group = tags.id(slot.tags.front());
    const std::vector<std::string> silencedBy = splitTags(s.find("silencedByTags").as_string());
    r.offBy = silencedBy.empty() ? 0 : tags.id(silencedBy.front());
    return b;
  }

  // Turns within one <group>: round robin by seqPosition, random as equal shares.
  static void sequences(std::vector<Slot>& slots, size_t first) {
    int longest = 0;
    for (size_t i = first; i < slots.size(); ++i)
      longest = std::max(longest, Scope{{slots[i].sample, {}, slots[i].group, {}, slots[i].groups}}.find("seqPosition").as_int(1));
    for (size_t i = first; i < slots.size(); ++i) {
      Slot& slot = slots[i];
      const Scope s{{slot.sample, {}, slot.group, {}, slot.groups}};
      const std::string mode = s.find("seqMode").as_string("always");
      const int length = std::clamp(s.find("seqLength").as_int(0) > 0 ? s.find("seqLength").as_int(0) : longest, 1, 100);
      const int position = std::clamp(s.find("seqPosition").as_int(1), 1, length);
      if (mode == "round_robin") {
        slot.seqLength = static_cast<uint8_t>(length);
        slot.seqPosition = static_cast<uint8_t>(position);
      } else if (mode == "random" || mode == "true_random") {
        slot.lorand = static_cast<float>(position - 1) / static_cast<float>(length);
        slot.hirand = static_cast<float>(position) / static_cast<float>(length);
      }
    }
  }

  std::vector<Slot> slots(const pugi::xml_node& groups) {
    std::vector<Slot> found;
    int index = 0;
    for (const pugi::xml_node& g : groups.children("group")) {
      const size_t first = found.size();
      for (const pugi::xml_node& sample : g.children()) {
        const std::string kind = sample.name();
        if (kind == "oscillator") ignoredOnce("oscillators are");
        if (kind != "sample") continue;
        Slot slot;
        slot.sample = sample, slot.group = g, slot.groups = groups, slot.groupIndex = index;
        slot.path = sample.attribute("path").as_string();
        slot.tags = splitTags(sample.attribute("tags").as_string());
        for (std::string& t : splitTags(g.attribute("tags").as_string()))
          if (std::find(slot.tags.begin(), slot.tags.end(), t) == slot.tags.end()) slot.tags.push_back(std::move(t));
        const Scope s{{sample, {}, g, {}, groups}};
        if (s.find("glideTime").as_double(0.0) > 0.0) ignoredOnce("glide is");
        found.push_back(std::move(slot));
      }
      if (g.child("effects").first_child()) ignoredOnce("group <effects> are");
      sequences(found, first);
      ++index;
    }
    return found;
  }

  // Whether any position of `c` sets something `slot` takes.
  static bool reaches(const Control& c, const Slot& slot) {
    for (const std::vector<Setting>& position : c.positions)
      for (const Setting& s : position) {
        if (s.level == Setting::Level::Instrument) return true;
        if (s.level == Setting::Level::Group &&
            std::find(s.groups.begin(), s.groups.end(), slot.groupIndex) != s.groups.end())
          return true;
        for (const std::string& t : s.tags)
          if (std::find(slot.tags.begin(), slot.tags.end(), t) != slot.tags.end()) return true;
      }
    return false;
  }

  // What of `slot` the settings of `c` can meet: its group and tags, and its own and its
  // group's values of the attributes c sets (the rest of the slot changes nothing c does).
  static std::string signature(const Control& c, const Slot& slot) {
    std::string key = std::to_string(slot.groupIndex);
    for (const std::string& t : slot.tags) key += "," + t;
    for (const std::string& name : c.attributes)
      for (const pugi::xml_node& n : {slot.sample, slot.group})
        key += std::string("|") + (n.attribute(name.c_str()) ? "=" : "") + n.attribute(name.c_str()).as_string();
    return key;
  }

  void preset(const pugi::xml_node& root) {
    for (const char* part : {"effects", "modulators", "noteSequences", "buses"})
      if (root.child(part).first_child()) ignoredOnce(std::string("<") + part + "> is");
    const pugi::xml_node groups = root.child("groups");
    std::vector<std::string> groupTags;
    for (const pugi::xml_node& g : groups.children("group")) groupTags.push_back(g.attribute("tags").as_string());
    std::vector<std::string> ignored;
    const std::vector<Control> controls = readControls(root, groupTags, ignored);
    for (const std::string& what : ignored) ignoredOnce("<ui> and <midi> " + what + " are");
    for (const pugi::xml_node& cc : root.child("midi").children("cc"))
      for (const pugi::xml_node& b : cc.children("binding"))
        if (std::string(b.attribute("level").as_string()) != "ui") ignoredOnce("<midi> CC bindings straight to the engine are");
    if (root.child("midi").child("note")) ignoredOnce("<midi> note bindings are");
    const std::vector<Slot> all = slots(groups);
    // Overrides for the base and for every position of every control.
    Overrides base;
    for (const pugi::xml_node& t : root.child("tags").children("tag")) {
      Overrides::Tag& tag = base.tags[t.attribute("name").as_string()];
      tag.enabled = t.attribute("enabled").as_bool(true);
      tag.volume = std::max(0.0, t.attribute("volume").as_double(1.0));
      tag.polyphony = t.attribute("polyphony").as_int(-1);
    }
    const auto initialExcept = [&](Overrides& o, size_t skip) {
      for (size_t c = 0; c < controls.size(); ++c)
        if (c != skip) o.apply(controls[c].positions[static_cast<size_t>(controls[c].initial)], true);
    };
    std::vector<std::vector<Overrides>> at(controls.size());
    for (size_t c = 0; c < controls.size(); ++c)
      for (const std::vector<Setting>& position : controls[c].positions) {
        Overrides& o = at[c].emplace_back(base);
        initialExcept(o, c);
        o.apply(position);
      }
    initialExcept(base, controls.size());
    ControlRegions regions(controls, out);
    for (const Slot& slot : all) {
      const size_t before = out.regions.size();
      regions.add([&](int c, int p) { return c < 0 ? build(slot, base) : build(slot, at[static_cast<size_t>(c)][static_cast<size_t>(p)]); },
                  [&](int c) { return reaches(controls[static_cast<size_t>(c)], slot); },
                  [&](int c) { return signature(controls[static_cast<size_t>(c)], slot); });
      if (out.regions.size() == before) continue;  // never plays: no sample to load
      const int32_t sample = table.add(folder, slot.path);
      for (size_t i = before; i < out.regions.size(); ++i) out.regions[i].sampleIndex = sample;
    }
    regions.finish();
    for (const std::string& what : regions.problems) report.warning(out.path.string(), 0, what);
    for (const Control& c : controls) {
      out.controllerLabels.push_back({c.cc, c.label, c.steps});
      const int value = c.steps.empty() ? c.initial : controllers::stepValue(c.initial, static_cast<int>(c.steps.size()));
      out.controllerDefaults.push_back({c.cc, static_cast<float>(value) / 127.0f, false});
    }
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

instrument::Instrument loadPreset(const fs::path& file) {
  instrument::Instrument out;
  std::error_code ec;
  out.path = fs::is_directory(file, ec) ? presetIn(file) : file;
  out.name = file.stem().string();
  Loader loader{out, instrument::Reporter(out.diagnostics), instrument::SampleTable(out), {}, out.path.parent_path()};
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
