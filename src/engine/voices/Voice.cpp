// Voice: starting, releasing and fading. The render stages are in VoiceRender.cpp and
// VoiceFetch.cpp, controller modulation in VoiceControl.cpp.
#include <algorithm>
#include <cmath>

#include "core/LoopTail.h"
#include "core/Units.h"
#include "engine/parts/Program.h"
#include "engine/voices/Voice.h"
#include "engine/mod/Curves.h"

namespace spindle::engine {

RenderScratch::RenderScratch(int maxBlockFrames, rt::StreamBank* streamBank)
    : left(static_cast<size_t>(maxBlockFrames)),
      right(left.size()),
      ampEnv(left.size()),
      ampLfo(left.size()),
      filEnv(left.size()),
      filLfo(left.size()),
      pitchEnv(left.size()),
      pitchLfo(left.size()),
      busLeft(left.size()),
      busRight(left.size()),
      positions(kChunkFrames + 1),
      indices(kChunkFrames),
      fractions(kChunkFrames),
      taps(4 * kChunkFrames),
      spanLeft(kSpanCapacity),
      spanRight(kSpanCapacity),
      streams(streamBank) {}

SourceScratch RenderScratch::source() noexcept SPINDLE_REALTIME {
  return {spanLeft.data(), spanRight.data(), kSpanCapacity, streams};
}

bool Voice::start(const VoiceStart& s, Prng& rng, const SourceScratch& scratch, const PartMix& mix) noexcept
    SPINDLE_REALTIME {
  const SampleData* d = s.sample;
  if (!s.region || !d || d->channels <= 0 || d->totalFrames <= 0 || !d->frames[0]) return false;
  const Region& r = *s.region;
  takeNote(s);
  startModulation(s, mix);

  source_.start(setupSource(r, *d, s.releaseTrigger, rng), scratch);
  setupOscillator(r, *d, rng);
  pitch_.setup(r, *d, s.key, s.keyPosition, s.velocity, s.sampleRate, playsAsTable(r, *d), rng);
  pitch_.startBend(bendCents(mix));
  gain_.setup(r, s.key, s.velocity, s.extraDb, stereo_, rng);
  filters_.setup(r, s.key, s.velocity, s.sampleRate, stereo_, rng);
  // sample_quality 1 linear, 2 Hermite, 3..5 sinc (8 taps a side), 6..10 sinc (16).
  const int q = r.sampleQuality;
  quality_ = q < 1 ? -1 : q == 1 ? 0 : q == 2 ? 1 : q <= 5 ? 2 : 3;
  eq_.setup(r, mod_, s.velocity, s.sampleRate, stereo_);
  shapers_.setup(r, mod_, stereo_);
  startSources();
  setupTiming(r, s, rng);
  startGains(mix);
  return true;
}

// Whose note the voice plays, and its state as a fresh voice: sounding, not released.
void Voice::takeNote(const VoiceStart& s) noexcept SPINDLE_REALTIME {
  program_ = s.program;
  region_ = s.region;
  part_ = s.part;
  key_ = s.key;
  expression_ = s.expression;
  order_ = s.order;
  sampleRate_ = s.sampleRate;
  active_ = true;
  released_ = fading_ = sourceEnded_ = false;
  underruns_ = 0;
  keyDown = !s.releaseTrigger;
  releaseTrigger_ = s.releaseTrigger;
  pedalHeld = sostenuto = false;
  stereo_ = s.sample->channels > 1;
  velocity_ = s.velocity;
  hasSends_ = s.region->sends[0].any() || s.region->sends[1].any();
  for (GainRamp& ramp : sendRamps_) ramp.start(s.sampleRate);
  const auto fx = s.region->fxSends();
  hasFxSends_ = std::any_of(fx.begin(), fx.end(), [](float percent) { return percent > 0.0f; });
}

// The output gains of the first frame, no ramp: pan and part gain, or what a modulated
// voice's controllers give.
void Voice::startGains(const PartMix& mix) noexcept SPINDLE_REALTIME {
  gain_.start(mix);
  if (modulated_) {
    computeModGains(mix);
    gain_.startModulated();
  }
}

// Offset, end and loop mode; see SampleSource.h for the unrolled frames.
// The frame a note starts at: offset, offset_onccN's sum and the offset_random draw, whole
// frames (or percent) each.
int64_t Voice::startOffset(const Region& r, const SampleData& d, int64_t last, Prng& rng) noexcept SPINDLE_REALTIME {
  const auto whole = [](float x) noexcept SPINDLE_REALTIME { return static_cast<double>(static_cast<int64_t>(x)); };
  const float fromCcs = mod_.sum(ModTarget::Offset);
  double units = static_cast<double>(r.offset) + (r.offsetPercent ? static_cast<double>(fromCcs) : whole(fromCcs));
  if (r.offsetRandom > 0) units += whole(rng.uniform() * static_cast<float>(r.offsetRandom + 1));
  // offset_mode=percent: percent of the file's frames (whatever end and the loop say).
  if (r.offsetPercent) units *= 0.01 * static_cast<double>(d.totalFrames);
  return std::clamp<int64_t>(std::llround(units), 0, std::max<int64_t>(last, 0));
}

SampleSource::Setup Voice::setupSource(const Region& r, const SampleData& d, bool releaseTrigger, Prng& rng) noexcept
    SPINDLE_REALTIME {
  const int64_t last = lastPlayedFrame(r, d);
  const int64_t offset = startOffset(r, d, last, rng);
  position_ = static_cast<double>(offset);
  anchor_ = {};
  fetched_ = 0;

  const bool fileLoop = d.loopStart >= 0 && d.loopEnd > d.loopStart;
  LoopMode mode = r.loopModeSet ? r.loopMode : (fileLoop ? LoopMode::LoopContinuous : LoopMode::NoLoop);
  if (r.count > 0) mode = LoopMode::OneShot;
  const bool loops = mode == LoopMode::LoopContinuous || mode == LoopMode::LoopSustain;
  oneShot_ = mode == LoopMode::OneShot || releaseTrigger;
  loopSustain_ = mode == LoopMode::LoopSustain;

  LoopMap map;
  bool loopMoved = false;
  if (r.count > 1) {
    map = {offset, last - offset + 1, r.count - 1};  // play offset..end `count` times
  } else if (loops && !releaseTrigger) {
    const LoopPoints points = loopPoints(r, d);
    // loop_startccN / loop_lengthccN move the points at note start (a prebuilt crossfade
    // tail then no longer fits: such a loop plays without it).
    const auto moved = [&](ModTarget t) noexcept SPINDLE_REALTIME { return static_cast<int64_t>(mod_.sum(t)); };
    const int64_t ls = std::clamp<int64_t>(points.start + moved(ModTarget::LoopStart), 0, last);
    const int64_t le = std::clamp<int64_t>(points.end + moved(ModTarget::LoopEnd), 0, last);
    loopMoved = ls != points.start || le != points.end;
    // loop_count=N: the loop plays N times (N - 1 jumps back), then on to the end.
    const int64_t wraps = r.loopCount > 0 ? r.loopCount - 1 : LoopMap::kForever;
    if (ls >= 0 && le > ls && offset <= le) map = {ls, le - ls + 1, wraps};
  }
  // SampleSource applies the tail only to the loop it was built for (not to count's repeats).
  return {&d, last, map, offset, program_ && !loopMoved ? program_->loopTail(r) : nullptr};
}

// delay, delay_random, delay_beats (with its controllers and delay_beats_random),
// delay_samples (output frames, as sfizz counts them), then sync_beats: the start
// waits for the next song position of sync_offset + k * sync_beats beats (k any whole
// number; a note on such a position starts at once); stop_beats counts from the end of the delay.
void Voice::setupTiming(const Region& r, const VoiceStart& s, Prng& rng) noexcept SPINDLE_REALTIME {
  const float secondsPerBeat = 60.0f / s.tempo;
  // delay_beats_random draws only when given, so the voice's other random draws stay as they were.
  const float randomBeats = r.delayBeatsRandom > 0.0f ? r.delayBeatsRandom * rng.uniform() : 0.0f;
  const float beats = r.delayBeats + mod_.sum(ModTarget::DelayBeats) + randomBeats;
  const float delay = r.delay + mod_.sum(ModTarget::Delay) + r.delayRandom * rng.uniform() + beats * secondsPerBeat;
  const double samples = static_cast<double>(r.delaySamples) + static_cast<double>(mod_.sum(ModTarget::DelaySamples));
  delayFrames_ = std::llround(static_cast<double>(std::max(delay, 0.0f)) * s.sampleRate + std::max(samples, 0.0));
  if (r.syncBeats > 0.0f) delayFrames_ += syncFrames(r, s, delayFrames_);
  const double stopSeconds = static_cast<double>(r.stopBeats * secondsPerBeat);
  stopFrames_ = r.stopBeats > 0.0f ? std::llround(stopSeconds * s.sampleRate) : -1;
}

// Frames from the voice's start after `delayFrames` to the next sync_beats position.
int64_t Voice::syncFrames(const Region& r, const VoiceStart& s, int64_t delayFrames) noexcept SPINDLE_REALTIME {
  const double beatsPerFrame = static_cast<double>(s.tempo) / (60.0 * s.sampleRate);
  const double at = s.songBeat + static_cast<double>(delayFrames) * beatsPerFrame - static_cast<double>(r.syncOffset);
  const double grid = static_cast<double>(r.syncBeats);
  const double wait = std::ceil(at / grid - 1e-9) * grid - at;
  return std::llround(std::max(wait, 0.0) / beatsPerFrame);
}

// The filter and the pitch run per frame only when their per-frame sources (started
// with the modulation) can move them.
void Voice::startSources() noexcept SPINDLE_REALTIME {
  filters_.setSourcesMove(mod_.sources().modulates(mod::V1Dest::Fil));
  pitch_.setSourcesMove(mod_.sources().modulates(mod::V1Dest::Pitch));
}

void Voice::noteOff() noexcept SPINDLE_REALTIME {
  if (!oneShot_) release();
}

void Voice::release() noexcept SPINDLE_REALTIME {
  if (!active_ || released_) return;
  released_ = true;
  if (delayFrames_ > 0) {  // released before it sounded: nothing to fade
    active_ = false;
    return;
  }
  cutStep();  // the release starts at this frame, not at the step's end
  mod_.release();
  if (loopSustain_) source_.leaveLoop(static_cast<int64_t>(std::floor(position_)));
}

void Voice::fade(float seconds, float shape) noexcept SPINDLE_REALTIME {
  if (!active_ || fading_) return;
  fading_ = released_ = true;
  if (delayFrames_ > 0) {
    active_ = false;
    return;
  }
  mod_.sources().fastRelease(seconds, shape);
}

float Voice::loudness() const noexcept SPINDLE_REALTIME { return mod_.sources().level() * std::abs(gain_.staticGain()); }

}  // namespace spindle::engine
