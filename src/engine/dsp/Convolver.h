#pragma once
// Convolver: a stereo signal convolved with a ConvolutionKernel (a mono response
// convolves both channels, a stereo one each channel with its own), with no latency,
// for any number of frames per call.
//
//   y[n] = sum_{k < B} h[k] x[n-k]              head: direct, frame by frame
//        + sum_{k >= B} h[k] x[n-k]             tail: uniformly partitioned FFT
//
// The tail is the response past its first B taps convolved by overlap-save in
// partitions of B (2B-point FFTs, a frequency-domain delay line of P spectra per
// channel): its output for a block of B input frames is ready when the block is
// complete, B frames before any of it is due, so the sum has no latency
// (kLatencyFrames = 0). The FFT work comes once every B frames, in the call that
// completes a block; the head costs B multiply-adds per frame and channel.
//
// Memory per Convolver (per part): the delay line, 2 channels x P x (B + 1) complex
// bins, about 2 x 2 x (response frames) floats; plus a few blocks of B.
//
// allocate() on the loader thread; reset() and process() on the audio thread.
#include <complex>
#include <memory>
#include <vector>

#include "core/Realtime.h"
#include "engine/dsp/ConvolutionKernel.h"

namespace spindle::engine::dsp {

class Convolver {
 public:
  static constexpr int kLatencyFrames = 0;
  static constexpr int kChannels = 2;

  // Loader thread: sizes every buffer for `kernel` (null: the output is silence).
  void allocate(std::shared_ptr<const ConvolutionKernel> kernel);
  const ConvolutionKernel* kernel() const noexcept SPINDLE_REALTIME { return kernel_.get(); }
  // Loader thread: the kernel, to share with another Convolver.
  std::shared_ptr<const ConvolutionKernel> kernelShared() const { return kernel_; }

  // Clears the input history: the output starts from silence.
  void reset() noexcept SPINDLE_REALTIME;
  // outL/outR = the convolution of inL/inR (any frame count; out may be in).
  void process(const float* inL, const float* inR, float* outL, float* outR, int frames) noexcept SPINDLE_REALTIME;

 private:
  static constexpr int kB = ConvolutionKernel::kPartition;
  void runChannel(int channel, const float* in, float* out, int frames) noexcept SPINDLE_REALTIME;
  void runBlock() noexcept SPINDLE_REALTIME;
  void runTail(int channel) noexcept SPINDLE_REALTIME;
  float* history(int channel) noexcept SPINDLE_REALTIME { return history_.data() + channel * 2 * kB; }
  float* block(int channel) noexcept SPINDLE_REALTIME { return block_.data() + channel * 2 * kB; }
  float* tailOut(int channel) noexcept SPINDLE_REALTIME { return tailOut_.data() + channel * kB; }
  std::complex<float>* line(int channel, int slot) noexcept SPINDLE_REALTIME;

  std::shared_ptr<const ConvolutionKernel> kernel_;
  std::vector<float> history_;  // per channel 2B: the last B inputs, twice (the head reads B in a row)
  std::vector<float> block_;    // per channel 2B: the previous block of B inputs, then the current one
  std::vector<float> tailOut_;  // per channel B: the tail's output for the current block
  std::vector<std::complex<float>> line_;  // per channel P spectra: the delay line
  FftwArray<float> time_;                  // 2B, the transforms' time side
  FftwArray<std::complex<float>> bins_, sum_;
  int at_ = 0;    // frames of the current block so far (also the history's write index)
  int slot_ = 0;  // the delay line's newest spectrum
};

}  // namespace spindle::engine::dsp
