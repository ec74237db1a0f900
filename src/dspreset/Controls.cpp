#include "dspreset/Controls.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <utility>

#include "core/Controllers.h"
#include "dspreset/Translation.h"

namespace spindle::dspreset {

namespace {

using Level = Setting::Level;

// The CCs MIDI 1.0 leaves undefined, for controls the preset gives no CC of its own.
constexpr int kFirstFreeCc = 102, kLastFreeCc = 119;
constexpr int kKnobPositions = 128;

struct Parameter {
  const char* name;
  bool instrument, group, tag;  // the levels that take it
  const char* attribute;        // the <groups>/<group> attribute, or the tag setting
};

constexpr Parameter kParameters[] = {
    {"AMP_VOLUME", true, true, true, "volume"},  {"GLOBAL_TUNING", true, false, false, "globalTuning"},
    {"GROUP_TUNING", false, true, false, "groupTuning"}, {"PAN", true, true, false, "pan"},
    {"AMP_VEL_TRACK", true, true, false, "ampVelTrack"}, {"ENV_ATTACK", true, true, false, "attack"},
    {"ENV_DECAY", true, true, false, "decay"},   {"ENV_SUSTAIN", true, true, false, "sustain"},
    {"ENV_RELEASE", true, true, false, "release"}, {"ENABLED", false, true, false, "enabled"},
    {"TAG_ENABLED", false, false, true, "enabled"}, {"TAG_VOLUME", false, false, true, "volume"},
    {"POLYPHONY", false, false, true, "polyphony"},
};

const Parameter* parameterNamed(const std::string& name) {
  for (const Parameter& p : kParameters)
    if (name == p.name) return &p;
  return nullptr;
}

// The group effect parameters a control can move (dspreset/GroupEffects.h plays them).
bool groupEffectParameter(const std::string& name) {
  for (const char* p : {"FX_FILTER_FREQUENCY", "FX_FILTER_RESONANCE", "FX_FILTER_Q", "FX_FILTER_GAIN", "LEVEL", "FX_GAIN",
                        "FX_DRIVE", "FX_THRESHOLD", "FX_DRIVE_BOOST", "FX_OUTPUT_LEVEL"})
    if (name == p) return true;
  return false;
}

struct Reader {
  const std::vector<std::string>& groupTags;
  std::vector<std::string>& ignored;

  void ignore(std::string what) {
    if (std::find(ignored.begin(), ignored.end(), what) == ignored.end()) ignored.push_back(std::move(what));
  }

  std::vector<int> groupsOf(const pugi::xml_node& b) {
    std::vector<int> out;
    const pugi::xml_attribute index = b.attribute("groupIndex") ? b.attribute("groupIndex") : b.attribute("position");
    const std::string typed = b.attribute("groupTags").as_string(b.attribute("tags").as_string());
    if (!typed.empty()) {
      const std::vector<std::string> wanted = splitTags(typed);
      for (size_t g = 0; g < groupTags.size(); ++g)
        for (const std::string& t : splitTags(groupTags[g]))
          if (std::find(wanted.begin(), wanted.end(), t) != wanted.end()) {
            out.push_back(static_cast<int>(g));
            break;
          }
    } else if (index) {
      out.push_back(index.as_int(-1));
    }
    return out;
  }

  // The binding as a setting, for an input value in [lo, hi]; false when it is not played.
  bool setting(const pugi::xml_node& b, Setting& out) {
    const std::string level = b.attribute("level").as_string(), name = b.attribute("parameter").as_string();
    const std::string type = b.attribute("type").as_string();
    const Parameter* p = parameterNamed(name);
    const bool known = p && (type == "amp" || type == "general");
    if (type == "effect" && level == "instrument") return effectSetting(b, out);
    if (type == "effect" && level == "group" && groupEffectParameter(name)) {
      out.level = Level::Group;
      out.groups = groupsOf(b);
      out.attribute = groupEffectAttribute(b.attribute("effectIndex").as_int(0), name);
      out.onLoad = b.attribute("triggerOnLoad").as_bool(true);
      return true;
    }
    if (known && level == "instrument" && p->instrument) {
      out.level = Level::Instrument;
    } else if (known && level == "group" && p->group) {
      out.level = Level::Group;
      out.groups = groupsOf(b);
    } else if (known && level == "tag" && p->tag) {
      out.level = Level::Tag;
      out.tags = splitTags(b.attribute("identifier").as_string(b.attribute("tags").as_string()));
    } else {
      const std::string what = type == "note_sequence" ? std::string("note sequences")
                               : type == "effect"      ? std::string("effect parameters")
                                                       : name.empty() ? type : name;
      ignore("bindings to " + what + (level.empty() ? "" : " (level " + level + ")"));
      return false;
    }
    out.attribute = p->attribute;
    out.onLoad = b.attribute("triggerOnLoad").as_bool(true);
    return true;
  }

