// A DecentSampler group's wave_folder and wave_shaper, played per voice: the harmonics
// they add to a sine match the instrument (bus) version's, and two notes through a group
// shaper sum as if each played alone, where the bus shaper intermodulates them.
#include <algorithm>
#include <cmath>

#include "DsEffectRender.h"

namespace decent_sampler_group_shaper_render_tests {

namespace ds = spindle::test::ds;
using ds::play;
using ds::preset;

namespace {

std::string effects(const std::string& inside) { return "<effects>" + inside + "</effects>"; }

// Key 67 above the sample's root 60: the sine at 1000 * 2^(7/12) Hz.
const double kFifth = 1000.0 * std::pow(2.0, 7.0 / 12.0);

}  // namespace

TEST_CASE("A DecentSampler group wave_folder adds a sine's 3rd harmonic per voice as the bus one does", "[app][ds-effects]") {
  // The voice folds its signal before its gain g, the bus folder after it: g fold(4 x, 1)
  // = fold(4 g x, g), so the bus folder at threshold g must sound the same.
  const auto third = [](const std::string& name, const std::string& top, const std::string& group) {
    const auto r = play(name, preset("sine.wav", top, group), 1.0);
    return ds::harmonicDb(r->left(), 0.3, 3);
  };
  const auto dry = play("group-fold-dry", preset("sine.wav", ""), 1.0);
  float peak = 0.0f;
  for (size_t i = ds::at(0.3); i < ds::at(0.8); ++i) peak = std::max(peak, std::fabs(dry->left()[i]));
  const double g = static_cast<double>(peak) / (16383.0 / 32768.0);  // the sine's peak frame is 16383
  const std::string fold1 = "<effect type=\"wave_folder\" drive=\"1\" threshold=\"1\"/>";
  const std::string fold4 = "<effect type=\"wave_folder\" drive=\"4\" threshold=\"1\"/>";
  const double group1 = third("group-fold-1", "", effects(fold1));
  const double group4 = third("group-fold-4", "", effects(fold4));
  const double bus4 = third("bus-fold-4", effects(fold4), "");
  const double busAtGain = third("bus-fold-4-g", effects("<effect type=\"wave_folder\" drive=\"4\" threshold=\"" +
                                                         std::to_string(g) + "\"/>"), "");
  INFO("3rd harmonic (dB re the fundamental): group folder drive 1 " << group1 << ", drive 4 " << group4
                                                                     << "; bus folder drive 4 " << bus4 << ", at threshold "
                                                                     << g << " " << busAtGain);
  CHECK(group1 < -80.0);  // below the threshold: unchanged
  CHECK(group4 > -20.0);
  CHECK(group4 > bus4 + 6.0);  // the voice's signal, before its gain, is folded harder
  CHECK(group4 == Approx(busAtGain).margin(0.01));
}

TEST_CASE("A DecentSampler group's wave_folder then wave_shaper run in order on each frame of the voice", "[app][ds-effects]") {
  // The sine at the root key is copied frame for frame, so dry = g x for the voice's gain
  // g (its peak frame is the sine's 16383 / 32768); the shaped voice is g times
  // 0.5 tanh(2 fold(3 x, 0.4)), fold being the triangle of period 4 * 0.4.
  const auto dry = play("group-chain-dry", preset("sine.wav", ""), 1.0);
  const auto both = play("group-chain", preset("sine.wav", "",
                                               effects("<effect type=\"wave_folder\" drive=\"3\" threshold=\"0.4\"/>"
                                                       "<effect type=\"wave_shaper\" drive=\"2\" driveBoost=\"0\" "
                                                       "outputLevel=\"0.5\" highQuality=\"false\"/>")),
                         1.0);
  const auto fold = [](double v, double t) {
    const double u = std::fmod(v + t, 4.0 * t);
    return t - std::fabs((u < 0.0 ? u + 4.0 * t : u) - 2.0 * t);
  };
  double peak = 0.0;
  for (size_t i = ds::at(0.3); i < ds::at(0.8); ++i) peak = std::max(peak, std::fabs(static_cast<double>(dry->left()[i])));
  const double g = peak / (16383.0 / 32768.0);
  double worst = 0.0;
  for (size_t i = ds::at(0.3); i < ds::at(0.8); ++i) {
    const double x = static_cast<double>(dry->left()[i]) / g;
    const double expected = g * 0.5 * std::tanh(2.0 * fold(3.0 * x, 0.4));
    worst = std::max(worst, std::fabs(static_cast<double>(both->left()[i]) - expected));
  }
  INFO("voice gain " << g << ", largest error against the folder then the shaper: " << worst);
  CHECK(g > 0.1);
  CHECK(worst < 1e-4);
}

TEST_CASE("Two notes through a group wave_shaper sum as each alone; through the bus shaper they intermodulate",
          "[app][ds-effects]") {
  const std::string shaper = "<effect type=\"wave_shaper\" drive=\"2\" driveBoost=\"0\" outputLevel=\"1\"/>";
  const auto render = [&](const std::string& name, bool group, const std::vector<int>& keys) {
    const std::string xml = group ? preset("sine.wav", "", effects(shaper)) : preset("sine.wav", effects(shaper));
    return ds::playKeys(name, xml, 1.0, keys);
  };
  const auto a = render("pv-a", true, {60}), b = render("pv-b", true, {67}), ab = render("pv-ab", true, {60, 67});
  double worst = 0.0, peak = 0.0;
  for (size_t i = 0; i < ds::at(1.5); ++i) {
    const double sum = static_cast<double>(a->left()[i]) + static_cast<double>(b->left()[i]);
    worst = std::max(worst, std::fabs(static_cast<double>(ab->left()[i]) - sum));
    peak = std::max(peak, std::fabs(static_cast<double>(ab->left()[i])));
  }
  // The product 2 f1 - f2 of 1 kHz and the fifth above (501.7 Hz), re the 1 kHz tone.
  const double imGroup = ds::toneDb(ab->left(), 0.3, 2000.0 - kFifth, 1000.0);
  const auto bus = render("bus-ab", false, {60, 67});
  const double imBus = ds::toneDb(bus->left(), 0.3, 2000.0 - kFifth, 1000.0);
  INFO("group: largest |both - (each alone summed)| " << worst << " (peak " << peak << "); 2f1-f2 at " << 2000.0 - kFifth
                                                      << " Hz: group " << imGroup << " dB, bus " << imBus << " dB");
  CHECK(peak > 0.1);
  CHECK(worst < 1e-5);
  CHECK(imGroup < -90.0);
  CHECK(imBus > -40.0);
}

TEST_CASE("A knob bound to a group wave_folder's FX_DRIVE moves each voice's folding as its CC moves", "[app][ds-effects]") {
  const std::string xml = preset("sine.wav",
                                 "<ui><tab><labeled-knob label=\"Drive\" minValue=\"0\" maxValue=\"1\" value=\"0\">"
                                 "<binding type=\"effect\" level=\"group\" groupIndex=\"0\" effectIndex=\"1\" "
                                 "parameter=\"FX_DRIVE\" translation=\"linear\" translationOutputMin=\"1\" "
                                 "translationOutputMax=\"4\"/></labeled-knob></tab></ui>",
                                 effects("<effect type=\"lowpass\" frequency=\"20000\"/>"
                                         "<effect type=\"wave_folder\" drive=\"1\" threshold=\"1\"/>"));
  using spindle::test::cc;
  const auto low = play("fold-knob-low", xml, 1.5, {cc(0, 102, 0)});
  const auto high = play("fold-knob-high", xml, 1.5, {cc(0, 102, 127)});
  const auto moved = play("fold-knob-moved", xml, 1.5, {cc(0, 102, 0), cc(ds::kRate / 2, 102, 127)});
  const double l = ds::harmonicDb(low->left(), 0.2, 3), h = ds::harmonicDb(high->left(), 0.2, 3);
  const double before = ds::harmonicDb(moved->left(), 0.2, 3), after = ds::harmonicDb(moved->left(), 0.8, 3);
  INFO("3rd harmonic: drive 1 (CC 0) " << l << " dB, drive 4 (CC 127) " << h << " dB; a held note " << before
                                       << " dB, then after the knob moved " << after << " dB");
  CHECK(l < -60.0);
  CHECK(h > -20.0);
  CHECK(before < -60.0);
  CHECK(after == Approx(h).margin(0.5));
}

}  // namespace decent_sampler_group_shaper_render_tests
