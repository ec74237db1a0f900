#include "engine/effects/Convolution.h"

#include <algorithm>
#include <limits>

namespace spindle::engine {

void Convolution::allocate(const BusEffect& effect, const Convolution* shared) {
  std::shared_ptr<const dsp::ConvolutionKernel> kernel;
  if (shared && shared->convolver_.kernel()) {
    kernel = shared->convolver_.kernelShared();
  } else if (const auto& ir = effect.impulse.frames; ir && ir->frames() > 0) {
    kernel = std::make_shared<const dsp::ConvolutionKernel>(ir->left, ir->right);
  }
  convolver_.allocate(std::move(kernel));
}

void Convolution::start(const BusEffect&, double) noexcept SPINDLE_REALTIME { convolver_.reset(); }

int Convolution::memoryFrames() const noexcept SPINDLE_REALTIME {
  const dsp::ConvolutionKernel* kernel = convolver_.kernel();
  if (!kernel) return 0;
  return static_cast<int>(std::min<int64_t>(kernel->frames(), std::numeric_limits<int>::max()));
}

void Convolution::process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  const float a = std::clamp(busParam(step.from, BusParam::ConvolutionMix), 0.0f, 1.0f);
  const float b = std::clamp(busParam(step.to, BusParam::ConvolutionMix), 0.0f, 1.0f);
  for (int done = 0; done < frames;) {
    const int n = std::min(frames - done, kMaxFrames);
    convolver_.process(left + done, right + done, wetLeft_.data(), wetRight_.data(), n);
    for (int i = 0; i < n; ++i) {
      const float mix = step.ramp.at(a, b, done + i);
      left[done + i] = (1.0f - mix) * left[done + i] + mix * wetLeft_[static_cast<size_t>(i)];
      right[done + i] = (1.0f - mix) * right[done + i] + mix * wetRight_[static_cast<size_t>(i)];
    }
    done += n;
  }
}

}  // namespace spindle::engine