  // An instrument effect's parameter (dspreset/EffectBindings.h reads it): the effect
  // by effectIndex / position, or by tags.
  static bool effectSetting(const pugi::xml_node& b, Setting& out) {
    out.level = Level::Effect;
    out.attribute = b.attribute("parameter").as_string();
    const pugi::xml_attribute index = b.attribute("effectIndex") ? b.attribute("effectIndex") : b.attribute("position");
    out.effect = index.as_int(-1);
    out.tags = splitTags(b.attribute("tags").as_string());
    if (out.effect < 0 && out.tags.empty()) out.effect = 0;
    out.onLoad = b.attribute("triggerOnLoad").as_bool(true);
    return true;
  }

  // A button's states or a menu's options: one position each.
  bool steps(const pugi::xml_node& node, const char* child, Control& c) {
    for (const pugi::xml_node& s : node.children(child)) {
      c.steps.push_back(s.attribute("name").as_string(("State " + std::to_string(c.steps.size() + 1)).c_str()));
      std::vector<Setting>& settings = c.positions.emplace_back();
      for (const pugi::xml_node& b : s.children("binding")) {
        Setting set;
        if (!b.attribute("enabled").as_bool(true) || !setting(b, set)) continue;
        set.value = Translation(b).at(0.0, 0.0, 1.0);
        settings.push_back(std::move(set));
      }
    }
    const int n = static_cast<int>(c.positions.size());
    const int value = node.attribute("value").as_int(0);
    c.initial = std::clamp(std::strcmp(child, "option") == 0 ? value - 1 : value, 0, std::max(0, n - 1));
    return n > 1;
  }

