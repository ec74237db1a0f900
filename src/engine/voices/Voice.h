#pragma once
// Voice: one sounding region. Audio thread only; lives in the VoicePool for the
// Engine's life, reused note after note (start() never allocates).
//
// A render call walks the stages over the whole segment, block-wise, not per frame:
//   delay  -> skip the region's delay frames (nothing sounds, nothing advances)
//   pitch  -> per-frame position increments (only when pitcheg/pitchlfo modulate)
//   fetch  -> SampleSource spans in chunks, interpolated into scratch left/right:
//             positions split once per chunk into span indices and fractions, taps
//             gathered, then the kernel of the quality (a template argument, chosen
//             once per chunk) runs branch-free and vectorised; a voice reading one
//             source frame per output frame from a whole frame copies its span
//   filter -> per-voice Filter (skipped when off); cutoff re-set every kFilterStep
//             frames if modulated; a mono source filters one channel; then the
//             second filter (fil2_*) when its cutoff2 is given
//   eq     -> 3-band peaking EQ (skipped when every band has 0 dB gain)
//   shape  -> the region's shaper stages (VoiceShapers: Region::shapers, dsp/Shaper.h),
//             memoryless, in order (skipped when it has none)
//   amp    -> ampeg x amplfo x region/velocity/part gain x pan, added to the output
//             (dsp/Mix.h: vectorised loops; only a gain ramp runs frame by frame)
// Gain changes from the part (CC7/CC10/CC11, part volume/pan) ramp over
// kGainRampFrames so that controller moves do not click. A voice whose region has
// continuous controller modulation (engine/mod) renders in control steps of at most
// kControlFrames of its own frames instead, its gains ramping to each step's end
// (VoiceControl.cpp); a step goes on across blocks, and a MIDI event cuts it.
#include <array>
#include <cstdint>
#include <vector>

#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "core/Region.h"
#include "core/SampleData.h"
#include "engine/voices/Random.h"
#include "engine/voices/SampleSource.h"
#include "engine/dsp/GainRamp.h"
#include "engine/parts/PartMix.h"
#include "engine/voices/VoiceEq.h"
#include "engine/voices/VoiceFilters.h"
#include "engine/voices/VoiceGain.h"
#include "engine/voices/VoiceShapers.h"
#include "engine/voices/VoicePitch.h"
#include "engine/dsp/Interpolators.h"
#include "engine/dsp/OscillatorBank.h"
#include "engine/mod/ControlRate.h"
#include "engine/parts/Program.h"
#include "engine/mod/Curves.h"
#include "engine/mod/VoiceMod.h"

namespace spindle::rt {
class StreamBank;
}

namespace spindle::engine {

// Scratch the voices render into, one at a time. Owned by the Engine, sized once.
struct RenderScratch {
  static constexpr int kChunkFrames = 64;        // output frames per source span
  static constexpr double kMaxIncrement = VoicePitch::kMaxIncrement;
  static constexpr int kSpanCapacity = 4096;     // >= kChunkFrames * kMaxIncrement + taps

