#pragma once
// Effects: the shared effects after the parts, and their settings.
//
//   part p's voices --dry--> part p's bus --> its output (the main pair, or its own)
//              \--sends--> part p's send buses --+--> reverb input --> Reverb --+
//                                                +--> chorus input --> Chorus --+--> main pair
//
// Each part's send buses are added to the effects' inputs (EffectsStage::input) at the
// segment's frame; once per block the effects render their returns into the main pair.
// An effect stops (its state is cleared) once no input has reached it and its return
// has stayed below kSilence for as long as its longest delay, so whatever its lines
// still held has come out; a program that sends nothing renders exactly as with no
// effects.
//
// set() changes a setting while the effects play (Reverb.h and Chorus.h say how each
// glides); turning an effect off stops its input, and what its lines hold dies away.
//
// The master stage: after the returns, render() scales the main pair (the parts with
// outputs of their own are not in it) by the master gain, which glides to a new value
// over GainRamp::kSeconds (5 ms); at 0 dB nothing is touched.
//
// Construction allocates (control thread); everything else runs on the audio thread.
#include <algorithm>
#include <array>
#include <vector>

#include "core/EffectParams.h"
#include "core/Realtime.h"
#include "core/Region.h"
#include "engine/effects/Chorus.h"
#include "engine/dsp/GainRamp.h"
#include "engine/effects/Reverb.h"

namespace spindle::engine {

struct EffectsSettings {
  bool reverbOn = true, chorusOn = true;
  ReverbSettings reverb;  // FluidSynth's defaults
  ChorusSettings chorus;
  float masterGainDb = 0.0f;   // the main pair after the returns
};

// The settings a table of values (core/EffectParams.h) gives, values clamped to range.
EffectsSettings effectsSettings(const EffectValues& values) noexcept SPINDLE_REALTIME;
// Sets one of them.
void setEffectsSetting(EffectsSettings& settings, EffectParam p, float value) noexcept SPINDLE_REALTIME;

class EffectsStage {
 public:
  static constexpr float kSilence = 1e-6f;  // -120 dBFS

  EffectsStage(double sampleRate, int maxBlockFrames, const EffectsSettings& settings);

  // The input of bus b for the current block (maxBlockFrames), or null when that effect
  // is off. A caller that adds to it calls fed(b).
  float* input(SendBus b) noexcept SPINDLE_REALTIME;
  void fed(SendBus b) noexcept SPINDLE_REALTIME { fed_[static_cast<size_t>(b)] = true; }
  // Adds the returns of the block's first `frames` frames to left and right, then
  // empties the inputs for the next block.
  void render(float* left, float* right, int frames) noexcept SPINDLE_REALTIME;
  // Whether some effect still sounds (its tail has not died).
  bool sounding() const noexcept SPINDLE_REALTIME { return running_[0] || running_[1]; }
  // The longest memory of the effects that run now (their tails), 0 when none does.
  int memoryFrames() const noexcept SPINDLE_REALTIME {
    return std::max(running_[0] ? reverb_.memoryFrames() : 0, running_[1] ? chorus_.memoryFrames() : 0);
  }
  void set(EffectParam p, float value) noexcept SPINDLE_REALTIME;
  const EffectsSettings& settings() const noexcept SPINDLE_REALTIME { return settings_; }

 private:
  template <class Effect>
  void run(Effect& effect, size_t bus, float* left, float* right, int frames) noexcept SPINDLE_REALTIME;
  template <class Effect>
  int runFrom(Effect& effect, size_t bus, float* left, float* right, int from, int frames) noexcept SPINDLE_REALTIME;

  void applyMaster(float* left, float* right, int frames) noexcept SPINDLE_REALTIME;

  EffectsSettings settings_;
  GainRamp master_;
  Reverb reverb_;
  Chorus chorus_;
  std::array<std::vector<float>, kSendBuses> inputs_;
  std::vector<float> returnLeft_, returnRight_;
  std::array<bool, kSendBuses> fed_{}, running_{};
  std::array<int, kSendBuses> quietFrames_{};  // see run()
};

}  // namespace spindle::engine
