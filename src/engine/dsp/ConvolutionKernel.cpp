#include "engine/dsp/ConvolutionKernel.h"

#include <algorithm>
#include <cstring>
#include <new>

#include <fftw3.h>

namespace spindle::engine::dsp {

namespace {

struct Plans {
  fftwf_plan forward = nullptr, inverse = nullptr;
};

// FFTW_ESTIMATE: the plan does not depend on timing, so every run renders the same
// frames (FFTW_MEASURE may pick another algorithm, with other rounding, run to run).
// FFTW's planner is one per process and not thread-safe by itself: in a DAW another
// plugin may plan on another thread at the same time, so the planner is made
// thread-safe (a lock of FFTW's own around every plan and destroy) before the first plan.
Plans makePlans() {
  fftwf_make_planner_thread_safe();
  FftwArray<float> time = fftwArray<float>(ConvolutionKernel::kFftSize);
  FftwArray<std::complex<float>> bins = fftwArray<std::complex<float>>(ConvolutionKernel::kBins);
  auto* c = reinterpret_cast<fftwf_complex*>(bins.get());
  Plans p;
  p.forward = fftwf_plan_dft_r2c_1d(ConvolutionKernel::kFftSize, time.get(), c, FFTW_ESTIMATE);
  p.inverse = fftwf_plan_dft_c2r_1d(ConvolutionKernel::kFftSize, c, time.get(), FFTW_ESTIMATE);
  if (!p.forward || !p.inverse) throw std::bad_alloc();
  return p;
}

// The process's plans. The planner runs once, inside this static's initialisation (the
// one global guard ConvolutionKernel.h describes); plans live until the process ends.
const Plans& plans() {
  static const Plans made = makePlans();
  return made;
}

}  // namespace

void FftwFree::operator()(void* p) const noexcept { fftwf_free(p); }

template <typename T>
FftwArray<T> fftwArray(std::size_t count) {
  void* raw = fftwf_malloc(std::max<std::size_t>(count, 1) * sizeof(T));
  if (!raw) throw std::bad_alloc();
  std::memset(raw, 0, std::max<std::size_t>(count, 1) * sizeof(T));
  return FftwArray<T>(static_cast<T*>(raw));
}
template FftwArray<float> fftwArray<float>(std::size_t);
template FftwArray<std::complex<float>> fftwArray<std::complex<float>>(std::size_t);

ConvolutionKernel::ConvolutionKernel(std::span<const float> left, std::span<const float> right)
    : channels_(right.empty() ? 1 : 2), frames_(static_cast<int64_t>(left.size())) {
  const Plans& p = plans();
  const int64_t tail = std::max<int64_t>(0, frames_ - kPartition);
  partitions_ = static_cast<int>((tail + kPartition - 1) / kPartition);
  heads_.assign(static_cast<std::size_t>(channels_) * kPartition, 0.0f);
  spectra_.assign(static_cast<std::size_t>(channels_) * static_cast<std::size_t>(partitions_) * kBins, {});
  FftwArray<float> time = fftwArray<float>(kFftSize);
  FftwArray<std::complex<float>> bins = fftwArray<std::complex<float>>(kBins);
  const float scale = 1.0f / static_cast<float>(kFftSize);
  for (int c = 0; c < channels_; ++c) {
    const std::span<const float> taps = c == 0 ? left : right;
    float* head = heads_.data() + static_cast<std::size_t>(c) * kPartition;
    for (int i = 0; i < kPartition && i < frames_; ++i) head[kPartition - 1 - i] = taps[static_cast<std::size_t>(i)];
    for (int part = 0; part < partitions_; ++part) {
      std::fill_n(time.get(), kFftSize, 0.0f);
      const int64_t from = kPartition * static_cast<int64_t>(part + 1);
      const int64_t n = std::min<int64_t>(kPartition, frames_ - from);
      std::copy_n(taps.begin() + from, n, time.get());
      fftwf_execute_dft_r2c(p.forward, time.get(), reinterpret_cast<fftwf_complex*>(bins.get()));
      std::complex<float>* out = spectra_.data() + (static_cast<std::size_t>(c) * static_cast<std::size_t>(partitions_) +
                                                    static_cast<std::size_t>(part)) * kBins;
      for (int k = 0; k < kBins; ++k) out[k] = bins[static_cast<std::size_t>(k)] * scale;
    }
  }
}

// fftwf_execute_dft_* are declared without Clang's `nonblocking` effect. With a plan
// made beforehand they neither allocate nor lock (FFTW's documentation names them the
// thread-safe calls); RealtimeSanitizer checks that at run time. The check is waived
// for these two calls only.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
void ConvolutionKernel::forward(float* time, std::complex<float>* bins) noexcept SPINDLE_REALTIME {
  fftwf_execute_dft_r2c(plans().forward, time, reinterpret_cast<fftwf_complex*>(bins));
}

void ConvolutionKernel::inverse(std::complex<float>* bins, float* time) noexcept SPINDLE_REALTIME {
  fftwf_execute_dft_c2r(plans().inverse, reinterpret_cast<fftwf_complex*>(bins), time);
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

}  // namespace spindle::engine::dsp