  // streams: the disk streams voices read past their preloads from; null = RAM only.
  explicit RenderScratch(int maxBlockFrames, rt::StreamBank* streams = nullptr);
  std::vector<float> left, right, ampEnv, ampLfo, filEnv, filLfo, pitchEnv, pitchLfo;
  std::vector<float> busLeft, busRight;  // a voice's output before it joins the fx buses
  std::vector<double> positions;  // kChunkFrames + 1
  std::vector<int32_t> indices;   // kChunkFrames: span index of each frame's position
  std::vector<float> fractions;   // kChunkFrames: its fractional part
  std::vector<float> taps;        // 4 * kChunkFrames: interpolation taps, gathered
  std::vector<float> spanLeft, spanRight;
  rt::StreamBank* streams = nullptr;
  SourceScratch source() noexcept SPINDLE_REALTIME;
};

struct ChunkPositions;  // VoiceFetch.cpp

// What a render call needs from outside the voice.
struct RenderContext {
  RenderScratch* scratch = nullptr;
  Quality quality = Quality::Hermite;
  const dsp::SincInterpolator* sinc = nullptr;  // for Sinc / SincHigh
  uint64_t underruns = 0;                       // added to by voices
  // The engine's two sinc tables, for a region that asks its own sample_quality.
  const dsp::SincInterpolator* sinc8 = nullptr;
  const dsp::SincInterpolator* sinc16 = nullptr;
  // The part's send buses (SendBus order), frame 0 = the segment's first; null: the
  // engine plays no effects. A voice that adds to bus b sets sent[b].
  std::array<float*, kSendBuses> sends{};
  std::array<bool, kSendBuses> sent{};
  // The part's fx buses 1..4 (core/BusEffects.h), stereo, frame 0 = the segment's first;
  // null when the part's program has no bus layout (effectN then feeds nothing). A
  // voice that adds to bus n sets fxSent[n - 1].
  std::array<float*, kFxBuses> fxLeft{}, fxRight{};
  std::array<bool, kFxBuses> fxSent{};
  // The voice's output at the segment's first frame (Voice::render): a span at
  // out + k adds to the send and fx buses from their frame k.
  const float* segment = nullptr;
  // A MIDI event was handled at the segment's first frame: a control step under way
  // ends there (VoiceControl.cpp).
  bool cut = false;
};

struct VoiceStart {
  const Program* program = nullptr;
  const Region* region = nullptr;
  const SampleData* sample = nullptr;
  int part = 0, key = 60, velocity = 100;
  double keyPosition = 60.0;    // the key's pitch in semitones (the part's KeyTuning)
  double sampleRate = 48000.0;
  float extraDb = 0.0f;         // rt_decay attenuation of a release trigger
  bool releaseTrigger = false;  // plays out like a one-shot
  uint64_t order = 0;           // start order, for "oldest"
  int expression = -1;          // the note's expression slot (MPE: its member channel); -1: the part's
  uint64_t frame = 0;           // the engine frame it starts at (the clock of FlexLfo::clock)
  float tempo = 120.0f;         // beats per minute (delay_beats, stop_beats)
  double songBeat = 0.0;        // the song position at the note, in beats (sync_beats)
};

class Voice {
 public:
  static constexpr int kGainRampFrames = VoiceGain::kRampFrames;
  static constexpr int kFilterStep = VoiceFilters::kStep;
  // A modulated voice renders in steps of at most this many frames, re-reading its
  // controllers before each (VoiceControl.cpp).
  static constexpr int kControlFrames = mod::kControlFrames;

  // Sets up every stage. False (and the voice stays free) when the region has no
  // playable sample.
  bool start(const VoiceStart& s, Prng& rng, const SourceScratch& scratch, const PartMix& mix) noexcept
      SPINDLE_REALTIME;
  // Adds `frames` frames to out; the voice may finish inside.
  void render(float* outLeft, float* outRight, int frames, const PartMix& mix, RenderContext& ctx) noexcept
      SPINDLE_REALTIME;

  // The voice's key now sounds at keyPosition semitones (MIDI Tuning Standard real-time).
  void retune(double keyPosition) noexcept SPINDLE_REALTIME { pitch_.retune(keyPosition); }
  // Note-off as the loop mode sees it (one_shot ignores it; loop_sustain leaves the loop).
  void noteOff() noexcept SPINDLE_REALTIME;
  // Envelope release, whatever the loop mode (all notes off, off_mode=normal).
  void release() noexcept SPINDLE_REALTIME;
  // Fade to silence, then free: stealing, choking, all sound off. Linear, or bent by
  // `shape` (Envelope::fastRelease).
  void fade(float seconds, float shape = 0.0f) noexcept SPINDLE_REALTIME;
  void kill() noexcept SPINDLE_REALTIME { active_ = false; }
  // Once the voice is no longer active, before it is reused: releases its disk stream.
  void finish() noexcept SPINDLE_REALTIME { source_.stop(); }

