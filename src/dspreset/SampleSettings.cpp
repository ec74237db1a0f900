#include "dspreset/SampleSettings.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "dspreset/DecentSampler.h"

namespace spindle::dspreset {

namespace {

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

}  // namespace

pugi::xml_attribute Scope::find(const char* name) const {
  for (const pugi::xml_node& n : levels)
    if (pugi::xml_attribute a = n.attribute(name)) return a;
  return {};
}

pugi::xml_attribute Scope::at(int level, const char* name) const {
  if (level == 0) return levels[0].attribute(name);
  const pugi::xml_attribute set = levels[static_cast<size_t>(2 * level - 1)].attribute(name);
  return set ? set : levels[static_cast<size_t>(2 * level)].attribute(name);
}

double Scope::number(const char* name, double fallback) const {
  const pugi::xml_attribute a = find(name);
  return a ? a.as_double(fallback) : fallback;
}

int Scope::note(const char* name, int fallback) const {
  const pugi::xml_attribute a = find(name);
  const int n = a ? noteNumber(a.as_string()) : -1;
  return n >= 0 ? n : fallback;
}

void applySettings(const Scope& s, Region& r) {
  const int root = s.note("rootNote", 60);
  r.lokey = midi7(s.note("loNote", 0));
  r.hikey = midi7(s.note("hiNote", 127));
  r.pitchKeycenter = midi7(root);
  r.lovel = midi7(s.find("loVel").as_int(1), 1);
  r.hivel = midi7(s.find("hiVel").as_int(127), 1);
  levels(s, r);
  envelope(s, r);
  playback(s, r);
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

}  // namespace spindle::dspreset
