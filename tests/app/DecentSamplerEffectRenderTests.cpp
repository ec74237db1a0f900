// DecentSampler <effects> played: each instrument effect type rendered through the app
// Loader and the engine against the dry render (levels, centroids, echo positions,
// tail decay), a group's lowpass as its voices' filter, and a knob bound to a filter.
#include "DsEffectRender.h"
#include "Fixtures.h"

namespace decent_sampler_effect_render_tests {

namespace ds = spindle::test::ds;
using ds::centroid;
using ds::level;
using ds::play;
using ds::preset;
using ds::Played;
using ds::at;
using ds::kRate;
using spindle::test::bandPowerDb;

namespace {

std::string effects(const std::string& inside) { return "<effects>" + inside + "</effects>"; }

}  // namespace

TEST_CASE("DecentSampler lowpass and highpass at 1 kHz move the noise's centroid below 1.5 kHz and above", "[app][ds-effects]") {
  const auto dry = play("dry", preset("noise.wav", ""), 2.0);
  const auto lp = play("lowpass", preset("noise.wav", effects("<effect type=\"lowpass\" frequency=\"1000\"/>")), 2.0);
  const auto hp = play("highpass", preset("noise.wav", effects("<effect type=\"highpass\" frequency=\"1000\"/>")), 2.0);
  const auto lp1 = play("lowpass1", preset("noise.wav", effects("<effect type=\"lowpass_1pl\" frequency=\"1000\"/>")), 2.0);
  const double d = centroid(*dry, 0.5, 1.5), l = centroid(*lp, 0.5, 1.5), h = centroid(*hp, 0.5, 1.5);
  const double l1 = centroid(*lp1, 0.5, 1.5);
  INFO("dry " << d << " Hz, lowpass " << l << ", lowpass_1pl " << l1 << ", highpass " << h);
  CHECK(d > 10000.0);
  CHECK(l < 1500.0);
  CHECK((l1 > l && l1 < d * 0.5));  // one pole: a gentler slope
  CHECK((h > d && h > 1500.0));
}

TEST_CASE("DecentSampler lowpass_4pl at 1 kHz falls 24 dB per octave, twice lowpass's 12, as instrument and group effect",
          "[app][ds-effects]") {
  // Noise through each filter: the fall from the band around 250 Hz (the passband) to
  // the bands an octave (1.9-2.1 kHz) and two octaves (3.8-4.2 kHz) above the cutoff,
  // less the dry render's own fall; the slope is the difference of the two octaves.
  const auto dry = play("dry", preset("noise.wav", ""), 2.0);
  const auto band = [](const Played& p, double lo, double hi) {
    return bandPowerDb(p.render->left, p.render->right, at(0.2), at(1.8), kRate, lo, hi);
  };
  const auto fall = [&](const Played& p, double hz) {
    return (band(p, 200.0, 300.0) - band(p, 0.95 * hz, 1.05 * hz)) - (band(*dry, 200.0, 300.0) - band(*dry, 0.95 * hz, 1.05 * hz));
  };
  const std::string lp4 = "<effects><effect type=\"lowpass_4pl\" frequency=\"1000\"/></effects>";
  const auto two = play("lp2", preset("noise.wav", effects("<effect type=\"lowpass\" frequency=\"1000\"/>")), 2.0);
  const auto four = play("lp4", preset("noise.wav", lp4), 2.0);
  const auto group = play("lp4-group", preset("noise.wav", "", lp4), 2.0);
  for (const auto* p : {two.get(), four.get(), group.get()}) {
    const double octave = fall(*p, 2000.0), slope = fall(*p, 4000.0) - octave;
    INFO((p == two.get() ? "lowpass" : p == four.get() ? "lowpass_4pl" : "group lowpass_4pl")
         << ": " << octave << " dB down an octave above, then " << slope << " dB per octave");
    const double poles = p == two.get() ? 2.0 : 4.0;
    CHECK(octave == Approx(10.0 * std::log10(1.0 + std::pow(2.0, 2.0 * poles))).margin(1.5));  // Butterworth at 2 fc
    CHECK(slope == Approx(6.0 * poles).margin(1.5));
  }
}

TEST_CASE("DecentSampler gain -6 dB is -6 dB, and levelUnit linear 0.5 the same", "[app][ds-effects]") {
  const auto dry = play("dry", preset("noise.wav", ""), 2.0);
  const auto db = play("gain-db", preset("noise.wav", effects("<effect type=\"gain\" level=\"-6\"/>")), 2.0);
  const auto lin = play("gain-lin", preset("noise.wav", effects("<effect type=\"gain\" levelUnit=\"linear\" level=\"0.5\"/>")), 2.0);
  const double inDb = level(*db, 0.5, 1.5) - level(*dry, 0.5, 1.5), linear = level(*lin, 0.5, 1.5) - level(*dry, 0.5, 1.5);
  INFO("gain -6 dB: " << inDb << " dB; linear 0.5: " << linear << " dB");
  CHECK(inDb == Approx(-6.0).margin(0.1));
  CHECK(linear == Approx(-6.02).margin(0.1));
}

namespace {

// The frame of the largest |x| within `radius` frames of `around`.
size_t peakNear(const std::vector<float>& x, size_t around, size_t radius) {
  size_t best = around - radius;
  for (size_t i = around - radius; i <= around + radius; ++i)
    if (std::fabs(x[i]) > std::fabs(x[best])) best = i;
  return best;
}

}  // namespace

TEST_CASE("DecentSampler delay: echoes at delayTime -/+ stereoOffset/2 per side, to the frame, decaying by feedback", "[app][ds-effects]") {
  const auto d = play("delay", preset("click-at-100ms.wav", effects("<effect type=\"delay\" delayTime=\"0.25\" stereoOffset=\"0.02\" "
                                                              "feedback=\"0.5\" wetLevel=\"0.8\"/>")),
                      1.0);
  const auto& left = d->render->left;
  const auto& right = d->render->right;
  const size_t dry = peakNear(left, 4800, 400);
  const size_t l1 = peakNear(left, dry + 11520, 300), r1 = peakNear(right, dry + 12480, 300);
  const size_t l2 = peakNear(left, dry + 23040, 300);
  INFO("dry at " << dry << ", left echoes at " << l1 << ", " << l2 << ", right at " << r1);
  CHECK(l1 == dry + 11520);  // 0.24 s
  CHECK(r1 == dry + 12480);  // 0.26 s
  CHECK(l2 == dry + 23040);
  INFO("echo levels: " << left[l1] / left[dry] << " of the dry, then " << left[l2] / left[l1] << " of the first");
  CHECK(left[l1] / left[dry] == Approx(0.8).epsilon(0.01));  // wetLevel
  CHECK(left[l2] / left[l1] == Approx(0.5).epsilon(0.01));   // feedback
  CHECK(right[dry] == Approx(left[dry]));                     // the dry signal passes at full level
}

TEST_CASE("DecentSampler musical_time delay: a quarter note of the engine's tempo, 120 BPM then a set 90 BPM", "[app][ds-effects][tempo]") {
  // delayTime 10: a quarter note (dspreset/MusicalTime.h), both taps; a knob of
  // valueType musical_time at 7 (an eighth) moves it through its binding.
  const std::string xml = preset("click-at-100ms.wav",
                                 effects("<effect type=\"delay\" delayTimeFormat=\"musical_time\" delayTime=\"10\" "
                                         "feedback=\"0\" wetLevel=\"0.8\"/>"));
  const auto at120 = play("synced-120", xml, 1.0);
  const size_t dry = peakNear(at120->render->left, 4800, 400);
  CHECK(peakNear(at120->render->left, dry + 24000, 300) == dry + 24000);  // 0.5 s at 120 BPM
  CHECK(peakNear(at120->render->right, dry + 24000, 300) == dry + 24000);
  spindle::engine::Command tempo;
  tempo.type = spindle::engine::CommandType::SetTempo;
  tempo.value = 90.0f;
  const auto at90 = play("synced-90", xml, 1.0, {}, &tempo);
  CHECK(peakNear(at90->render->left, dry + 32000, 300) == dry + 32000);  // 0.667 s at 90 BPM
  const auto knob = play("synced-knob",
                         preset("click-at-100ms.wav",
                                "<ui><tab><labeled-knob label=\"Time\" valueType=\"musical_time\" minValue=\"0\" maxValue=\"20\" "
                                "value=\"7\"><binding type=\"effect\" level=\"instrument\" position=\"0\" "
                                "parameter=\"FX_DELAY_TIME\"/></labeled-knob></tab></ui>" +
                                    effects("<effect type=\"delay\" delayTimeFormat=\"musical_time\" delayTime=\"10\" "
                                            "feedback=\"0\" wetLevel=\"0.8\"/>")),
                         1.0);
  CHECK(peakNear(knob->render->left, dry + 12000, 300) == dry + 12000);  // an eighth: 0.25 s at 120 BPM
}

TEST_CASE("DecentSampler reverb: the tail lasts longer as roomSize grows", "[app][ds-effects]") {
  // A 0.1 s burst of noise; the tail's fall from 0.2..0.4 s to 0.8..1.0 s after its start.
  const auto burst = [](const std::string& name, const std::string& size) {
    return play(name, preset("noise.wav", effects("<effect type=\"reverb\" roomSize=\"" + size + "\" wetLevel=\"1\"/>")), 0.1);
  };
  const auto small = burst("reverb-small", "0.2"), large = burst("reverb-large", "0.9");
  const double fallSmall = level(*small, 0.2, 0.4) - level(*small, 0.8, 1.0);
  const double fallLarge = level(*large, 0.2, 0.4) - level(*large, 0.8, 1.0);
  INFO("fall over 0.6 s: roomSize 0.2 " << fallSmall << " dB, 0.9 " << fallLarge << " dB");
  CHECK(fallSmall > 6.0);
  CHECK(fallLarge < fallSmall - 3.0);
  CHECK(level(*large, 0.8, 1.0) > -80.0);
}

TEST_CASE("A DecentSampler group's lowpass plays as its voices' filter", "[app][ds-effects]") {
  const auto g = play("group-lp", preset("noise.wav", "", "<effects><effect type=\"lowpass\" frequency=\"1000\"/></effects>"), 2.0);
  const double c = centroid(*g, 0.5, 1.5);
  INFO("group lowpass: centroid " << c << " Hz");
  CHECK(c < 1500.0);
}

TEST_CASE("A knob bound to FX_FILTER_FREQUENCY moves the lowpass as its CC moves", "[app][ds-effects]") {
  const std::string xml = preset("noise.wav",
                                 "<ui><tab><labeled-knob label=\"Tone\" minValue=\"0\" maxValue=\"1\" value=\"0.5\">"
                                 "<binding type=\"effect\" level=\"instrument\" position=\"0\" parameter=\"FX_FILTER_FREQUENCY\" "
                                 "translation=\"linear\" translationOutputMin=\"300\" translationOutputMax=\"6000\"/>"
                                 "</labeled-knob></tab></ui>" +
                                     effects("<effect type=\"lowpass\" frequency=\"1000\"/>"));
  using spindle::test::cc;
  const auto low = play("knob-low", xml, 2.0, {cc(0, 102, 0)});
  const auto mid = play("knob-mid", xml, 2.0, {});
  const auto high = play("knob-high", xml, 2.0, {cc(0, 102, 127)});
  const auto moved = play("knob-moved", xml, 2.0, {cc(0, 102, 0), cc(48000, 102, 127)});
  const double l = centroid(*low, 0.5, 1.5), m = centroid(*mid, 0.5, 1.5), h = centroid(*high, 0.5, 1.5);
  INFO("centroid at CC 0: " << l << " Hz, initial: " << m << ", CC 127: " << h);
  CHECK(l < 600.0);
  CHECK((m > l * 1.5 && h > m * 1.5));
  const double before = centroid(*moved, 0.2, 0.9), after = centroid(*moved, 1.1, 1.9);
  INFO("moved from CC 0 to 127 at 1 s: " << before << " Hz, then " << after);
  CHECK(before == Approx(centroid(*low, 0.2, 0.9)).epsilon(0.1));  // a held note follows the knob
  CHECK(after == Approx(h).epsilon(0.1));
}

TEST_CASE("The DecentSampler fixtures with <effects> load with none reported and render non-silent", "[app][ds-effects][fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "decentsampler");
  const std::filesystem::path seq = fixtures / "decentsampler/example-006-working-with-note-sequences";
  const std::filesystem::path vel = fixtures / "decentsampler/example-013-controlling-velocity-sensitivity";
  for (const std::filesystem::path& file : {seq / "Example 6A - Triggering Sequences Using MIDI.dspreset",
                                            vel / "Example 1 - Controlling polyphony with a button.dspreset"}) {
    INFO(file);
    spindle::session::Loader loader;
    auto result = loader.load(file);
    REQUIRE(result.program);
    for (const auto& d : result.report.diagnostics) CHECK(d.message.find("effect") == std::string::npos);
    spindle::test::Renderer r(spindle::engine::EngineConfig{}, 256);
    r.setProgram(result.program.get(), 0);
    r.run({spindle::test::noteOn(0, 48, 100), spindle::test::noteOff(ds::kRate, 48)}, 2 * ds::kRate);
    double sum = 0.0;
    for (size_t i = 0; i < r.left.size(); ++i)
      sum += static_cast<double>(r.left[i]) * static_cast<double>(r.left[i]);
    const double db = 10.0 * std::log10(sum / static_cast<double>(r.left.size()) + 1e-30);
    INFO("level " << db << " dB");
    CHECK(db > -50.0);
  }
}

TEST_CASE("A knob bound to a group's lowpass moves its voices' filter as its CC moves", "[app][ds-effects]") {
  const std::string xml = preset("noise.wav",
                                 "<ui><tab><labeled-knob label=\"Tone\" minValue=\"0\" maxValue=\"1\" value=\"0.5\">"
                                 "<binding type=\"effect\" level=\"group\" groupIndex=\"0\" effectIndex=\"0\" "
                                 "parameter=\"FX_FILTER_FREQUENCY\" translation=\"linear\" translationOutputMin=\"300\" "
                                 "translationOutputMax=\"6000\"/></labeled-knob></tab></ui>",
                                 "<effects><effect type=\"lowpass\" frequency=\"1000\"/></effects>");
  using spindle::test::cc;
  const auto low = play("group-knob-low", xml, 2.0, {cc(0, 102, 0)});
  const auto high = play("group-knob-high", xml, 2.0, {cc(0, 102, 127)});
  const auto moved = play("group-knob-moved", xml, 2.0, {cc(0, 102, 0), cc(48000, 102, 127)});
  const double l = centroid(*low, 0.5, 1.5), h = centroid(*high, 0.5, 1.5);
  const double before = centroid(*moved, 0.2, 0.9), after = centroid(*moved, 1.1, 1.9);
  INFO("group lowpass: centroid at CC 0 " << l << " Hz, at 127 " << h << "; a held note " << before << " then " << after);
  CHECK(l < 700.0);
  CHECK(h > 3 * l);
  CHECK(before == Approx(centroid(*low, 0.2, 0.9)).epsilon(0.1));
  CHECK(after == Approx(h).epsilon(0.1));
}

}  // namespace decent_sampler_effect_render_tests
