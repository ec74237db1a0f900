#pragma once
// ImpulseResponse: the frames a convolution effect convolves its bus with, as a loader
// thread decoded them (and resampled them to the engine's rate). Shared and immutable
// once built: every part that plays the effect reads the same frames.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace spindle {

struct ImpulseResponse {
  double sampleRate = 0.0;
  std::vector<float> left;   // the first channel
  std::vector<float> right;  // the second; empty for a mono response
  int64_t frames() const noexcept { return static_cast<int64_t>(left.size()); }
  int channels() const noexcept { return right.empty() ? 1 : 2; }
};

// Where a convolution effect's response comes from, and its frames once read.
struct ImpulseResponseRef {
  std::string file;       // resolved path of the response
  std::string writtenIn;  // the instrument file that names it
  int line = 0;           // its line there (0: unknown)
  std::shared_ptr<const ImpulseResponse> frames;  // null until formats reads the file
};

}  // namespace spindle
