// DecentSampler's convolution effect rendered by spindle-render: a preset written here
// plays a short click through a generated impulse response (1.5 s of exponentially
// decaying noise, 60 dB down at its end). The tail lasts as long as the response; mix 0
// is the dry render exactly, mix 1 the convolution alone, and that equals the dry
// render convolved with the response. A response that is missing or unreadable is an
// error naming the preset and the response, and the rest plays.
#include <cmath>
#include <fstream>
#include <random>

#include "RenderSupport.h"
#include "session/Loader.h"
#include "catch.h"
#include "stream/TestAudioFiles.h"

namespace convolution_render_tests {

using spindle::test::renderSong;
using spindle::test::scratchDir;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr int kRate = 48000;
constexpr double kIrSeconds = 1.5;

// Stereo decaying noise, -60 dB at its end, at `rate`.
void writeResponse(const std::filesystem::path& file, int rate) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> noise(-1.0, 1.0);
  const int frames = static_cast<int>(kIrSeconds * rate);
  std::vector<int16_t> interleaved;
  for (int i = 0; i < frames; ++i) {
    const double gain = 0.5 * std::pow(10.0, -3.0 * i / frames);
    for (int c = 0; c < 2; ++c) interleaved.push_back(static_cast<int16_t>(std::lround(32767.0 * gain * noise(rng))));
  }
  spindle::test::writeWav16(file, 2, interleaved, static_cast<uint32_t>(rate));
}

// A 2 ms mono click: a decaying 2 kHz burst.
void writeClick(const std::filesystem::path& file) {
  std::vector<int16_t> frames;
  for (int i = 0; i < kRate / 500; ++i)
    frames.push_back(static_cast<int16_t>(std::lround(20000.0 * std::exp(-i / 20.0) * std::sin(2.0 * M_PI * 2000.0 * i / kRate))));
  spindle::test::writeWav16(file, 1, frames, kRate);
}

std::string preset(const std::string& effects) {
  return "<DecentSampler><groups><group><sample path=\"click.wav\" rootNote=\"60\" loNote=\"0\" hiNote=\"127\"/>"
         "</group></groups><effects>" + effects + "</effects></DecentSampler>\n";
}

spindle::test::Rendered render(const std::filesystem::path& dir, const std::string& name, const std::string& effects) {
  if (!std::filesystem::exists(dir / "click.wav")) writeClick(dir / "click.wav");
  std::ofstream(dir / (name + ".dspreset")) << preset(effects);
  auto r = renderSong(kExe, dir / (name + ".dspreset"), {{0, {0x90, 60, 127}}, {480, {0x80, 60, 0}}}, dir, name);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  return r;
}

std::vector<float> readChannel(const std::filesystem::path& file, int channel) {
  spindle::stream::SamplePool pool;
  const spindle::SampleData* data = pool.acquire(file.string());
  REQUIRE(data);
  std::vector<float> out(static_cast<size_t>(data->totalFrames));
  data->readFrames(channel, 0, data->totalFrames, out.data());
  return out;
}

// The last frame whose 256-frame window peaks above -90 dBFS.
size_t lastLoudFrame(const spindle::test::Rendered& r) {
  size_t last = 0;
  for (size_t at = 0; at < r.left.size(); at += 256) {
    float peak = 0.0f;
    for (size_t i = at; i < std::min(at + 256, r.left.size()); ++i) peak = std::max({peak, std::fabs(r.left[i]), std::fabs(r.right[i])});
    if (20.0 * std::log10(static_cast<double>(std::max(peak, 1e-12f))) > -90.0) last = at + 256;
  }
  return last;
}

std::vector<double> convolve(const std::vector<float>& x, const std::vector<float>& h, size_t frames) {
  std::vector<double> y(frames, 0.0);
  for (size_t n = 0; n < std::min(x.size(), frames); ++n)
    if (x[n] != 0.0f)
      for (size_t k = 0; k < h.size() && n + k < frames; ++k) y[n + k] += static_cast<double>(x[n]) * static_cast<double>(h[k]);
  return y;
}

