#pragma once
// Modal model of an electric-piano tine read by an electromagnetic pickup. Renders one
// sustain sample (a key struck at a given strength) or one release sample (the damper
// landing on the tine). Deterministic: the only randomness is a seeded generator.
// The reasoning behind the model is in the comment block at the top of main.cpp.
#include <cstdint>
#include <vector>

namespace spindle::instrument {

struct Strike {
  int key = 60;          // MIDI key; the fundamental is exactly keyFrequency(key)
  double strength = 0.5; // hammer strike strength, 0..1
  int roundRobin = 0;    // variation index: changes seed, bending-mode tuning, pickup bias
};

// A struck note of `frames` frames at kSampleRate, normalised to `peakLevel`, faded out at
// the end so the last frame is silent.
std::vector<float> renderSustain(const Strike& strike, std::int64_t frames, double peakLevel);

// The key-off sound of `key`: the felt damper's thump and the tine choked within ~0.1 s.
std::vector<float> renderRelease(int key, std::int64_t frames, double peakLevel);

}  // namespace spindle::instrument