  bool active() const noexcept { return active_; }
  bool released() const noexcept { return released_; }
  bool fading() const noexcept { return fading_; }
  float loudness() const noexcept SPINDLE_REALTIME;  // current envelope level times the static gain
  int part() const noexcept { return part_; }
  int key() const noexcept { return key_; }
  // The note's expression slot (Expression.h: an MPE note's member channel), -1 for a
  // note of the part itself. A note-off ends the voices of its own slot only.
  int expression() const noexcept { return expression_; }
  // A note slot claimed by the voice's note (EngineNoteSlots.cpp).
  void setExpression(int slot) noexcept { expression_ = slot; }
  int velocity() const noexcept { return velocity_; }
  bool releaseTrigger() const noexcept { return releaseTrigger_; }
  uint64_t order() const noexcept { return order_; }
  const Region* region() const noexcept { return region_; }
  const Program* program() const noexcept { return program_; }
  // Render chunks this voice's source could not fully supply since it started.
  uint64_t underruns() const noexcept { return underruns_; }
  bool streaming() const noexcept { return source_.streaming(); }

  // Pedal bookkeeping, kept by the Engine's MIDI handling.
  bool keyDown = false;    // its key has not been released
  bool pedalHeld = false;  // note-off came while the sustain pedal was down
  bool sostenuto = false;  // latched by the sostenuto pedal
  bool latchedPedal = false;  // its region's sostenuto pedal was down at the last pedal move

 private:
  // Voice.cpp: every stage set up at the note's start.
  void takeNote(const VoiceStart& s) noexcept SPINDLE_REALTIME;
  void startGains(const PartMix& mix) noexcept SPINDLE_REALTIME;
  int64_t startOffset(const Region& r, const SampleData& d, int64_t last, Prng& rng) noexcept SPINDLE_REALTIME;
  SampleSource::Setup setupSource(const Region& r, const SampleData& d, bool releaseTrigger, Prng& rng) noexcept
      SPINDLE_REALTIME;
  void setupTiming(const Region& r, const VoiceStart& s, Prng& rng) noexcept SPINDLE_REALTIME;
  static int64_t syncFrames(const Region& r, const VoiceStart& s, int64_t delayFrames) noexcept SPINDLE_REALTIME;
  void startSources() noexcept SPINDLE_REALTIME;
  // VoiceOscillator.cpp: whether the sample plays as a one-cycle table, and the bank
  // that plays it when the region sets oscillator_* (or the table is a file).
  static bool playsAsTable(const Region& r, const SampleData& d) noexcept SPINDLE_REALTIME;
  void setupOscillator(const Region& r, const SampleData& d, Prng& rng) noexcept SPINDLE_REALTIME;
  void followOscillatorModulation() noexcept SPINDLE_REALTIME;
  float oscillatorDetune() const noexcept SPINDLE_REALTIME;
  float oscillatorDepth() const noexcept SPINDLE_REALTIME;
  // VoiceControl.cpp: controller modulation.
  void startModulation(const VoiceStart& s, const PartMix& mix) noexcept SPINDLE_REALTIME;
  void followEnvelopes(const PartMix& mix) noexcept SPINDLE_REALTIME;
  int beginStep(const PartMix& mix, int frames) noexcept SPINDLE_REALTIME;
  void cutStep() noexcept SPINDLE_REALTIME;
  void applyControl(const PartMix& mix, int frames) noexcept SPINDLE_REALTIME;
  void updateModulatedParams() noexcept SPINDLE_REALTIME;
  void computeModGains(const PartMix& mix) noexcept SPINDLE_REALTIME;
  float fadeoutGain() const noexcept SPINDLE_REALTIME;
  // VoiceRender.cpp: the render stages around the fetch.
  // Renders `frames` sounding frames (after the delay), in control steps when modulated.
  void renderSounding(float* outLeft, float* outRight, int frames, const PartMix& mix, RenderContext& ctx) noexcept
      SPINDLE_REALTIME;
  void renderSpan(float* outLeft, float* outRight, int frames, const PartMix& mix, RenderContext& ctx) noexcept
      SPINDLE_REALTIME;

