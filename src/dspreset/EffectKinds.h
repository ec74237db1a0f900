#pragma once
// How each DecentSampler effect type plays as a bus effect (core/BusEffects.h): its
// BusEffectType, and for each of its attributes the binding parameter that moves it,
// its default (the guide's) and the bus parameters it sets, converted to their units.
//
//   lowpass                filter lpf_2p   frequency Hz; resonance Q -> 20 log10(Q) dB
//   lowpass_4pl            filter lpf_4p   frequency, resonance
//   lowpass_1pl            filter lpf_1p   frequency
//   highpass, hipass       filter hpf_2p   frequency, resonance
//   bandpass               filter bpf_2p   frequency, resonance
//   notch                  filter brf_2p   frequency; q as resonance
//   peak                   eq peak         frequency; q -> octaves 2/ln 2 asinh(1/(2q));
//                                          gain (linear) -> dB
//   gain                   gain            level dB (levelUnit="linear": 20 log10)
//   delay                  delay           delayTime s -> left tap time - stereoOffset/2,
//                                          right tap + stereoOffset/2; feedback, wetLevel
//                                          0..1 -> %; the dry signal at 100 %
//   delay, delayTimeFormat="musical_time"
//                          delay           delayTime (a musical-time index,
//                                          dspreset/MusicalTime.h) -> both taps' beats;
//                                          feedback, wetLevel as above
//   reverb                 reverb          roomSize, damping, wetLevel 0..1 -> %; dry and
//                                          input 100 %
//   chorus                 Chorus          mix, modDepth, modRate
//   phaser                 ModPhaser       mix, modDepth, modRate, centerFrequency, feedback
//   wave_folder            WaveFolder      drive, threshold
//   wave_shaper            WaveShaper      drive, driveBoost, outputLevel
//   convolution            Convolution     mix; irFile read by dspreset/ConvolutionEffect.h
// Every effect's ENABLED (or FX_EN) binding sets its bypass: on 0, off 1.
#include <optional>
#include <string_view>
#include <vector>

#include <pugixml.hpp>

#include "core/BusEffects.h"

namespace spindle::dspreset {

// One attribute: its name, the binding parameter(s) naming it, its default, and up to
// two bus parameters it sets (value = convert(attribute) * scale, the contributions of
// all attributes added).
struct EffectAttribute {
  enum class Convert : uint8_t { Same, Percent, QToDb, LinearToDb, QToOctaves, Level, Enabled, MusicalTime };
  const char* name;
  const char* binding;
  const char* binding2;  // another name for the same binding parameter, or nullptr
  double fallback;
  Convert convert;
  BusParam param;
  float scale = 1.0f;
  std::optional<BusParam> param2 = std::nullopt;
  float scale2 = 1.0f;
};

struct EffectKind {
  std::string_view type;
  BusEffectType bus;
  FilterType filter = FilterType::Lpf2p;
  const EffectAttribute* attributes = nullptr;
  int count = 0;
};

// The kind of a DecentSampler effect type, or nullptr when Spindle does not play it.
// "delay:musical_time" is the delay whose delayTimeFormat is musical_time.
const EffectKind* effectKind(std::string_view type);

// The kind's attribute a binding parameter names (ENABLED and FX_EN: every kind's
// enable), or nullptr.
const EffectAttribute* boundAttribute(const EffectKind& kind, std::string_view parameter);

// An attribute's value in its bus parameter's unit (before the scale). `linear`: the
// gain effect's levelUnit is linear.
float convertAttribute(const EffectAttribute& a, double value, bool linear);

// Fills `effect` from the element's attributes (the guide's defaults where missing);
// returns each attribute's converted value, in the kind's order.
std::vector<float> applyAttributes(const EffectKind& kind, const pugi::xml_node& node, BusEffect& effect);

// The element's attribute `name` in any case (the guide writes both q and Q).
pugi::xml_attribute attributeNamed(const pugi::xml_node& node, const char* name);

// Whether a gain effect's levelUnit is linear.
bool linearLevel(const pugi::xml_node& node);

}  // namespace spindle::dspreset
