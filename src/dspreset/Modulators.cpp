#include "dspreset/Modulators.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

#include "dspreset/Controls.h"
#include "dspreset/ModulatorSpec.h"

namespace spindle::dspreset {

namespace {

struct Reader {
  instrument::Reporter& report;
  const std::string& file;
  Modulators::Impl& out;

  void notPlayed(const std::string& what, const std::string& why) {
    if (report.firstTime("modulators: " + what)) report.warning(file, 0, what + " not played (" + why + ")");
  }

  static float number(const pugi::xml_node& n, const char* name, double fallback) {
    return static_cast<float>(n.attribute(name).as_double(fallback));
  }

  // A voice-scope source, or false (reported) for a global one.
  bool voiceScope(const pugi::xml_node& m, const char* fallback) {
    const std::string scope = m.attribute("scope").as_string(fallback);
    if (scope == "voice") return true;
    notPlayed(std::string("global-scope <") + m.name() + ">",
              "one envelope or draw shared by all voices has no per-voice source in Spindle; use scope=\"voice\"");
    return false;
  }

  bool lfo(const pugi::xml_node& m, SourceSpec& s) {
    const std::string shape = m.attribute("shape").as_string("sine");
    s.wave = shape == "square" ? 3.0f : shape == "saw" ? 6.0f : shape == "triangle" ? 0.0f : 1.0f;
    s.unipolar = shape == "square";
    s.freq = std::max(0.0f, number(m, "frequency", 1.0));
    s.delay = std::max(0.0f, number(m, "delayTime", 0.0));
    s.clock = std::string(m.attribute("scope").as_string("global")) == "voice" ? 0 : 1;
    return true;
  }

  // Curves -100..100: negative bends a stage fast first (logarithmic), positive slow
  // first (exponential), as far as the flex EG's power shapes (+-4 at +-100) follow.
  bool envelope(const pugi::xml_node& m, SourceSpec& s) {
    s.attack = std::max(0.0f, number(m, "attack", 0.0));
    s.decay = std::max(0.0f, number(m, "decay", 0.0));
    s.sustain = std::clamp(number(m, "sustain", 1.0), 0.0f, 1.0f);
    s.release = std::max(0.0f, number(m, "release", 0.0));
    s.attackShape = number(m, "attackCurve", -100.0) / 25.0f;
    s.decayShape = -number(m, "decayCurve", 100.0) / 25.0f;
    s.releaseShape = -number(m, "releaseCurve", 100.0) / 25.0f;
    return voiceScope(m, "voice");
  }

  bool random(const pugi::xml_node& m, SourceSpec& s) {
    s.wave = 12.0f;
    const std::string mode = m.attribute("mode").as_string("note_on");
    s.freq = mode == "periodic" ? std::max(0.0f, number(m, "frequency", 1.0)) : 0.0f;
    s.seed = m.attribute("seed") ? m.attribute("seed").as_uint() * 2u + 1u : 0u;
    return voiceScope(m, "global");
  }

  bool source(const pugi::xml_node& m, SourceSpec& s) {
    const std::string kind = m.name();
    s.amount = std::clamp(number(m, "modAmount", 1.0), 0.0f, 1.0f);
    if (kind == "lfo") return s.kind = SourceSpec::Kind::Lfo, lfo(m, s);
    if (kind == "envelope") return s.kind = SourceSpec::Kind::Envelope, envelope(m, s);
    if (kind == "random") return s.kind = SourceSpec::Kind::Random, random(m, s);
    if (kind == "midiVelocity") return s.kind = SourceSpec::Kind::Velocity, voiceScope(m, "voice");
    if (kind == "midiCC") {
      s.kind = SourceSpec::Kind::Cc;
      s.cc = m.attribute("number").as_int(-1);
      if (s.cc >= 0 && s.cc <= 127) return true;
      report.warning(file, 0, "<midiCC> without a number 0..127 (\"" + std::string(m.attribute("number").as_string()) +
                                  "\") not played");
      return false;
    }
    // MPE's per-note timbre (CC74) and pressure (channel aftertouch, controller 129):
    // the note's own in an MPE zone (engine/parts/Expression.h), the channel's outside one.
    if (kind == "mpeTimbre" || kind == "mpePressure") {
      s.kind = SourceSpec::Kind::Cc;
      s.cc = kind == "mpeTimbre" ? 74 : 129;
      return true;
    }
    notPlayed("<" + kind + "> in <modulators>", "unknown modulator");
    return false;
  }

