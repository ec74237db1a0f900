// spindle-render's reverb and chorus options change what it renders, by the amounts
// they should: a General MIDI piano (the TimGM6mb fixture) sends everything to one
// effect (CC91 or CC93 at 127) and the effect's return is the render minus the render
// with that effect off. The return's energy follows the level squared; a level of 0
// renders as with the effect off; a larger room lengthens the return's T30.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "Fixtures.h"
#include "RenderSupport.h"
#include "RunProcess.h"
#include "app/LiveArgs.h"
#include "app/RenderArgs.h"
#include "catch.h"
#include "stream/TestAudioFiles.h"

namespace effect_flag_render_tests {

using namespace spindle;
using test::Rendered;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr double kRate = 48000.0;

struct Renderer {
  std::filesystem::path sf2, dir, midi;

  Rendered render(const std::vector<std::string>& options, const std::string& name) const {
    std::vector<std::string> args{kExe, "--instrument", sf2.string(), "--midi", midi.string(), "--wav",
                                  (dir / (name + ".wav")).string()};
    args.insert(args.end(), options.begin(), options.end());
    const test::ProcessResult run = test::runProcess(args, dir);
    Rendered out{run.exitCode, run.out, run.err, {}, {}};
    REQUIRE(run.exitCode == 0);
    stream::SamplePool pool;
    const SampleData* data = pool.acquire((dir / (name + ".wav")).string());
    REQUIRE(data);
    out.left.resize(static_cast<size_t>(data->totalFrames));
    out.right.resize(static_cast<size_t>(data->totalFrames));
    data->readFrames(0, 0, data->totalFrames, out.left.data());
    data->readFrames(1, 0, data->totalFrames, out.right.data());
    return out;
  }
};

// One piano note (program 0) with the whole channel sent to the reverb (cc 91) or the
// chorus (cc 93), the other send at 0.
Renderer setUp(const std::filesystem::path& fixtures, const std::string& name, uint8_t cc) {
  Renderer r{fixtures / "sf2" / "TimGM6mb.sf2", test::scratchDir(name), {}};
  r.midi = r.dir / "note.mid";
  const uint8_t other = cc == 91 ? 93 : 91;
  test::saveBytes(r.midi, test::buildSong({{0, {0xC0, 0}}, {0, {0xB0, cc, 127}}, {0, {0xB0, other, 0}},
                                            {10, {0x90, 60, 100}}, {250, {0x80, 60, 0}}}));
  return r;
}

// left + right of a minus b, the shorter padded with silence.
std::vector<float> difference(const Rendered& a, const Rendered& b) {
  std::vector<float> d(std::max(a.left.size(), b.left.size()), 0.0f);
  const auto at = [](const std::vector<float>& x, size_t i) { return i < x.size() ? x[i] : 0.0f; };
  for (size_t i = 0; i < d.size(); ++i) d[i] = at(a.left, i) + at(a.right, i) - at(b.left, i) - at(b.right, i);
  return d;
}

double energy(const std::vector<float>& x) {
  double e = 0.0;
  for (float v : x) e += static_cast<double>(v) * static_cast<double>(v);
  return e;
}

// Seconds between the backward-integrated decay's -5 and -35 dB points, times 2.
double t30(const std::vector<float>& x) {
  std::vector<double> edc(x.size() + 1, 0.0);
  for (size_t i = x.size(); i-- > 0;) edc[i] = edc[i + 1] + static_cast<double>(x[i]) * static_cast<double>(x[i]);
  const auto first = [&](double db) {
    size_t i = 0;
    while (i + 1 < edc.size() && 10.0 * std::log10(edc[i] / edc[0]) > db) ++i;
    return i;
  };
  return 2.0 * static_cast<double>(first(-35.0) - first(-5.0)) / kRate;
}

}  // namespace

