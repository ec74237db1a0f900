#include "dspreset/DecentSampler.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "core/Controllers.h"
#include "dspreset/ClosingTags.h"
#include "dspreset/ControlRegions.h"
#include "dspreset/ConvolutionEffect.h"
#include "dspreset/Controls.h"
#include "dspreset/EffectBindings.h"
#include "dspreset/GlobalLfo.h"
#include "dspreset/GroupEffects.h"
#include "dspreset/InstrumentEffects.h"
#include "dspreset/Modulators.h"
#include "dspreset/SampleSettings.h"
#include "instrument/Reporter.h"
#include "instrument/SampleTable.h"

namespace spindle::dspreset {

namespace fs = std::filesystem;

namespace {

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
  Modulators modulators = {};

  void ignoredOnce(const std::string& what) {
    if (report.firstTime(what)) report.warning(out.path.string(), 0, what + " not played (ignored)");
  }

  Built build(const Slot& slot, const Overrides& o) {
    const Scope s{{slot.sample, o.group(slot.groupIndex), slot.group, o.instrument(), slot.groups}};
    Built b;
    Region& r = b.region;
    applySettings(s, r);
    applyGroupEffects(slot.group, o.group(slot.groupIndex), r, report, out.path.string());
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
    modulators.apply(slot.groupIndex, r);
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

  // What of the preset's <ui> and <midi> is not played is reported as it is read.
  std::vector<Control> controlsOf(const pugi::xml_node& root) {
    std::vector<std::string> groupTags;
    for (const pugi::xml_node& g : root.child("groups").children("group"))
      groupTags.push_back(g.attribute("tags").as_string());
    std::vector<std::string> ignored;
    std::vector<Control> controls = readControls(root, groupTags, ignored);
    for (const std::string& what : ignored) ignoredOnce("<ui> and <midi> " + what + " are");
    for (const pugi::xml_node& cc : root.child("midi").children("cc"))
      for (const pugi::xml_node& b : cc.children("binding"))
        if (std::string(b.attribute("level").as_string()) != "ui") ignoredOnce("<midi> CC bindings straight to the engine are");
    if (root.child("midi").child("note")) ignoredOnce("<midi> note bindings are");
    return controls;
  }

  // The settings <tags> gives each tag, before any control moves.
  static Overrides tagSettings(const pugi::xml_node& root) {
    Overrides base;
    for (const pugi::xml_node& t : root.child("tags").children("tag")) {
      Overrides::Tag& tag = base.tags[t.attribute("name").as_string()];
      tag.enabled = t.attribute("enabled").as_bool(true);
      tag.volume = std::max(0.0, t.attribute("volume").as_double(1.0));
      tag.polyphony = t.attribute("polyphony").as_int(-1);
    }
    return base;
  }

  // The settings under every position of every control, the others at their initial
  // positions: at[c][p] is control c at position p. `base` then becomes the settings
  // with every control at its initial position.
  static std::vector<std::vector<Overrides>> underPositions(const std::vector<Control>& controls, Overrides& base) {
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
    return at;
  }

  // Each sample's regions under the controls (ControlRegions), and its entry in the
  // sample table once some region plays it.
  void addRegions(const std::vector<Slot>& all, const std::vector<Control>& controls, const Overrides& base,
                  const std::vector<std::vector<Overrides>>& at) {
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
  }

  void preset(const pugi::xml_node& root) {
    for (const char* part : {"noteSequences", "buses"})
      if (root.child(part).first_child()) ignoredOnce(std::string("<") + part + "> is");
    const std::vector<EffectSlot> effects = readInstrumentEffects(root, folder, out, report);
    readGlobalLfos(root, effects, out, report);
    modulators = Modulators::read(root, out, report);
    const std::vector<Control> controls = controlsOf(root);
    bindEffects(controls, effects, out, report);
    const std::vector<Slot> all = slots(root.child("groups"));
    Overrides base = tagSettings(root);
    const std::vector<std::vector<Overrides>> at = underPositions(controls, base);
    addRegions(all, controls, base, at);
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

// The preset's XML in `doc`, its closing tags read as DecentSampler reads them (each
// renamed one a warning with its line); false, with an error, when it cannot be read.
bool parse(const fs::path& file, pugi::xml_document& doc, instrument::Reporter& report) {
  std::ifstream in(file, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) {
    report.error(file.string(), 0, "cannot be read");
    return false;
  }
  std::vector<TagMismatch> mismatches;
  text = matchClosingTags(text, mismatches);
  for (const TagMismatch& m : mismatches) {
    if (m.kind == TagMismatch::Kind::AfterRoot)
      report.warning(file.string(), m.line,
                     m.written + (m.lastLine > m.line ? " (through line " + std::to_string(m.lastLine) + ")" : "") +
                         " follows the root <" + m.expected + ">, closed on line " + std::to_string(m.openedLine) +
                         ", and is ignored, as DecentSampler reads it");
    else
      report.warning(file.string(), m.line, "closing tag </" + m.written + "> closes <" + m.expected + "> (line " +
                                                std::to_string(m.openedLine) + "), as DecentSampler reads it");
  }
  const pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size());
  if (parsed) return true;
  const auto line = 1 + std::count(text.begin(), text.begin() + std::min<ptrdiff_t>(parsed.offset, std::ssize(text)), '\n');
  report.error(file.string(), static_cast<int>(line), std::string("not readable as XML: ") + parsed.description());
  return false;
}

}  // namespace

bool looksLikePreset(std::span<const char> head) {
  return std::string_view(head.data(), head.size()).find("<DecentSampler") != std::string_view::npos;
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
  if (!parse(out.path, doc, loader.report)) return out;
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
