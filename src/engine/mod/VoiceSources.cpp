#include "engine/mod/VoiceSources.h"

#include <algorithm>

#include "engine/mod/VoiceMod.h"

namespace spindle::engine::mod {

namespace {

// The VoiceMod::refreshEnvelopes bit of each destination's envelope.
constexpr std::array<uint32_t, kV1Dests> kChangeBit{VoiceMod::kAmpeg, VoiceMod::kFileg, VoiceMod::kPitcheg};

// An envelope's params with the note-start sums of its stage targets added (seconds,
// percent; `first` is its Delay target, then Start, Attack, Hold, Decay, Sustain,
// Release in enum order); depth: its depth target, or ModTarget::Count for none.
EnvelopeParams withModulation(EnvelopeParams p, const TargetSums& sum, ModTarget first, ModTarget depth) noexcept
    SPINDLE_REALTIME {
  if (!sum.noteStart) return p;
  const auto at = [&](int stage) noexcept SPINDLE_REALTIME {
    return sum(static_cast<ModTarget>(static_cast<int>(first) + stage));
  };
  p.delay = std::max(0.0f, p.delay + at(0));
  p.start = std::clamp(p.start + at(1), 0.0f, 100.0f);
  p.attack = std::max(0.0f, p.attack + at(2));
  p.hold = std::max(0.0f, p.hold + at(3));
  p.decay = std::max(0.0f, p.decay + at(4));
  p.sustain = std::clamp(p.sustain + at(5), 0.0f, 100.0f);
  p.release = std::max(0.0f, p.release + at(6));
  if (depth != ModTarget::Count) p.depth += sum(depth);
  return p;
}

// An LFO's params with the current sums of its depth and frequency targets.
LfoParams withModulation(LfoParams p, const TargetSums& sum, ModTarget depth, ModTarget freq) noexcept
    SPINDLE_REALTIME {
  p.depth += sum(depth);
  p.freq = std::max(0.0f, p.freq + sum(freq));
  return p;
}

}  // namespace

RegionSources VoiceSources::compileOwn(const Region& r) noexcept SPINDLE_REALTIME {
  own_ = compileV1(r, 0, false);
  return own_.view();
}

void VoiceSources::startControlRate(const RegionSources& s, std::span<const LfoBank::StartAdds> lfoAdds,
                                    double sampleRate, uint32_t seed, const CurveTable* curves) noexcept
    SPINDLE_REALTIME {
  list_ = s;
  flexLfos_.reset(sampleRate, seed);
  flexEgs_.reset(sampleRate, curves);
  for (const ModSource& source : s.list) {
    if (source.kind == SourceKind::FlexLfo)
      flexLfos_.add(s.flexLfos[source.params], source.slot < lfoAdds.size() ? lfoAdds[source.slot]
                                                                            : LfoBank::StartAdds{});
    else if (source.kind == SourceKind::FlexEg)
      flexEgs_.add(s.flexEgs[source.params]);
  }
  flexLfos_.begin();
  flexEgs_.begin();
}

void VoiceSources::startPerFrame(const TargetSums& sums, float velocity01, double sampleRate) noexcept
    SPINDLE_REALTIME {
  const RegionSources& s = list_;
  velocity01_ = velocity01;
  envelopesOn_ = lfosOn_ = 0;
  for (const ModSource& source : s.list) {
    if (source.kind == SourceKind::Envelope) {
      const V1Envelope& e = s.envelopes[source.params];
      Envelope& envelope = envelopes_[at(e.dest)];
      envelope.setup(e.noteStartAdds ? withModulation(e.params, sums, e.first, e.depth) : e.params, velocity01,
                     sampleRate);
      envelope.start();
      envelopesOn_ |= bit(e.dest);
    } else if (source.kind == SourceKind::Lfo) {
      const V1Lfo& l = s.lfos[source.params];
      Lfo& lfo = lfos_[at(l.dest)];
      lfo.setup(withModulation(l.params, sums, l.depth, l.freq), sampleRate);
      lfo.start();
      lfosOn_ |= bit(l.dest);
    }
  }
}

void VoiceSources::followEnvelopes(uint32_t changed, const TargetSums& sums, bool fading) noexcept
    SPINDLE_REALTIME {
  for (const V1Envelope& e : list_.envelopes) {
    if (!(changed & kChangeBit[at(e.dest)]) || !e.dynamic || (e.dest == V1Dest::Amp && fading)) continue;
    envelopes_[at(e.dest)].update(withModulation(e.params, sums, e.first, e.depth), velocity01_);
  }
}

void VoiceSources::followControllers(const TargetSums& sums, double sampleRate) noexcept SPINDLE_REALTIME {
  for (const V1Lfo& l : list_.lfos) {
    Lfo& lfo = lfos_[at(l.dest)];
    if (l.depthMoves) lfo.setDepth(static_cast<double>(l.params.depth + sums(l.depth)));
    if (l.freqMoves) lfo.setFreq(static_cast<double>(l.params.freq + sums(l.freq)), sampleRate);
  }
}

void VoiceSources::release() noexcept SPINDLE_REALTIME {
  for (const V1Envelope& e : list_.envelopes)
    if (e.releases) envelopes_[at(e.dest)].release();
  flexEgs_.release();
}

void VoiceSources::fastRelease(float seconds, float shape) noexcept SPINDLE_REALTIME {
  envelopes_[at(V1Dest::Amp)].fastRelease(seconds, shape);
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
  return depth(d) != 0.0f || lfoActive(d) || (list_.controlled & bit(d));
}

}  // namespace spindle::engine::mod