TEST_CASE("spindle-render --reverb-level scales the reverb's return by its square; 0 renders as --reverb off",
          "[fixtures][effects]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "sf2/TimGM6mb.sf2");
  const Renderer r = setUp(fixtures, "render-reverb-level", 91);
  const Rendered off = r.render({"--reverb", "off"}, "off");
  const Rendered standard = r.render({}, "default");
  const Rendered half = r.render({"--reverb-level", "0.45"}, "half");
  const Rendered none = r.render({"--reverb-level", "0"}, "none");
  const double full = energy(difference(standard, off));
  REQUIRE(full > 0.0);
  const double halfDb = 10.0 * std::log10(energy(difference(half, off)) / full);
  INFO("return at level 0.45 against 0.9: " << halfDb << " dB");
  CHECK(std::fabs(halfDb - 20.0 * std::log10(0.5)) <= 0.1);
  CHECK(energy(difference(none, off)) <= 1e-12 * full);
}

TEST_CASE("spindle-render --reverb-room-size 0.8 lengthens the reverb's T30 past twice the default's",
          "[fixtures][effects]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "sf2/TimGM6mb.sf2");
  const Renderer r = setUp(fixtures, "render-reverb-room", 91);
  const Rendered off = r.render({"--reverb", "off"}, "off");
  const double standard = t30(difference(r.render({}, "default"), off));
  const double large = t30(difference(r.render({"--reverb-room-size", "0.8"}, "large"), off));
  INFO("return's T30: " << standard << " s at room size 0.2, " << large << " s at 0.8");
  CHECK(large > 2.0 * standard);
  CHECK(standard > 0.5);
}

TEST_CASE("spindle-render --chorus-level 1 halves the chorus's return against the default 2", "[fixtures][effects]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "sf2/TimGM6mb.sf2");
  const Renderer r = setUp(fixtures, "render-chorus-level", 93);
  const Rendered off = r.render({"--chorus", "off"}, "off");
  const double full = energy(difference(r.render({}, "default"), off));
  REQUIRE(full > 0.0);
  const double lowDb = 10.0 * std::log10(energy(difference(r.render({"--chorus-level", "1"}, "low"), off)) / full);
  INFO("return at chorus level 1 against 2: " << lowDb << " dB");
  CHECK(std::fabs(lowDb - 20.0 * std::log10(0.5)) <= 0.1);
}

TEST_CASE("spindle and spindle-render take the same reverb and chorus options and name a bad value",
          "[effects]") {
  const std::vector<std::string> options{"--reverb", "off", "--reverb-room-size", "0.7", "--reverb-damping", "0.3",
                                         "--reverb-width", "12", "--reverb-level", "0.4", "--chorus", "on",
                                         "--chorus-voices", "9", "--chorus-level", "5.5", "--chorus-speed", "4",
                                         "--chorus-depth", "100", "--master-gain", "-6.5"};
  std::vector<std::string> renderArgs{"--instrument", "a.sf2", "--midi", "b.mid", "--wav", "c.wav"};
  renderArgs.insert(renderArgs.end(), options.begin(), options.end());
  std::string error;
  const auto render = app::parseRenderArgs(renderArgs, error);
  REQUIRE(render);
  const auto live = app::parseLiveArgs(options, error);
  REQUIRE(live);
  EffectValues expected;
  const std::vector<float> values{0, 0.7f, 0.3f, 12, 0.4f, 1, 9, 5.5f, 4, 100, -6.5f};
  for (const auto& info : kEffectParamTable) expected.set(info.id, values[static_cast<size_t>(info.id)]);
  CHECK(render->effects == expected);
  CHECK(live->effects == expected);
  CHECK_FALSE(app::parseLiveArgs({"--chorus-depth", "300"}, error));
  CHECK(error == "invalid value '300' for --chorus-depth (expected 0 to 256 ms)");
  CHECK_FALSE(app::parseRenderArgs({"--reverb", "loud"}, error));
  CHECK(error == "invalid value 'loud' for --reverb (expected on or off)");
  const auto run = test::runProcess({kExe, "--instrument", "a", "--midi", "b", "--wav", "c", "--reverb-width", "x"},
                                    test::scratchDir("render-bad-effect"));
  CHECK(run.exitCode == 2);
  CHECK_THAT(run.err, Catch::Contains("invalid value 'x' for --reverb-width (expected 0 to 100)"));
}

}  // namespace effect_flag_render_tests