  // The bend the voice plays, in cents: its part's (bend_up/bend_down or RPN 0) plus its
  // MPE note's own, both stepped by bend_step.
  float bendCents(const PartMix& mix) const noexcept SPINDLE_REALTIME {
    const float note = mix.noteBend != 0.0f ? curves::noteBendCents(*region_, mix.noteBend) : 0.0f;
    return curves::bendCents(*region_, mix.bend, mix.bendRange) + note;
  }
  int computeIncrements(float* pitchEnv, float* pitchLfo, int frames, const PartMix& mix) noexcept SPINDLE_REALTIME;
  // VoiceFetch.cpp: the source's frames, interpolated.
  void fetch(float* left, float* right, int frames, const float* increments, RenderContext& ctx) noexcept
      SPINDLE_REALTIME;
  int fetchChunk(float* left, float* right, int frames, const float* increments, RenderContext& ctx) noexcept
      SPINDLE_REALTIME;
  template <typename Kernel>
  int interpolate(const Kernel& kernel, const ChunkPositions& pos, float* left, float* right, int frames,
                  RenderContext& ctx) noexcept SPINDLE_REALTIME;
  // VoiceRender.cpp: amp, and the effect sends.
  void amplify(float* outLeft, float* outRight, int frames, const PartMix& mix, RenderContext& ctx) noexcept
      SPINDLE_REALTIME;
  void addSends(const float* env, int frames, int at, const PartMix& mix, RenderContext& ctx) noexcept
      SPINDLE_REALTIME;
  void mixWithFxSends(float* outLeft, float* outRight, const float* env, int frames, int at, const PartMix& mix,
                      RenderContext& ctx) noexcept SPINDLE_REALTIME;

  const Program* program_ = nullptr;
  const Region* region_ = nullptr;
  int part_ = 0, key_ = 0, expression_ = -1;
  uint64_t order_ = 0;
  bool active_ = false, released_ = false, fading_ = false;
  bool oneShot_ = false, loopSustain_ = false, stereo_ = false, releaseTrigger_ = false;
  bool hasSends_ = false;  // the region sends to an effect bus
  std::array<GainRamp, kSendBuses> sendRamps_{};  // its level into each, ramped (GainRamp.h)
  bool hasFxSends_ = false;  // the region feeds some fx bus (effect1..effect4)

  SampleSource source_;
  dsp::OscillatorBank osc_;  // plays the voice instead of source_ when oscillating_
  bool oscillating_ = false;
  double position_ = 0.0;       // unrolled source frames
  // While the increment stays the same, the positions are anchor + increment * k for the
  // k-th frame since the anchor, whatever the spans and blocks in between: the frames
  // never depend on where a block ends. Another increment sets a new anchor.
  struct PositionAnchor {
    double position = 0.0, increment = 0.0;  // increment 0: no anchor
    int64_t frames = 0;
  };
  PositionAnchor anchor_;
  // The voice's frames fetched so far (chunks lie on a grid of them), and the increment
  // the current chunk's sinc band was chosen for.
  uint64_t fetched_ = 0;
  double bandRatio_ = 1.0;
  VoicePitch pitch_;
  int quality_ = -1;  // sample_quality as an engine Quality, -1 = the engine's
  int64_t fadeoutFrames_ = 0;  // sample_fadeout in output frames
  bool sourceEnded_ = false;
  int64_t delayFrames_ = 0;
  int64_t stopFrames_ = -1;  // sounding frames left before stop_beats releases; -1 = none
  uint64_t underruns_ = 0;

  VoiceFilters filters_;
  VoiceGain gain_;
  double sampleRate_ = 48000.0;

  // Controller modulation and every envelope and LFO (VoiceControl.cpp).
  mod::VoiceMod mod_;
  bool modulated_ = false;  // continuous modulation: render in control steps
  // The control step under way: frames left in it (0: none; a still voice's steps end
  // with each render) and frames of it rendered.
  int stepLeft_ = 0, stepDone_ = 0;
  bool stepSaved_ = false;  // the step moves: VoiceMod::saveStep kept its start
  int velocity_ = 0;
  VoiceEq eq_;
  VoiceShapers shapers_;
};

}  // namespace spindle::engine