  // A knob: 128 positions over minValue..maxValue.
  bool knob(const pugi::xml_node& node, Control& c) {
    const double lo = node.attribute("minValue").as_double(0.0), hi = node.attribute("maxValue").as_double(1.0);
    const bool integer = std::string(node.attribute("type").as_string()) == "integer";
    std::vector<std::pair<pugi::xml_node, Setting>> bindings;
    for (const pugi::xml_node& b : node.children("binding")) {
      Setting set;
      if (b.attribute("enabled").as_bool(true) && setting(b, set)) bindings.emplace_back(b, std::move(set));
    }
    if (bindings.empty() || !(hi > lo)) return false;
    for (int v = 0; v < kKnobPositions; ++v) {
      double value = lo + (hi - lo) * v / (kKnobPositions - 1);
      if (integer) value = std::round(value);
      std::vector<Setting>& settings = c.positions.emplace_back();
      for (const auto& [b, set] : bindings) {
        settings.push_back(set);
        settings.back().value = Translation(b).at(value, lo, hi);
      }
    }
    const double start = std::clamp(node.attribute("value").as_double(lo), lo, hi);
    c.initial = static_cast<int>(std::lround((start - lo) / (hi - lo) * (kKnobPositions - 1)));
    // The position the preset starts at holds the knob's exact value, so that it loads
    // as written (and not rounded to the nearest of 128 steps).
    std::vector<Setting>& first = c.positions[static_cast<size_t>(c.initial)];
    for (size_t i = 0; i < bindings.size(); ++i) first[i].value = Translation(bindings[i].first).at(start, lo, hi);
    return true;
  }
};

bool hasSettings(const Control& c) {
  return std::any_of(c.positions.begin(), c.positions.end(), [](const auto& p) { return !p.empty(); });
}

// The <groups>/<group> attributes any position of `c` sets (Control::attributes).
void collectAttributes(Control& c) {
  for (const auto& position : c.positions)
    for (const Setting& set : position)
      if (set.level != Setting::Level::Tag && set.level != Setting::Level::Effect &&
          std::find(c.attributes.begin(), c.attributes.end(), set.attribute) == c.attributes.end())
        c.attributes.push_back(set.attribute);
}

// The controls of the <ui>'s tabs that set something the engine plays, labelled by
// their own label, the <label> before them, or their kind and number. uiIndex receives
// each one's index among the <ui>'s controls (which <midi> bindings name).
std::vector<Control> uiControls(const pugi::xml_node& root, Reader& reader, std::vector<int>& uiIndex) {
  std::vector<Control> controls;
  int index = 0;
  for (const pugi::xml_node& tab : root.child("ui").children("tab")) {
    pugi::xml_node lastLabel;
    for (const pugi::xml_node& node : tab.children()) {
      const std::string kind = node.name();
      if (kind == "label") lastLabel = node;
      const bool stepped = kind == "button" || kind == "menu";
      if (!stepped && kind != "labeled-knob" && kind != "control") continue;
      Control c;
      const bool ok = stepped ? reader.steps(node, kind == "menu" ? "option" : "state", c) : reader.knob(node, c);
      ++index;
      if (!ok || !hasSettings(c)) continue;
      c.label = node.attribute("parameterName").as_string(node.attribute("label").as_string());
      if (c.label.empty() && lastLabel) c.label = lastLabel.attribute("text").as_string();
      if (c.label.empty()) c.label = kind + " " + std::to_string(index);
      collectAttributes(c);
      controls.push_back(std::move(c));
      uiIndex.push_back(index - 1);
    }
  }
  return controls;
}

// CCs: the preset's own <midi> bindings to a control first, then the free ones (a
// control left without one keeps cc -1).
void assignControllers(const pugi::xml_node& root, std::vector<Control>& controls, const std::vector<int>& uiIndex,
                       Reader& reader) {
  std::set<int> used;
  for (const pugi::xml_node& cc : root.child("midi").children("cc")) {
    const int number = cc.attribute("number").as_int(-1);
    used.insert(number);
    for (const pugi::xml_node& b : cc.children("binding")) {
      const pugi::xml_attribute at = b.attribute("controlIndex") ? b.attribute("controlIndex") : b.attribute("position");
      if (std::string(b.attribute("level").as_string()) != "ui" || number < 0 || number > 119) continue;
      const auto it = std::find(uiIndex.begin(), uiIndex.end(), at.as_int(-1));
      if (it != uiIndex.end()) controls[static_cast<size_t>(it - uiIndex.begin())].cc = number;
    }
  }
  int next = kFirstFreeCc;
  for (Control& c : controls) {
    if (c.cc >= 0) continue;
    while (next <= kLastFreeCc && used.count(next)) ++next;
    if (next > kLastFreeCc) {
      reader.ignore("controls beyond the 18 free controllers (CC 102-119)");
      continue;
    }
    c.cc = next++;
  }
}

}  // namespace

std::string groupEffectAttribute(int effect, const std::string& parameter) {
  return "_fx" + std::to_string(effect) + "_" + parameter;
}

// As pugixml reads a boolean attribute: 1, true, yes (any case) are true.
bool isTrue(const std::string& text) {
  return !text.empty() && std::strchr("1tTyY", text.front()) != nullptr;
}

int Control::positionOf(int midiValue) const {
  const int n = static_cast<int>(positions.size());
  return steps.empty() ? std::clamp(midiValue, 0, n - 1) : controllers::stepOf(midiValue, n);
}

Overrides::Overrides() : instrument_(doc_.append_child("instrument")) {}

Overrides::Overrides(const Overrides& other) : tags(other.tags) {
  doc_.reset(other.doc_);
  instrument_ = doc_.child("instrument");
  for (const pugi::xml_node& g : doc_.children("group")) groups_[g.attribute("_group").as_int()] = g;
}

pugi::xml_node Overrides::group(int index) const {
  const auto it = groups_.find(index);
  return it == groups_.end() ? pugi::xml_node() : it->second;
}

void Overrides::apply(const std::vector<Setting>& settings, bool loading) {
  const auto set = [](pugi::xml_node node, const Setting& s) {
    pugi::xml_attribute a = node.attribute(s.attribute.c_str());
    if (!a) a = node.append_attribute(s.attribute.c_str());
    a.set_value(s.value.c_str());
  };
  for (const Setting& s : settings) {
    if (loading && !s.onLoad) continue;
    if (s.level == Setting::Level::Instrument) set(instrument_, s);
    if (s.level == Setting::Level::Group)
      for (int g : s.groups) {
        auto [it, added] = groups_.try_emplace(g);
        if (added) {
          it->second = doc_.append_child("group");
          it->second.append_attribute("_group").set_value(g);  // for the copy constructor
        }
        set(it->second, s);
      }
    if (s.level != Setting::Level::Tag) continue;
    for (const std::string& t : s.tags) {
      Tag& tag = tags[t];
      if (s.attribute == "enabled") tag.enabled = isTrue(s.value);
      if (s.attribute == "volume") tag.volume = std::max(0.0, std::atof(s.value.c_str()));
      if (s.attribute == "polyphony") tag.polyphony = std::max(1, std::atoi(s.value.c_str()));
    }
  }
}

std::vector<std::string> splitTags(const std::string& list) {
  std::vector<std::string> out;
  for (size_t at = 0; at <= list.size();) {
    const size_t end = std::min(list.find(',', at), list.size());
    std::string t = list.substr(at, end - at);
    t.erase(0, t.find_first_not_of(" \t"));
    t.erase(t.find_last_not_of(" \t") + 1);
    if (!t.empty()) out.push_back(std::move(t));
    at = end + 1;
  }
  return out;
}

std::vector<Control> readControls(const pugi::xml_node& root, const std::vector<std::string>& groupTags,
                                  std::vector<std::string>& ignored) {
  Reader reader{groupTags, ignored};
  std::vector<int> uiIndex;
  std::vector<Control> controls = uiControls(root, reader, uiIndex);
  assignControllers(root, controls, uiIndex, reader);
  std::erase_if(controls, [](const Control& c) { return c.cc < 0; });
  return controls;
}

}  // namespace spindle::dspreset
