#pragma once
// BusReverb: the SFZ bus `reverb` / `fverb` effect: a predelay, then a feedback delay
// network of 8 lines (the structure of dsp::Reverb: a Householder matrix, each line
// with its T60 gain and a one-pole damping), then a tone low-pass on the wet output.
//
//   (L+R)/2 x input% -> [predelay] -> tone low-pass -> FDN (8 lines) -> x wet% --+
//   bus input x dry% -----------------------------------------------------------+-> out
//
// The parameters follow sfizz's fverb where it defines them: reverb_type picks a decay
// range (its decay at size 100, half of it at size 0: large_hall 90 %, large_room 65,
// mid_hall 75, mid_room 50, small_hall 50, small_room 5; chamber as large_hall) and
// reverb_size moves within it; the decay % gives T60 = 1.6 s * 9^((decay - 45) / 45)
// (a large hall: 1.6 s at size 0, 4.8 s at 50, 14.4 s at 100, near sfizz's tails), and
// the size stretches the lines from 0.5 to 1 times their longest (55..102 ms). The wet
// level is scaled by (T60 / 4.8 s)^-0.375, so a held note's reverb grows 2 dB from size
// 10 to 90 as sfizz's does. reverb_tone is the input low-pass's corner and reverb_damp
// the lines' (their one-pole low-passes), both on sfizz's scale: the pitch 21 + 1.08 x %
// (tone 100: 14 kHz; damping at 100 - damp/2, so damp 100 puts it at 622 Hz).
// reverb_predelay is in seconds (at most kMaxPredelaySeconds). Even lines feed the left
// output and odd lines the right, so a mono input comes out wide.
//
// allocate() sizes the lines and the predelay on the loader thread; the rest is real-time.
#include <array>
#include <cstddef>
#include <vector>

#include "core/BusEffects.h"
#include "core/Realtime.h"

namespace spindle::engine {

class BusReverb {
 public:
  using Params = std::array<float, kBusParams>;
  static constexpr int kLines = 8;
  static constexpr double kMaxPredelaySeconds = 1.0;

  // T60 at low frequencies for a decay in %; the decay of a reverb_type at a size in %;
  // the frequency of sfizz's pitch scale at a tone or damping in %.
  static double decaySeconds(double decayPercent) noexcept SPINDLE_REALTIME;
  static double decayPercent(int reverbType, double sizePercent) noexcept SPINDLE_REALTIME;
  static double pitchHz(double percent) noexcept SPINDLE_REALTIME;

  void allocate(const BusEffect& effect);  // loader thread
  void start(double sampleRate) noexcept SPINDLE_REALTIME;
  // New line lengths and gains from size, damp and tone (once per smoothing step).
  void configure(const BusEffect& effect, const Params& p) noexcept SPINDLE_REALTIME;
  void process(const Params& p, float* left, float* right, int frames) noexcept SPINDLE_REALTIME;
  // Frames before an input has surely reached the output: the longest predelay and line.
  int memoryFrames() const noexcept SPINDLE_REALTIME;

 private:
  struct Line {
    int length = 1;
    float gain = 1.0f, damp = 0.0f, state = 0.0f;
  };
  float network(float in, float& right) noexcept SPINDLE_REALTIME;
  // Line i's frames (the memory holds the predelay, then the lines).
  float* buffer(size_t i) noexcept SPINDLE_REALTIME { return memory_.data() + predelayCapacity_ + i * lineCapacity_; }

  std::vector<float> memory_;
  std::array<Line, kLines> lines_{};
  size_t lineCapacity_ = 1, predelayCapacity_ = 1, at_ = 0;
  int predelayFrames_ = 0;
  double rate_ = 48000.0;
  float level_ = 0.5f;  // the wet output's scale for the decay time
  float tone_ = 1.0f, toneState_ = 0.0f;  // the input's one-pole low-pass
};

}  // namespace spindle::engine
