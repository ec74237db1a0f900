#pragma once
// What dspreset/Modulators.cpp reads from <modulators>, as ModulatorTargets.cpp turns it
// into region modulation. Loader thread.
#include <cstdint>
#include <utility>
#include <vector>

#include <pugixml.hpp>

#include "core/Curve.h"
#include "core/Modulation.h"
#include "core/Region.h"
#include "dspreset/Modulators.h"

namespace spindle::dspreset {

// One modulator element, as the source it becomes.
struct SourceSpec {
  enum class Kind { Lfo, Envelope, Random, Velocity, Cc };
  Kind kind = Kind::Lfo;
  float amount = 1.0f;              // modAmount
  float freq = 0.0f, delay = 0.0f;  // Hz, seconds (LFO, periodic random)
  float wave = 1.0f;                // FlexLfo wave: 1 sine, 3 square, 6 saw up, 12 sample and hold
  bool unipolar = false;            // the wave is already 0..1 (the square)
  float attack = 0.0f, decay = 0.0f, sustain = 1.0f, release = 0.0f;  // seconds, level
  float attackShape = 0.0f, decayShape = 0.0f, releaseShape = 0.0f;    // FlexEg shapes
  uint32_t seed = 0;
  uint8_t clock = 0;  // FlexLfo::clock: a global LFO
  int cc = 0;
};

// The parameter a binding moves.
enum class Param { Volume, Tuning, Pan, EnvAttack, EnvDecay, EnvSustain, EnvRelease, FilterFrequency, FilterResonance };

struct BindingSpec {
  size_t source = 0;  // index into the sources
  Param param = Param::Volume;
  bool instrument = false;    // level="instrument": every group, the <groups> value as P0
  std::vector<int> groups;    // level="group": the groups it reaches
  int effect = 0;             // Filter*: the effect's index in its group's <effects>
  enum class Behavior { Add, Multiply, Set } behavior = Behavior::Set;
  float t0 = 0.0f, t1 = 1.0f;  // T(x) = t0 + t1 x
  // translation="table" (velocity and CC only): (input, output) by input; T is the
  // straight line between them, the end values beyond (core/Curve.h).
  std::vector<BasicCurvePoint<float>> table;
  float translate(float x) const;
};

struct Modulators::Impl {
  instrument::Instrument* out = nullptr;
  instrument::Reporter* report = nullptr;
  int nextCurve = 255;    // generated curves take curve indices from the top down
  pugi::xml_node groups;  // <groups>
  std::vector<SourceSpec> sources;
  std::vector<BindingSpec> bindings;
};

// The group's filter effects (lowpass, lowpass_1pl, highpass, bandpass, notch, peak) in
// order; filterPosition(group, effectIndex) is the effect's place among them (0 for the
// region's first filter, 1 for its second), -1 when the effect is no filter.
int filterPosition(const pugi::xml_node& group, int effectIndex);
pugi::xml_node filterEffect(const pugi::xml_node& group, int position);

}  // namespace spindle::dspreset
