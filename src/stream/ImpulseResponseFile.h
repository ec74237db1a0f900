#pragma once
// An impulse response (core/ImpulseResponse.h) read from an audio file and resampled:
// the convolution effect's frames. Loader thread.
//
// The file is anything AudioFileReader reads (WAV, AIFF, FLAC, ...); its first two
// channels are kept (a mono file gives a mono response). Resampling is a windowed sinc
// (Blackman window, kZeroCrossings each side, the cutoff at the lower Nyquist; read from
// a table of 1024 points per zero crossing), scaled
// by the rate ratio so the response's gain is kept: a unit impulse at 44.1 kHz stays a
// filter of gain 1 at 48 kHz.
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/ImpulseResponse.h"

namespace spindle::stream {

inline constexpr double kMaxImpulseSeconds = 30.0;  // a longer response is refused
inline constexpr int kZeroCrossings = 32;

// The response in `path`; null with `error` set (the reader's reason, or its length)
// when it cannot be read or is empty.
std::shared_ptr<const ImpulseResponse> readImpulseResponse(const std::filesystem::path& path, std::string& error);

// `response` at `rate`: itself when it is at that rate already.
std::shared_ptr<const ImpulseResponse> resampleImpulseResponse(std::shared_ptr<const ImpulseResponse> response,
                                                               double rate);

// One channel from `from` Hz to `to` Hz.
std::vector<float> resampleFrames(std::span<const float> frames, double from, double to);

}  // namespace spindle::stream