  std::vector<int> groupsOf(const pugi::xml_node& b) const {
    for (const char* name : {"groupIndex", "position"})
      if (b.attribute(name)) return {b.attribute(name).as_int(0)};
    std::vector<std::string> wanted = splitTags(b.attribute("groupTags").as_string(b.attribute("tags").as_string()));
    std::vector<int> found;
    int index = 0;
    for (const pugi::xml_node& g : out.groups.children("group")) {
      const std::vector<std::string> tags = splitTags(g.attribute("tags").as_string());
      for (const std::string& t : wanted)
        if (std::find(tags.begin(), tags.end(), t) != tags.end()) {
          found.push_back(index);
          break;
        }
      ++index;
    }
    if (wanted.empty()) found.push_back(0);
    return found;
  }

  // The parameter of an amp binding, or false.
  static bool ampParam(const std::string& p, bool instrument, Param& param) {
    static const std::pair<const char*, Param> kParams[] = {
        {"AMP_VOLUME", Param::Volume},        {"PAN", Param::Pan},
        {"ENV_ATTACK", Param::EnvAttack},     {"ENV_DECAY", Param::EnvDecay},
        {"ENV_SUSTAIN", Param::EnvSustain},   {"ENV_RELEASE", Param::EnvRelease}};
    if (p == (instrument ? "GLOBAL_TUNING" : "GROUP_TUNING")) return param = Param::Tuning, true;
    for (const auto& [name, value] : kParams)
      if (p == name) return param = value, true;
    return false;
  }

  // What the binding moves, or false (reported, or an instrument effect: the bus effects').
  bool target(const pugi::xml_node& b, const SourceSpec& s, BindingSpec& spec) {
    const std::string type = b.attribute("type").as_string(), level = b.attribute("level").as_string();
    const std::string p = b.attribute("parameter").as_string();
    spec.instrument = level == "instrument";
    if (type == "effect" && spec.instrument) return false;
    const bool amp = type == "amp" && (spec.instrument || level == "group") && ampParam(p, spec.instrument, spec.param);
    const bool resonance = type == "effect" && level == "group" && p == "FX_FILTER_RESONANCE";
    const bool filter = (type == "effect" && level == "group" && p == "FX_FILTER_FREQUENCY") || resonance;
    if (!amp && !filter) {
      notPlayed("modulator bindings to " + type + "/" + level + " " + p, "no per-voice parameter of Spindle's regions");
      return false;
    }
    const bool noteStart = amp && spec.param >= Param::EnvAttack && spec.param <= Param::EnvRelease;
    if (noteStart && s.kind != SourceSpec::Kind::Velocity && s.kind != SourceSpec::Kind::Cc) {
      notPlayed("LFO, envelope and random bindings to " + p, "the amplitude envelope's times are taken at note start");
      return false;
    }
    const bool controller = s.kind == SourceSpec::Kind::Velocity || s.kind == SourceSpec::Kind::Cc;
    if (resonance && !controller) {
      notPlayed("LFO, envelope and random bindings to FX_FILTER_RESONANCE",
                "the region's resonance in dB is not in proportion to DecentSampler's Q; velocity and CC play");
      return false;
    }
    if (!spec.instrument) spec.groups = groupsOf(b);
    spec.param = resonance ? Param::FilterResonance : filter ? Param::FilterFrequency : spec.param;
    spec.effect = b.attribute("effectIndex").as_int(b.attribute("position").as_int(0));
    if (filter) dropNonFilters(spec, p);
    return spec.instrument || !spec.groups.empty();
  }

  // Groups whose effect at spec.effect is not their first or second filter (reported).
  void dropNonFilters(BindingSpec& spec, const std::string& p) {
    std::vector<int> kept;
    for (int g : spec.groups) {
      const int position = filterPosition(groupNode(g), spec.effect);
      if (position == 0 || position == 1) kept.push_back(g);
      else notPlayed(p + " of a group effect that is not the group's first or second filter",
                     "only those become the regions' filters");
    }
    spec.groups = std::move(kept);
  }

  pugi::xml_node groupNode(int index) const {
    for (const pugi::xml_node& g : out.groups.children("group"))
      if (index-- == 0) return g;
    return {};
  }

