#include "engine/dsp/Convolver.h"

#include <algorithm>
#include <array>
#include <utility>

namespace spindle::engine::dsp {

namespace {

// The head's dot product over B taps, in eight independent sums (the compiler keeps
// them in vector registers; one running sum would wait on every add).
float dot(const float* taps, const float* x) noexcept SPINDLE_REALTIME {
  std::array<float, 8> sums{};
  for (int i = 0; i < ConvolutionKernel::kPartition; i += 8)
    for (int j = 0; j < 8; ++j) sums[static_cast<std::size_t>(j)] += taps[i + j] * x[i + j];
  return ((sums[0] + sums[4]) + (sums[1] + sums[5])) + ((sums[2] + sums[6]) + (sums[3] + sums[7]));
}

// sum += x * h over the bins, on their real and imaginary parts (std::complex's
// operator* checks for infinities and NaN on every product).
void multiplyAdd(std::complex<float>* sum, const std::complex<float>* x, const std::complex<float>* h) noexcept
    SPINDLE_REALTIME {
  auto* s = reinterpret_cast<float*>(sum);
  const auto* a = reinterpret_cast<const float*>(x);
  const auto* b = reinterpret_cast<const float*>(h);
  for (int k = 0; k < 2 * ConvolutionKernel::kBins; k += 2) {
    s[k] += a[k] * b[k] - a[k + 1] * b[k + 1];
    s[k + 1] += a[k] * b[k + 1] + a[k + 1] * b[k];
  }
}

}  // namespace

static_assert(ConvolutionKernel::kPartition % 8 == 0);

void Convolver::allocate(std::shared_ptr<const ConvolutionKernel> kernel) {
  kernel_ = std::move(kernel);
  const int partitions = kernel_ ? kernel_->partitions() : 0;
  history_.assign(static_cast<std::size_t>(kChannels * 2 * kB), 0.0f);
  block_.assign(static_cast<std::size_t>(kChannels * 2 * kB), 0.0f);
  tailOut_.assign(static_cast<std::size_t>(kChannels * kB), 0.0f);
  line_.assign(static_cast<std::size_t>(kChannels * partitions * ConvolutionKernel::kBins), {});
  time_ = fftwArray<float>(ConvolutionKernel::kFftSize);
  bins_ = fftwArray<std::complex<float>>(ConvolutionKernel::kBins);
  sum_ = fftwArray<std::complex<float>>(ConvolutionKernel::kBins);
  at_ = 0;
  slot_ = 0;
}

void Convolver::reset() noexcept SPINDLE_REALTIME {
  std::fill(history_.begin(), history_.end(), 0.0f);
  std::fill(block_.begin(), block_.end(), 0.0f);
  std::fill(tailOut_.begin(), tailOut_.end(), 0.0f);
  std::fill(line_.begin(), line_.end(), std::complex<float>{});
  at_ = 0;
  slot_ = 0;
}

std::complex<float>* Convolver::line(int channel, int slot) noexcept SPINDLE_REALTIME {
  const auto index = static_cast<std::size_t>(channel * kernel_->partitions() + slot);
  return line_.data() + index * ConvolutionKernel::kBins;
}

void Convolver::process(const float* inL, const float* inR, float* outL, float* outR, int frames) noexcept
    SPINDLE_REALTIME {
  if (!kernel_) {
    std::fill_n(outL, frames, 0.0f);
    std::fill_n(outR, frames, 0.0f);
    return;
  }
  for (int done = 0; done < frames;) {
    const int n = std::min(frames - done, kB - at_);
    runChannel(0, inL + done, outL + done, n);
    runChannel(1, inR + done, outR + done, n);
    at_ += n;
    done += n;
    if (at_ == kB) runBlock();
  }
}

// Frames at_ .. at_ + frames of the current block: each input joins the history and
// the block, each output is the head's dot product plus the tail's output.
void Convolver::runChannel(int channel, const float* in, float* out, int frames) noexcept SPINDLE_REALTIME {
  const float* taps = kernel_->head(kernel_->channels() == 2 ? channel : 0);
  float* h = history(channel);
  float* b = block(channel) + kB;
  const float* tail = tailOut(channel);
  for (int i = 0; i < frames; ++i) {
    const int at = at_ + i;
    const float x = in[i];
    h[at] = x;
    h[at + kB] = x;
    b[at] = x;
    out[i] = dot(taps, h + at + 1) + tail[at];
  }
}

// A block of B inputs is complete: the tail's output for it, due over the next B frames.
void Convolver::runBlock() noexcept SPINDLE_REALTIME {
  at_ = 0;
  if (kernel_->partitions() == 0) return;
  for (int channel = 0; channel < kChannels; ++channel) runTail(channel);
  slot_ = (slot_ + 1) % kernel_->partitions();
}

// Overlap-save: the spectrum of [previous block | this block] enters the delay line;
// the sum of each line spectrum times its partition's spectrum, transformed back, gives
// the tail's output for this block in its last B frames.
void Convolver::runTail(int channel) noexcept SPINDLE_REALTIME {
  const int partitions = kernel_->partitions();
  const int irChannel = kernel_->channels() == 2 ? channel : 0;
  float* b = block(channel);
  std::copy_n(b, 2 * kB, time_.get());
  std::copy_n(b + kB, kB, b);
  ConvolutionKernel::forward(time_.get(), bins_.get());
  std::copy_n(bins_.get(), ConvolutionKernel::kBins, line(channel, slot_));
  std::fill_n(sum_.get(), ConvolutionKernel::kBins, std::complex<float>{});
  for (int p = 0; p < partitions; ++p) {
    const int slot = slot_ - p < 0 ? slot_ - p + partitions : slot_ - p;
    multiplyAdd(sum_.get(), line(channel, slot), kernel_->spectrum(irChannel, p));
  }
  ConvolutionKernel::inverse(sum_.get(), time_.get());
  std::copy_n(time_.get() + kB, kB, tailOut(channel));
}

}  // namespace spindle::engine::dsp
