// spindle-render and MPE: a MIDI file that sets a lower zone by its MPE Configuration
// Message plays each member channel's note with its own bend; --mpe sets the same zone
// by hand; without either, channels 2.. are parts 2.. as always.
#include <cmath>
#include <complex>
#include <fstream>

#include "RenderSupport.h"
#include "catch.h"
#include "stream/TestAudioFiles.h"

namespace mpe_render_tests {

using spindle::test::runProcess;
using spindle::test::scratchDir;
using spindle::test::TrackBuilder;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr double kRate = 48000.0;

// Two notes on member channels 2 and 3 (keys 69 and 81), channel 2's bent up a whole
// tone (+683 of 8192 at 48 semitones) after a quarter note; with `mcm`, the MPE
// Configuration Message for a lower zone of 15 first.
TrackBuilder song(bool mcm) {
  TrackBuilder t;
  if (mcm) t.event(0, {0xB0, 101, 0}).event(0, {0xB0, 100, 6}).event(0, {0xB0, 6, 15});
  const int bent = 8192 + 683;
  t.event(0, {0x91, 69, 100}).event(0, {0x92, 81, 100});
  t.event(480, {0xE1, static_cast<uint8_t>(bent & 0x7F), static_cast<uint8_t>(bent >> 7)});
  t.event(960, {0x81, 69, 0}).event(0, {0x82, 81, 0}).end();  // delta ticks: the note-offs at 1440
  return t;
}

// Renders the song through `instrument` (default: an SFZ of the built-in sine, A4 at key 69).
std::vector<float> render(const std::filesystem::path& dir, const std::string& name, const TrackBuilder& track,
                          std::vector<std::string> extra, std::filesystem::path instrument = {}) {
  const auto midi = dir / (name + ".mid"), wav = dir / (name + ".wav");
  if (instrument.empty()) {
    instrument = dir / "sine.sfz";
    std::ofstream(instrument) << "<region> sample=*sine pitch_keycenter=69 amp_veltrack=0 ampeg_release=0.01\n";
  }
  spindle::test::saveBytes(midi, spindle::test::buildSmf(0, 480, {track}));
  std::vector<std::string> args{kExe,    "--instrument", instrument.string(), "--midi", midi.string(),
                                "--wav", wav.string(),   "--format",          "f32"};
  args.insert(args.end(), extra.begin(), extra.end());
  const spindle::test::Rendered r = spindle::test::renderWith(args, wav, dir);
  INFO(r.out << r.err);
  REQUIRE(r.exitCode == 0);
  REQUIRE(!r.left.empty());
  return r.left;
}

// |Hann-windowed DTFT| of x[from, to) at hz.
double magnitudeAt(const std::vector<float>& x, size_t from, size_t to, double hz) {
  constexpr double kPi = 3.14159265358979323846;
  std::complex<double> sum = 0.0;
  const double n = static_cast<double>(to - from);
  for (size_t i = from; i < to; ++i) {
    const double w = 0.5 - 0.5 * std::cos(2.0 * kPi * static_cast<double>(i - from) / n);
    sum += w * static_cast<double>(x[i]) * std::polar(1.0, -2.0 * kPi * hz * static_cast<double>(i) / kRate);
  }
  return std::abs(sum);
}

// The strongest frequency within +-60 cents of `expected`, in cents from it.
double centsOff(const std::vector<float>& x, size_t from, size_t to, double expected) {
  double lo = expected * std::pow(2.0, -0.05), hi = expected * std::pow(2.0, 0.05);
  const double g = (std::sqrt(5.0) - 1.0) / 2.0;
  for (int i = 0; i < 60; ++i) {
    const double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    if (magnitudeAt(x, from, to, a) > magnitudeAt(x, from, to, b)) hi = b;
    else lo = a;
  }
  return 1200.0 * std::log2(0.5 * (lo + hi) / expected);
}

}  // namespace

TEST_CASE("spindle-render plays MPE: the song's MPE Configuration Message or --mpe; each note bends alone",
          "[render][mpe]") {
  const auto dir = scratchDir("render-mpe");
  const auto bySong = render(dir, "mcm", song(true), {});
  const double bend = 683.0 / 8191.0 * 4800.0;  // 400.2 cents: a member channel's 48 semitones
  // At 120 BPM a quarter note is 24000 frames: before it neither note is bent; after it
  // channel 2's A4 is a whole tone up and channel 3's A5 stays put.
  CHECK(std::fabs(centsOff(bySong, 4000, 20000, 440.0)) < 2.0);
  CHECK(std::fabs(centsOff(bySong, 4000, 20000, 880.0)) < 2.0);
  CHECK(std::fabs(centsOff(bySong, 30000, 60000, 440.0 * std::pow(2.0, bend / 1200.0))) < 2.0);
  CHECK(std::fabs(centsOff(bySong, 30000, 60000, 880.0)) < 2.0);
  // The zone by hand renders the same frames as the zone the song set.
  CHECK(render(dir, "by-hand", song(false), {"--mpe", "lower"}) == bySong);
  // Without a zone, channel 2 is part 2 and its bend is that part's own (2 semitones at full bend).
  const auto plain = render(dir, "plain", song(false), {});
  const double partBend = 683.0 / 8191.0 * 200.0;
  CHECK(std::fabs(centsOff(plain, 30000, 60000, 440.0 * std::pow(2.0, partBend / 1200.0))) < 2.0);
  const auto bad = runProcess({kExe, "--sfz", "x.sfz", "--midi", "x.mid", "--wav", "x.wav", "--mpe", "lower=10,upper=5"}, dir);
  CHECK(bad.exitCode == 2);
  CHECK_THAT(bad.err, Catch::Contains("--mpe"));
}

// A Bitwig multisample (a folder with multisample.xml, as the loader reads an unpacked
// .multisample) plays MPE as an SFZ does: each member note bends alone.
TEST_CASE("spindle-render plays MPE through a Bitwig multisample", "[render][mpe]") {
  const auto dir = scratchDir("render-mpe-multisample");
  const auto folder = dir / "Sine.multisample";
  std::filesystem::create_directories(folder);
  std::vector<int16_t> sine(4 * 48000);
  for (size_t i = 0; i < sine.size(); ++i)
    sine[i] = static_cast<int16_t>(12000.0 * std::sin(2.0 * 3.14159265358979323846 * 440.0 * static_cast<double>(i) / kRate));
  spindle::test::writeWav16(folder / "a4.wav", 1, sine, 48000);
  std::ofstream(folder / "multisample.xml") << R"(<?xml version="1.0" encoding="UTF-8"?>
<multisample name="Sine">
  <sample file="a4.wav"><key low="0" high="127" root="69"/></sample>
</multisample>
)";
  const auto x = render(dir, "multisample", song(false), {"--mpe", "lower"}, folder);
  const double bend = 683.0 / 8191.0 * 4800.0;
  CHECK(std::fabs(centsOff(x, 4000, 20000, 440.0)) < 2.0);
  CHECK(std::fabs(centsOff(x, 30000, 60000, 440.0 * std::pow(2.0, bend / 1200.0))) < 2.0);
  CHECK(std::fabs(centsOff(x, 30000, 60000, 880.0)) < 2.0);
}

}  // namespace mpe_render_tests