  // T(x) and modBehavior; false (reported) for a table.
  bool translation(const pugi::xml_node& b, const pugi::xml_node& m, BindingSpec& spec) {
    const std::string t = b.attribute("translation").as_string("linear");
    const SourceSpec::Kind kind = out.sources.back().kind;
    const bool controller = kind == SourceSpec::Kind::Velocity || kind == SourceSpec::Kind::Cc;
    if (t == "table" && !controller) {
      notPlayed("translation=\"table\" from an LFO, envelope or random",
                "their sources move a target in proportion; velocity and CC tables play");
      return false;
    }
    if (t == "table" && !readTable(b.attribute("translationTable").as_string("0,0;1,1"), spec)) return false;
    if (t == "fixed_value") {
      spec.t0 = number(b, "translationValue", 0.0), spec.t1 = 0.0f;
    } else {
      const float lo = number(b, "translationOutputMin", 0.0), hi = number(b, "translationOutputMax", 1.0);
      const bool reversed = b.attribute("translationReversed").as_bool(false);
      spec.t0 = reversed ? hi : lo, spec.t1 = reversed ? lo - hi : hi - lo;
    }
    const std::string how = b.attribute("modBehavior").as_string(m.attribute("modBehavior").as_string("set"));
    spec.behavior = how == "add"        ? BindingSpec::Behavior::Add
                    : how == "multiply" ? BindingSpec::Behavior::Multiply
                                        : BindingSpec::Behavior::Set;
    return true;
  }

  // "in,out;in,out..." into spec.table, by input; false (an error naming it) unless it
  // gives at least two pairs of numbers.
  bool readTable(const std::string& text, BindingSpec& spec) {
    std::string rest = text;
    while (!rest.empty()) {
      const size_t end = rest.find(';');
      const std::string pair = rest.substr(0, end);
      rest = end == std::string::npos ? "" : rest.substr(end + 1);
      const size_t comma = pair.find(',');
      char* stop = nullptr;
      const float in = std::strtof(pair.c_str(), &stop);
      const bool numberIn = stop != pair.c_str() && comma != std::string::npos;
      const float value = numberIn ? std::strtof(pair.c_str() + comma + 1, &stop) : 0.0f;
      if (numberIn && stop != pair.c_str() + comma + 1) spec.table.push_back({in, value});
      else if (pair.find_first_not_of(" \t\n") != std::string::npos) spec.table.clear(), rest.clear();
    }
    std::sort(spec.table.begin(), spec.table.end());
    if (spec.table.size() >= 2) return true;
    report.error(file, 0, "modulator binding translationTable \"" + text +
                              "\" is not two or more input,output pairs: the binding is not played");
    return false;
  }

  void read(const pugi::xml_node& modulators) {
    for (const pugi::xml_node& m : modulators.children()) {
      SourceSpec s;
      if (m.type() != pugi::node_element || !source(m, s)) continue;
      const size_t index = out.sources.size();
      out.sources.push_back(s);
      for (const pugi::xml_node& b : m.children("binding")) {
        BindingSpec spec;
        spec.source = index;
        if (!b.attribute("enabled").as_bool(true) || !target(b, s, spec) || !translation(b, m, spec)) continue;
        out.bindings.push_back(std::move(spec));
      }
    }
  }
};

bool isFilter(const pugi::xml_node& effect) {
  const std::string type = effect.attribute("type").as_string();
  return type == "lowpass" || type == "lowpass_4pl" || type == "lowpass_1pl" || type == "highpass" ||
         type == "bandpass" || type == "notch" || type == "peak";
}

}  // namespace

float BindingSpec::translate(float x) const {
  if (table.empty()) return t0 + t1 * x;
  return curveAt(table, x);
}

int filterPosition(const pugi::xml_node& group, int effectIndex) {
  int index = 0, filters = 0;
  for (const pugi::xml_node& e : group.child("effects").children("effect")) {
    if (index++ == effectIndex) return isFilter(e) ? filters : -1;
    if (isFilter(e)) ++filters;
  }
  return -1;
}

pugi::xml_node filterEffect(const pugi::xml_node& group, int position) {
  for (const pugi::xml_node& e : group.child("effects").children("effect"))
    if (isFilter(e) && position-- == 0) return e;
  return {};
}

Modulators::Modulators() : impl_(std::make_unique<Impl>()) {}
Modulators::~Modulators() = default;
Modulators::Modulators(Modulators&&) noexcept = default;
Modulators& Modulators::operator=(Modulators&&) noexcept = default;

Modulators Modulators::read(const pugi::xml_node& root, instrument::Instrument& out, instrument::Reporter& report) {
  Modulators m;
  m.impl_->out = &out, m.impl_->report = &report;
  m.impl_->groups = root.child("groups");
  const std::string file = out.path.string();
  Reader{report, file, *m.impl_}.read(root.child("modulators"));
  return m;
}

}  // namespace spindle::dspreset
