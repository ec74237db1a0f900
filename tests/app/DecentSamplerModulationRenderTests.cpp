// DecentSampler effects that move or add harmonics, rendered through the app Loader and
// the engine: the chorus and phaser modulating at modRate, the wave folder and wave
// shaper adding harmonics of a sine as their drive rises, and a global LFO sweeping an
// instrument lowpass.
#include "DsEffectRender.h"

namespace decent_sampler_modulation_render_tests {

namespace ds = spindle::test::ds;
using ds::play;
using ds::preset;

namespace {

std::string effects(const std::string& inside) { return "<effects>" + inside + "</effects>"; }

constexpr double kHop = 0.02;  // 20 ms windows

}  // namespace

TEST_CASE("DecentSampler chorus: a sine's pitch swings at modRate", "[app][ds-effects]") {
  const auto c = play("chorus", preset("sine.wav", effects("<effect type=\"chorus\" mix=\"1\" modDepth=\"1\" modRate=\"2\"/>")), 2.0);
  const std::vector<double> hz = ds::windowFrequencies(c->left(), 0.2, 1.9, kHop);
  const auto [lo, hi] = std::minmax_element(hz.begin(), hz.end());
  const double t = ds::period(hz, kHop, 0.15, 0.9);
  INFO("frequency " << *lo << " .. " << *hi << " Hz, period " << t << " s");
  CHECK((*lo < 960.0 && *hi > 1040.0));  // the sweep's slope: +-6 ms * 2 pi * 2 Hz = +-7.5 %
  CHECK(t == Approx(0.5).margin(0.01));
  const auto still = play("chorus-still", preset("sine.wav", effects("<effect type=\"chorus\" mix=\"1\" modDepth=\"0\" modRate=\"2\"/>")), 2.0);
  const std::vector<double> flat = ds::windowFrequencies(still->left(), 0.2, 1.9, kHop);
  const auto [flo, fhi] = std::minmax_element(flat.begin(), flat.end());
  CHECK((*flo > 999.0 && *fhi < 1001.0));
}

TEST_CASE("DecentSampler phaser: a sine's level swings at modRate", "[app][ds-effects]") {
  const auto p = play("phaser", preset("sine.wav", effects("<effect type=\"phaser\" mix=\"0.5\" modDepth=\"1\" modRate=\"2\" "
                                                             "centerFrequency=\"1000\" feedback=\"0\"/>")),
                      2.0);
  std::vector<double> levels;
  for (double t = 0.2; t + kHop <= 1.9; t += kHop) levels.push_back(ds::level(*p, t, t + kHop));
  const auto [lo, hi] = std::minmax_element(levels.begin(), levels.end());
  const double t = ds::period(levels, kHop, 0.15, 0.9);
  INFO("level " << *lo << " .. " << *hi << " dB, period " << t << " s");
  CHECK(*hi - *lo > 10.0);  // notches sweep through 1 kHz
  CHECK(t == Approx(0.5).margin(0.01));
}

TEST_CASE("DecentSampler wave_folder and wave_shaper add harmonics of a sine as their drive rises", "[app][ds-effects]") {
  const auto third = [](const std::string& name, const std::string& effect) {
    const auto r = play(name, preset("sine.wav", effects(effect)), 1.0);
    return ds::harmonicDb(r->left(), 0.3, 3);
  };
  const double dry = third("h-dry", "");
  const double fold1 = third("fold-1", "<effect type=\"wave_folder\" drive=\"1\" threshold=\"1\"/>");
  const double fold4 = third("fold-4", "<effect type=\"wave_folder\" drive=\"4\" threshold=\"1\"/>");
  const double shape1 = third("shape-1", "<effect type=\"wave_shaper\" drive=\"1\" driveBoost=\"0\" outputLevel=\"1\"/>");
  const double shape10 = third("shape-10", "<effect type=\"wave_shaper\" drive=\"10\" driveBoost=\"0\" outputLevel=\"1\"/>");
  INFO("3rd harmonic (dB re the fundamental): dry " << dry << ", folder drive 1 " << fold1 << ", 4 " << fold4
                                                   << "; shaper drive 1 " << shape1 << ", 10 " << shape10);
  CHECK(dry < -80.0);
  CHECK(fold1 < -80.0);  // below the threshold: unchanged
  CHECK(fold4 > -20.0);
  CHECK((shape1 > -60.0 && shape1 < -25.0));  // tanh's gentle curve
  CHECK(shape10 > -15.0);
}

TEST_CASE("A global sine LFO at 2 Hz sweeps an instrument lowpass: the centroid swings with a 0.5 s period", "[app][ds-effects]") {
  const auto r = play("lfo", preset("noise.wav", effects("<effect type=\"lowpass\" frequency=\"1000\"/>") +
                                                     "<modulators><lfo shape=\"sine\" frequency=\"2\" modAmount=\"1\">"
                                                     "<binding type=\"effect\" level=\"instrument\" position=\"0\" "
                                                     "parameter=\"FX_FILTER_FREQUENCY\" translation=\"linear\" "
                                                     "translationOutputMin=\"300\" translationOutputMax=\"6000\"/>"
                                                     "</lfo></modulators>"),
                      2.5);
  const std::vector<double> c = ds::windowCentroids(r->left(), 0.2, 2.4, kHop);
  const auto [lo, hi] = std::minmax_element(c.begin(), c.end());
  const double t = ds::period(c, kHop, 0.15, 0.9);
  INFO("centroid " << *lo << " .. " << *hi << " Hz, period " << t << " s");
  CHECK((*lo < 1000.0 && *hi > 3000.0));
  CHECK(t == Approx(0.5).margin(0.01));
}

TEST_CASE("DecentSampler mpeTimbre opens each MPE note's own lowpass: two notes, two timbre curves, two centroids",
          "[app][ds-effects][mpe]") {
  // Two groups of noise, hard left (keys 0..59) and hard right (60..127), each with a
  // lowpass whose cutoff mpeTimbre moves from 300 Hz to 8 kHz: the left channel is one
  // note, the right the other. A lower zone of 15; the note on member channel 2 brightens
  // (CC74 0 -> 127 over 1.5 s), the one on channel 3 darkens (127 -> 0).
  auto group = [](const char* pan, const char* lo, const char* hi) {
    return std::string("<group pan=\"") + pan + "\"><sample path=\"noise.wav\" loNote=\"" + lo + "\" hiNote=\"" + hi +
           "\" rootNote=\"60\"/><effects><effect type=\"lowpass\" frequency=\"1000\"/></effects></group>";
  };
  std::string binding;
  for (const char* index : {"0", "1"})
    binding += std::string("<binding type=\"effect\" level=\"group\" groupIndex=\"") + index +
               "\" effectIndex=\"0\" parameter=\"FX_FILTER_FREQUENCY\" translation=\"linear\" "
               "translationOutputMin=\"300\" translationOutputMax=\"8000\"/>";
  const std::string xml = "<DecentSampler><groups ampVelTrack=\"0\">" + group("-100", "0", "59") + group("100", "60", "127") + "</groups><modulators><mpeTimbre>" + binding +
                          "</mpeTimbre></modulators></DecentSampler>";
  std::vector<spindle::test::TimedEvent> song{spindle::test::cc(0, 101, 0), spindle::test::cc(0, 100, 6),
                                              spindle::test::cc(0, 6, 15), spindle::test::cc(0, 74, 0, 1),
                                              spindle::test::cc(0, 74, 127, 2), spindle::test::noteOn(10, 59, 127, 1),
                                              spindle::test::noteOn(10, 60, 127, 2)};
  for (int step = 1; step <= 127; ++step) {
    const int64_t frame = 4800 + static_cast<int64_t>(step) * 72000 / 127;  // 0.1 s .. 1.6 s
    song.push_back(spindle::test::cc(frame, 74, step, 1));
    song.push_back(spindle::test::cc(frame, 74, 127 - step, 2));
  }
  const auto p = ds::playKeys("mpe-timbre", xml, 2.0, {}, song);
  const auto early = [&](const std::vector<float>& x) { return ds::windowCentroids(x, 0.02, 0.08, 0.02).front(); };
  const auto late = [&](const std::vector<float>& x) { return ds::windowCentroids(x, 1.7, 1.8, 0.02).front(); };
  const double leftEarly = early(p->left()), leftLate = late(p->left());
  const double rightEarly = early(p->render->right), rightLate = late(p->render->right);
  INFO("brightening note: " << leftEarly << " -> " << leftLate << " Hz; darkening: " << rightEarly << " -> " << rightLate);
  CHECK(leftLate > 3.0 * leftEarly);
  CHECK(rightEarly > 3.0 * rightLate);
  CHECK(leftLate > 2.0 * rightLate);
}

}  // namespace decent_sampler_modulation_render_tests