double correlation(const std::vector<float>& a, const std::vector<double>& b) {
  double ab = 0.0, aa = 0.0, bb = 0.0;
  for (size_t i = 0; i < b.size(); ++i) {
    const double x = i < a.size() ? static_cast<double>(a[i]) : 0.0;
    ab += x * b[i], aa += x * x, bb += b[i] * b[i];
  }
  return ab / std::sqrt(aa * bb);
}

}  // namespace

TEST_CASE("convolution: the render's tail lasts as long as the response, at 48 and 44.1 kHz", "[app][convolution]") {
  const int rate = GENERATE(48000, 44100);
  const auto dir = scratchDir("convolution-tail-" + std::to_string(rate));
  writeResponse(dir / "ir.wav", rate);
  const auto wet = render(dir, "wet", "<effect type=\"convolution\" mix=\"1\" irFile=\"ir.wav\"/>");
  const double seconds = static_cast<double>(lastLoudFrame(wet)) / kRate;
  INFO("above -90 dBFS until " << seconds << " s; rendered " << static_cast<double>(wet.left.size()) / kRate << " s");
  CHECK(seconds > 0.9 * kIrSeconds);
  CHECK(seconds < kIrSeconds + 4 * 256.0 / kRate);
  CHECK(static_cast<double>(wet.left.size()) / kRate >= kIrSeconds);
}

TEST_CASE("convolution: mix 0 is the dry render, mix 1 the dry render convolved with the response", "[app][convolution]") {
  const auto dir = scratchDir("convolution-mix");
  writeResponse(dir / "ir.wav", kRate);
  const auto dry = render(dir, "dry", "");
  const auto none = render(dir, "mix0", "<effect type=\"convolution\" mix=\"0\" irFile=\"ir.wav\"/>");
  REQUIRE(none.left.size() >= dry.left.size());
  size_t differing = 0;
  for (size_t i = 0; i < none.left.size(); ++i) {
    const float l = i < dry.left.size() ? dry.left[i] : 0.0f, r = i < dry.right.size() ? dry.right[i] : 0.0f;
    differing += (none.left[i] != l) + (none.right[i] != r);
  }
  CHECK(differing == 0);
  const auto wet = render(dir, "mix1", "<effect type=\"convolution\" mix=\"1\" irFile=\"ir.wav\"/>");
  const size_t frames = static_cast<size_t>(kIrSeconds * kRate) + dry.left.size();
  REQUIRE(wet.left.size() >= frames);
  const double left = correlation(wet.left, convolve(dry.left, readChannel(dir / "ir.wav", 0), frames));
  const double right = correlation(wet.right, convolve(dry.right, readChannel(dir / "ir.wav", 1), frames));
  INFO("1 - correlation: left " << 1.0 - left << ", right " << 1.0 - right);
  CHECK(left > 0.999);
  CHECK(right > 0.999);
}

TEST_CASE("convolution: a missing or unreadable response is an error naming the preset and the file", "[app][convolution]") {
  const auto dir = scratchDir("convolution-missing");
  writeClick(dir / "click.wav");
  std::ofstream(dir / "broken.wav") << "not audio at all";
  const std::string written = GENERATE(std::string("missing.wav"), std::string("broken.wav"));
  std::ofstream(dir / "p.dspreset") << preset("<effect type=\"convolution\" irFile=\"" + written + "\"/>");
  spindle::session::Loader loader;
  const auto result = loader.load(dir / "p.dspreset");
  REQUIRE(result.program);  // the click still plays
  CHECK(result.report.samplesLoaded == 1);
  CHECK(result.program->busLayout.effects.empty());
  int named = 0;
  for (const auto& d : result.report.diagnostics)
    named += d.severity == spindle::instrument::Diagnostic::Severity::Error && d.file == (dir / "p.dspreset").string() &&
             d.message.find((dir / written).string()) != std::string::npos;
  CHECK(named == 1);
}

}  // namespace convolution_render_tests
