#include "stream/ImpulseResponseFile.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "stream/AudioFile.h"

namespace spindle::stream {

namespace {

// sinc(x) times a Blackman window over |x| < kZeroCrossings (x in input frames at the cutoff).
double windowedSinc(double x) {
  const double half = kZeroCrossings;
  if (std::fabs(x) >= half) return 0.0;
  const double sinc = x == 0.0 ? 1.0 : std::sin(std::numbers::pi * x) / (std::numbers::pi * x);
  const double phase = std::numbers::pi * (x / half + 1.0);  // 0..2 pi over the window
  return sinc * (0.42 - 0.5 * std::cos(phase) + 0.08 * std::cos(2.0 * phase));
}

// windowedSinc at kSteps points per zero crossing, read with linear interpolation
// (within 2e-6 of the function: the sinc's curvature is at most pi^2).
class SincTable {
 public:
  static constexpr int kSteps = 1024;
  SincTable() : values_(static_cast<size_t>(kZeroCrossings * kSteps + 2)) {
    for (size_t i = 0; i < values_.size(); ++i) values_[i] = windowedSinc(static_cast<double>(i) / kSteps);
  }
  double operator()(double x) const {
    const double at = std::fabs(x) * kSteps;
    const auto i = static_cast<size_t>(at);
    if (i + 1 >= values_.size()) return 0.0;
    const double frac = at - static_cast<double>(i);
    return values_[i] + frac * (values_[i + 1] - values_[i]);
  }

 private:
  std::vector<double> values_;
};

}  // namespace

std::shared_ptr<const ImpulseResponse> readImpulseResponse(const std::filesystem::path& path, std::string& error) {
  std::unique_ptr<AudioFileReader> reader = AudioFileReader::open(path, error);
  if (!reader) return nullptr;
  const AudioFileInfo& info = reader->info();
  if (info.frames <= 0 || info.sampleRate <= 0.0) {
    error = "holds no frames";
    return nullptr;
  }
  if (static_cast<double>(info.frames) > kMaxImpulseSeconds * info.sampleRate) {
    error = "is longer than " + std::to_string(static_cast<int>(kMaxImpulseSeconds)) + " s";
    return nullptr;
  }
  auto response = std::make_shared<ImpulseResponse>();
  response->sampleRate = info.sampleRate;
  response->left.resize(static_cast<size_t>(info.frames));
  if (info.channels >= 2) response->right.resize(static_cast<size_t>(info.frames));
  const int64_t got = reader->readPlanar(response->left.data(), info.channels >= 2 ? response->right.data() : nullptr,
                                         info.frames);
  if (got <= 0) {
    error = reader->lastError().empty() ? "holds no frames" : reader->lastError();
    return nullptr;
  }
  response->left.resize(static_cast<size_t>(got));
  if (!response->right.empty()) response->right.resize(static_cast<size_t>(got));
  return response;
}

std::vector<float> resampleFrames(std::span<const float> frames, double from, double to) {
  const double ratio = to / from;  // output frames per input frame
  const double cutoff = std::min(1.0, ratio);
  const double reach = kZeroCrossings / cutoff;  // input frames each side
  const auto outFrames = static_cast<size_t>(std::ceil(static_cast<double>(frames.size()) * to / from - 1e-9));
  std::vector<float> out(outFrames);
  const SincTable sinc;
  const auto last = static_cast<int64_t>(frames.size()) - 1;
  for (size_t n = 0; n < outFrames; ++n) {
    const double t = static_cast<double>(n) / ratio;
    const auto first = std::max<int64_t>(0, static_cast<int64_t>(std::ceil(t - reach)));
    const auto end = std::min<int64_t>(last, static_cast<int64_t>(std::floor(t + reach)));
    double sum = 0.0;
    for (int64_t k = first; k <= end; ++k)
      sum += static_cast<double>(frames[static_cast<size_t>(k)]) * sinc(cutoff * (t - static_cast<double>(k)));
    out[n] = static_cast<float>(sum * cutoff / ratio);
  }
  return out;
}

std::shared_ptr<const ImpulseResponse> resampleImpulseResponse(std::shared_ptr<const ImpulseResponse> response,
                                                               double rate) {
  if (!response || rate <= 0.0 || response->sampleRate == rate) return response;
  auto out = std::make_shared<ImpulseResponse>();
  out->sampleRate = rate;
  out->left = resampleFrames(response->left, response->sampleRate, rate);
  if (!response->right.empty()) out->right = resampleFrames(response->right, response->sampleRate, rate);
  return out;
}

}  // namespace spindle::stream
