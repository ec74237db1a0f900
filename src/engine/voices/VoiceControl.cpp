// Voice: controller modulation at control rate. A modulated voice renders in steps of
// at most Voice::kControlFrames of its own frames; at each step's start, applyControl()
// moves its VoiceMod to the step's end and sets from it the pitch, filter, LFO, width
// and the output gains the amp stage ramps to (frame by frame, so a gain never steps).
//
// A step's length never depends on where a block ends: while something moves it is
// kControlFrames, or shorter where a smoothed value arrives, and it goes on across
// render calls. A MIDI event (RenderContext::cut) or a release in the step ends it at
// that frame (cutStep): the VoiceMod goes back to the step's start and on by the frames
// that ran, and the next step starts there, reading the controllers as the event left
// them. The frames before the cut ramped towards the uncut step's end: what a block's
// end cannot change. While nothing moves, a step lasts one render call (its values
// would be the same in any cut) and the part's gain or pan ramps over kGainRampFrames.
#include <algorithm>
#include <cmath>

#include "core/MidiEvent.h"
#include "core/Units.h"
#include "engine/parts/Part.h"
#include "engine/voices/Voice.h"
#include "engine/mod/Curves.h"

namespace spindle::engine {

namespace {
// For a voice started without its Program's plan or its part's controllers (built
// before playback: never constructed on the audio thread).
const mod::ModPlan kNoPlan{};
const mod::ControllerState kNoControllers{};
}  // namespace

PartMix makePartMix(const Part& part, bool soloActive) noexcept SPINDLE_REALTIME {
  PartMix m;
  m.gain = part.mixGain(soloActive);
  m.pan = part.mixPan();
  m.bend = part.bend;
  m.bendRange = part.bendRange;
  const bool silent = part.mute || (soloActive && !part.solo);
  m.baseGain = silent ? 0.0f : dbToGain(part.volumeDb);
  m.cc7Gain = curves::controllerGain(part.controllers.midi7(midi::kCcVolume));
  m.cc11Gain = curves::controllerGain(part.controllers.midi7(midi::kCcExpression));
  m.ccPan = m.pan - part.pan;
  m.controllers = &part.controllers;
  return m;
}

// Before the source, gain and envelopes are set up: they read the note-start sums.
void Voice::startModulation(const VoiceStart& s, const PartMix& mix) noexcept SPINDLE_REALTIME {
  pitch_.setModCents(0.0f);
  filters_.clearModulation();
  gain_.clearModulation();
  const bool ours = s.program && mix.controllers && s.region >= s.program->regions.data() &&
                    s.region < s.program->regions.data() + s.program->regions.size();
  const mod::ModPlan& plan = ours ? s.program->modulation : kNoPlan;
  const size_t index = ours ? static_cast<size_t>(s.region - s.program->regions.data()) : 0;
  mod_.start(plan, index, *s.region, mix.controllers ? *mix.controllers : kNoControllers, s.sampleRate,
             static_cast<uint32_t>(s.order), static_cast<float>(s.velocity) / 127.0f, s.frame);
  fadeoutFrames_ = s.region ? std::llround(static_cast<double>(s.region->sampleFadeout) * s.sampleRate) : 0;
  modulated_ = mod_.active() || fadeoutFrames_ > 0;
  stepLeft_ = stepDone_ = 0;
  stepSaved_ = false;
  if (modulated_) updateModulatedParams();
}

// ampeg_dynamic, fileg_dynamic, pitcheg_dynamic: a controller of a stage opcode that
// moved (since the last segment: every MIDI event starts one, so at its frame) moves
// the running envelope. The flex EGs follow inside VoiceMod (egN_dynamic).
void Voice::followEnvelopes(const PartMix& mix) noexcept SPINDLE_REALTIME {
  if (!mod_.followsEnvelopes() || !mix.controllers) return;
  const uint32_t changed = mod_.refreshEnvelopes(*mix.controllers);
  if (changed == 0) return;
  mod_.sources().followEnvelopes(changed, mod_.targetSums(), fading_);
}

// A control step starts: its length (VoiceMod::stepFrames; a still voice's is the
// `frames` left in the render call) and the values at its end. While values move, the
// output gains ramp over the whole step; once settled, a part mix change ramps over
// kGainRampFrames as in an unmodulated voice. Returns the step's length.
int Voice::beginStep(const PartMix& mix, int frames) noexcept SPINDLE_REALTIME {
  constexpr int kStill = 1 << 30;
  int n = mix.controllers ? mod_.stepFrames(*mix.controllers, kStill, kControlFrames) : kStill;
  if (fadeoutFrames_ > 0) n = std::min(n, kControlFrames);  // sample_fadeout ramps by steps
  const bool moving = n <= kControlFrames;
  stepSaved_ = moving;
  if (moving) mod_.saveStep();
  gain_.setRampFrames(moving ? n : kGainRampFrames);
  applyControl(mix, moving ? n : frames);
  stepLeft_ = moving ? n : frames;
  stepDone_ = 0;
  return stepLeft_;
}

// A MIDI event or a release at this frame ends the step under way here (VoiceMod::cutStep).
void Voice::cutStep() noexcept SPINDLE_REALTIME {
  if (stepLeft_ > 0 && stepSaved_) mod_.cutStep(stepDone_);
  stepLeft_ = stepDone_ = 0;
}

void Voice::applyControl(const PartMix& mix, int frames) noexcept SPINDLE_REALTIME {
  if (mix.controllers) mod_.advance(*mix.controllers, frames);
  updateModulatedParams();
  mod_.sources().followControllers(mod_.targetSums(), sampleRate_);
  computeModGains(mix);
}

// Pitch, filters, EQ, shaper stages, width and the oscillator bank's detune and depth from the current sums.
void Voice::updateModulatedParams() noexcept SPINDLE_REALTIME {
  using T = ModTarget;
  const Region& r = *region_;
  const mod::RegionMods& m = mod_.info();
  pitch_.setModCents(mod_.sum(T::Pitch));
  filters_.followModulation(mod_);
  eq_.followModulation(r, mod_, velocity_);
  shapers_.followModulation(r, mod_);
  if (stereo_ && m.touches(T::Width)) gain_.setWidth(r.width + mod_.sum(T::Width));
  followOscillatorModulation();
}

// sample_fadeout: linear from 1 to 0 over the output frames before the source's end,
// at the end of the step now starting (gain_.rampFrames() long); 1 for a loop without end.
float Voice::fadeoutGain() const noexcept SPINDLE_REALTIME {
  if (fadeoutFrames_ <= 0) return 1.0f;
  const double left = (static_cast<double>(source_.endPosition()) - position_) / std::max(pitch_.increment(), 1e-6) -
                      static_cast<double>(gain_.rampFrames());
  return static_cast<float>(std::clamp(left / static_cast<double>(fadeoutFrames_), 0.0, 1.0));
}

// The output gains at the control step's end (VoiceGain::computeModulated).
void Voice::computeModGains(const PartMix& mix) noexcept SPINDLE_REALTIME {
  gain_.computeModulated(*region_, mod_, mix, velocity_, fadeoutGain());
}

}  // namespace spindle::engine
