#include "engine/mod/Sources.h"

namespace spindle::engine::mod {

namespace {

struct Touched {
  const ModTargetSet& set;
  bool operator()(ModTarget t) const noexcept { return t != ModTarget::Count && set[static_cast<size_t>(t)]; }
};

uint8_t bit(V1Dest d) noexcept { return static_cast<uint8_t>(1u << static_cast<unsigned>(d)); }

void addEnvelope(V1Sources& s, const V1Envelope& e) noexcept SPINDLE_REALTIME {
  s.list[s.count++] = {SourceKind::Envelope, static_cast<uint8_t>(e.dest), s.envelopes, 0};
  s.envelope[s.envelopes++] = e;
}

// fileg or pitcheg: listed when it has a depth, at note start or from a controller.
void addDepthEnvelope(V1Sources& s, V1Dest dest, const EnvelopeParams& p, ModTarget first, ModTarget depth,
                      Touched touches) noexcept SPINDLE_REALTIME {
  const bool dynamic = p.dynamic >= 0.5f;
  if (dynamic && touches(depth)) s.controlled |= bit(dest);
  if (p.depth == 0.0f && p.vel2depth == 0.0f && !touches(depth)) return;
  addEnvelope(s, {dest, p, true, first, depth, dynamic, true});
}

void addLfo(V1Sources& s, V1Dest dest, const LfoParams& p, ModTarget depth, ModTarget freq,
            Touched touches) noexcept SPINDLE_REALTIME {
  const bool depthMoves = touches(depth), freqMoves = touches(freq);
  if (depthMoves || freqMoves) s.controlled |= bit(dest);
  if (!(p.freq > 0.0f && p.depth != 0.0f) && !depthMoves && !freqMoves) return;
  s.list[s.count++] = {SourceKind::Lfo, static_cast<uint8_t>(dest), s.lfos, 0};
  s.lfo[s.lfos++] = {dest, p, depth, freq, depthMoves, freqMoves};
}

}  // namespace

V1Sources compileV1(const Region& r, const ModTargetSet& touched, bool flexAmp) noexcept SPINDLE_REALTIME {
  using T = ModTarget;
  const Touched touches{touched};
  V1Sources s;
  if (flexAmp) {
    addEnvelope(s, {V1Dest::Amp, EnvelopeParams{}, false, T::Count, T::Count, false, false});
  } else {
    addEnvelope(s, {V1Dest::Amp, r.ampeg, true, T::AmpegDelay, T::Count, r.ampeg.dynamic >= 0.5f, true});
  }
  const bool filter = r.cutoff >= 0.0f;
  if (filter) addDepthEnvelope(s, V1Dest::Fil, r.fileg, T::FilegDelay, T::FilegDepth, touches);
  addDepthEnvelope(s, V1Dest::Pitch, r.pitcheg, T::PitchegDelay, T::PitchegDepth, touches);
  addLfo(s, V1Dest::Amp, r.amplfo, T::AmplfoDepth, T::AmplfoFreq, touches);
  if (filter) addLfo(s, V1Dest::Fil, r.fillfo, T::FillfoDepth, T::FillfoFreq, touches);
  addLfo(s, V1Dest::Pitch, r.pitchlfo, T::PitchlfoDepth, T::PitchlfoFreq, touches);
  return s;
}

}  // namespace spindle::engine::mod
