#pragma once
// The lofi, disto, comp, gate and limiter bus effect kinds (EffectKind.h): each runs
// its engine/dsp processor on the control step's parameters (`to`); disto's dry and wet
// ramp across the step. None holds a buffer, only its processor's fixed state (the
// largest, disto's, is about 6 KiB).
#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/dsp/Compressor.h"
#include "engine/dsp/Disto.h"
#include "engine/dsp/Gate.h"
#include "engine/dsp/Limiter.h"
#include "engine/dsp/Lofi.h"
#include "engine/effects/EffectKind.h"

namespace spindle::engine {

class LofiEffect : public EffectKindBase {
 public:
  void start(const BusEffect&, double sampleRate) noexcept SPINDLE_REALTIME;
  void process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
  // A held frame outlasts its input by the longest hold, then the two smoothing stages.
  int memoryFrames() const noexcept SPINDLE_REALTIME { return static_cast<int>(0.005 * rate_) + 2 * dsp::Lofi::kDelay; }

 private:
  dsp::Lofi lofi_;
  double rate_ = 48000.0;
};

class DistoEffect : public EffectKindBase {
 public:
  void start(const BusEffect&, double sampleRate) noexcept SPINDLE_REALTIME { disto_.setup(sampleRate); }
  void process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
  int memoryFrames() const noexcept SPINDLE_REALTIME { return 4 * dsp::kHalfBandTaps; }  // its oversampling's delay

 private:
  dsp::Disto disto_;
};

class CompEffect : public EffectKindBase {
 public:
  void start(const BusEffect&, double sampleRate) noexcept SPINDLE_REALTIME { comp_.setup(sampleRate); }
  void process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;

 private:
  dsp::Compressor comp_;
};

class GateEffect : public EffectKindBase {
 public:
  void start(const BusEffect&, double sampleRate) noexcept SPINDLE_REALTIME { gate_.setup(sampleRate); }
  void process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;

 private:
  dsp::Gate gate_;
};

class LimiterEffect : public EffectKindBase {
 public:
  void start(const BusEffect&, double sampleRate) noexcept SPINDLE_REALTIME { limiter_.setup(sampleRate); }
  void process(const BusEffect&, const EffectStep&, float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
    limiter_.process(left, right, frames);
  }
  int memoryFrames() const noexcept SPINDLE_REALTIME { return 2 * dsp::kHalfBandTaps; }  // its oversampling's delay

 private:
  dsp::Limiter limiter_;
};

}  // namespace spindle::engine
