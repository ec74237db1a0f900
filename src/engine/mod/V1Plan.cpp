#include "engine/mod/V1Plan.h"

namespace spindle::engine::mod {

namespace {

struct Touched {
  uint64_t mask;
  bool operator()(ModTarget t) const noexcept { return (mask >> static_cast<unsigned>(t)) & 1u; }
};

void addEnvelope(V1Plan& plan, const V1Envelope& e) noexcept SPINDLE_REALTIME {
  plan.envelope[plan.envelopeCount++] = e;
}

// fileg or pitcheg: listed when it has a depth, at note start or from a controller.
void addDepthEnvelope(V1Plan& plan, V1Dest dest, const EnvelopeParams& p, ModTarget first, ModTarget depth,
                      Touched touches) noexcept SPINDLE_REALTIME {
  const bool dynamic = p.dynamic >= 0.5f;
  if (dynamic && touches(depth)) plan.controlled[static_cast<size_t>(dest)] = true;
  if (p.depth == 0.0f && p.vel2depth == 0.0f && !touches(depth)) return;
  addEnvelope(plan, {dest, p, true, first, depth, dynamic, true});
}

void addLfo(V1Plan& plan, V1Dest dest, const LfoParams& p, ModTarget depth, ModTarget freq,
            Touched touches) noexcept SPINDLE_REALTIME {
  const bool depthMoves = touches(depth), freqMoves = touches(freq);
  if (depthMoves || freqMoves) plan.controlled[static_cast<size_t>(dest)] = true;
  if (!(p.freq > 0.0f && p.depth != 0.0f) && !depthMoves && !freqMoves) return;
  plan.lfo[plan.lfoCount++] = {dest, p, depth, freq, depthMoves, freqMoves};
}

}  // namespace

V1Plan compileV1(const Region& r, uint64_t touched, bool flexAmp) noexcept SPINDLE_REALTIME {
  using T = ModTarget;
  const Touched touches{touched};
  V1Plan plan;
  if (flexAmp) {
    addEnvelope(plan, {V1Dest::Amp, EnvelopeParams{}, false, T::Count, T::Count, false, false});
  } else {
    addEnvelope(plan, {V1Dest::Amp, r.ampeg, true, T::AmpegDelay, T::Count, r.ampeg.dynamic >= 0.5f, true});
  }
  const bool filter = r.cutoff >= 0.0f;
  if (filter) addDepthEnvelope(plan, V1Dest::Fil, r.fileg, T::FilegDelay, T::FilegDepth, touches);
  addDepthEnvelope(plan, V1Dest::Pitch, r.pitcheg, T::PitchegDelay, T::PitchegDepth, touches);
  addLfo(plan, V1Dest::Amp, r.amplfo, T::AmplfoDepth, T::AmplfoFreq, touches);
  if (filter) addLfo(plan, V1Dest::Fil, r.fillfo, T::FillfoDepth, T::FillfoFreq, touches);
  addLfo(plan, V1Dest::Pitch, r.pitchlfo, T::PitchlfoDepth, T::PitchlfoFreq, touches);
  return plan;
}

}  // namespace spindle::engine::mod
