#pragma once
// ConvolutionKernel: an impulse response cut for dsp::Convolver, built once on the
// loader thread and shared, immutable, by every part that plays it.
//
//   response: | head: taps 0..B-1 | partition 0: B..2B-1 | partition 1 | ... | P-1 |
//               time domain,         each zero-padded to 2B frames, transformed
//               reversed for a dot   (B + 1 bins, scaled by 1/(2B) for the inverse)
//
// B is kPartition. The FFTW plans (one real-to-complex and one complex-to-real plan of
// 2B points) are made once per process, the first time a kernel is built: FFTW's planner
// is not thread-safe, so its one call is guarded by a function-local static's
// initialisation, which C++ runs exactly once with every other caller waiting (the
// loader threads only; the audio thread only executes the plans, which FFTW allows from
// any thread with arrays aligned like the planner's: fftwf_malloc's).
#include <complex>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/Realtime.h"

struct fftwf_plan_s;

namespace spindle::engine::dsp {

// Frees what fftwf_malloc returned.
struct FftwFree {
  void operator()(void* p) const noexcept;
};
template <typename T>
using FftwArray = std::unique_ptr<T[], FftwFree>;
// Loader thread: `count` zeroed elements aligned as FFTW's plans need.
template <typename T>
FftwArray<T> fftwArray(std::size_t count);
extern template FftwArray<float> fftwArray<float>(std::size_t);
extern template FftwArray<std::complex<float>> fftwArray<std::complex<float>>(std::size_t);

class ConvolutionKernel {
 public:
  static constexpr int kPartition = 256;  // B: frames per partition, and the head's taps
  static constexpr int kFftSize = 2 * kPartition;
  static constexpr int kBins = kPartition + 1;

  // Loader thread: `right` empty for a mono response, else as long as `left`.
  ConvolutionKernel(std::span<const float> left, std::span<const float> right);

  int channels() const noexcept { return channels_; }
  int64_t frames() const noexcept { return frames_; }
  int partitions() const noexcept { return partitions_; }
  // The head's taps of `channel`, last tap first (kPartition of them, zero-padded).
  const float* head(int channel) const noexcept SPINDLE_REALTIME {
    return heads_.data() + static_cast<std::size_t>(channel) * kPartition;
  }
  // Partition p's spectrum of `channel` (kBins bins).
  const std::complex<float>* spectrum(int channel, int p) const noexcept SPINDLE_REALTIME {
    return spectra_.data() + (static_cast<std::size_t>(channel) * static_cast<std::size_t>(partitions_) +
                              static_cast<std::size_t>(p)) * kBins;
  }

  // Audio thread: 2B real frames to B + 1 bins, and back (unscaled), on fftwArray buffers.
  static void forward(float* time, std::complex<float>* bins) noexcept SPINDLE_REALTIME;
  static void inverse(std::complex<float>* bins, float* time) noexcept SPINDLE_REALTIME;

 private:
  int channels_ = 1;
  int64_t frames_ = 0;
  int partitions_ = 0;
  std::vector<float> heads_;
  std::vector<std::complex<float>> spectra_;
};

}  // namespace spindle::engine::dsp
