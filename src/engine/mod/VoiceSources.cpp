#include "engine/mod/VoiceSources.h"

#include <algorithm>

namespace spindle::engine::mod {

namespace {

// The VoiceMod::refreshEnvelopes bit of each destination's envelope.
constexpr std::array<uint32_t, kV1Dests> kChangeBit{VoiceMod::kAmpeg, VoiceMod::kFileg, VoiceMod::kPitcheg};

}  // namespace

void VoiceSources::start(const VoiceMod& mod, const Region& r, float velocity01, double sampleRate) noexcept
    SPINDLE_REALTIME {
  plan_ = mod.v1Plan();
  if (!plan_) own_ = compileV1(r, mod.info().touched, mod.info().ampegEg > 0);
  envelopesOn_ = lfosOn_ = 0;
  for (const V1Envelope& e : plan().envelopes()) {
    dsp::Envelope& envelope = envelopes_[at(e.dest)];
    envelope.setup(e.noteStartAdds ? withModulation(e.params, mod, e.first, e.depth) : e.params, velocity01,
                   sampleRate);
    envelope.start();
    envelopesOn_ |= bit(e.dest);
  }
  for (const V1Lfo& l : plan().lfos()) {
    dsp::Lfo& lfo = lfos_[at(l.dest)];
    lfo.setup(withModulation(l.params, mod, l.depth, l.freq), sampleRate);
    lfo.start();
    lfosOn_ |= bit(l.dest);
  }
}

void VoiceSources::followEnvelopes(uint32_t changed, const VoiceMod& mod, float velocity01, bool fading) noexcept
    SPINDLE_REALTIME {
  for (const V1Envelope& e : plan().envelopes()) {
    if (!(changed & kChangeBit[at(e.dest)]) || !e.dynamic || (e.dest == V1Dest::Amp && fading)) continue;
    envelopes_[at(e.dest)].update(withModulation(e.params, mod, e.first, e.depth), velocity01);
  }
}

void VoiceSources::followControllers(const VoiceMod& mod, double sampleRate) noexcept SPINDLE_REALTIME {
  for (const V1Lfo& l : plan().lfos()) {
    dsp::Lfo& lfo = lfos_[at(l.dest)];
    if (l.depthMoves) lfo.setDepth(static_cast<double>(l.params.depth + mod.sum(l.depth)));
    if (l.freqMoves) lfo.setFreq(static_cast<double>(l.params.freq + mod.sum(l.freq)), sampleRate);
  }
}

void VoiceSources::release() noexcept SPINDLE_REALTIME {
  for (const V1Envelope& e : plan().envelopes())
    if (e.releases) envelopes_[at(e.dest)].release();
}

void VoiceSources::fastRelease(float seconds) noexcept SPINDLE_REALTIME {
  envelopes_[at(V1Dest::Amp)].fastRelease(seconds);
}

void VoiceSources::processEnvelope(V1Dest d, float* out, int frames) noexcept SPINDLE_REALTIME {
  if (envelopesOn_ & bit(d)) {
    envelopes_[at(d)].process(out, frames);
  } else {
    std::fill(out, out + frames, 0.0f);
  }
}

void VoiceSources::processLfo(V1Dest d, float* out, int frames) noexcept SPINDLE_REALTIME {
  if (lfosOn_ & bit(d)) {
    lfos_[at(d)].process(out, frames);
  } else {
    std::fill(out, out + frames, 0.0f);
  }
}

float VoiceSources::depth(V1Dest d) const noexcept SPINDLE_REALTIME {
  return (envelopesOn_ & bit(d)) ? envelopes_[at(d)].depth() : 0.0f;
}

bool VoiceSources::lfoActive(V1Dest d) const noexcept SPINDLE_REALTIME {
  return (lfosOn_ & bit(d)) && lfos_[at(d)].active();
}

bool VoiceSources::modulates(V1Dest d) const noexcept SPINDLE_REALTIME {
  return depth(d) != 0.0f || lfoActive(d) || plan().controlled[at(d)];
}

}  // namespace spindle::engine::mod
