// The second filter (fil2_type, cutoff2, resonance2, fil2_keytrack...): levels of
// sines through it against the filter's response, after the first filter, and its
// cutoff moved by a controller (cutoff2_onccN) and by an LFO (lfoN_cutoff2).
#include <string>
#include <vector>

#include "ModTestSupport.h"
#include "catch.h"

namespace second_filter_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr double kRate = 48000.0;

// Level in dB of a sine of `hz` (peak 0.5) through the region, 0.1..0.3 s after the note.
double levelDb(const std::string& opcodes, double hz, std::vector<std::pair<int, int>> ccs = {}, int key = 60) {
  SfzProgram p("<region> sample=*sine amp_veltrack=0 " + opcodes, sine(hz, kRate, 48000, 0.5f));
  REQUIRE(p.warnings.empty());
  std::vector<TimedEvent> events{cc(0, 7, 127)};
  for (const auto& [number, value] : ccs) events.push_back(cc(0, number, value));
  events.push_back(noteOn(0, key));
  const auto r = play(p, events, 16000);
  return toDb(rms(r->left, 4800, 14400) * std::sqrt(2.0) / 0.5);
}

// |H| of the RBJ 2-pole high pass at Q 1/sqrt(2), analog prototype s^2 / (s^2 + s/Q + 1)
// prewarped at the cutoff (the filter's own definition, dsp/Filter.h).
double highPassDb(double hz, double cutoff) {
  const double w = std::tan(3.14159265358979 * hz / kRate) / std::tan(3.14159265358979 * cutoff / kRate);
  const double re = 1.0 - w * w, im = w * std::sqrt(2.0);
  return toDb(w * w / std::sqrt(re * re + im * im));
}

}  // namespace

TEST_CASE("fil2_type=hpf_2p with cutoff2 cuts a sine below it by the high pass's response", "[engine][filter2]") {
  for (const double hz : {250.0, 1000.0, 4000.0}) {
    CAPTURE(hz);
    CHECK(levelDb("fil2_type=hpf_2p cutoff2=1000", hz) == Approx(highPassDb(hz, 1000.0)).margin(0.2));
  }
  // Without fil2_type, cutoff2 alone is a low pass (lpf_2p), -3 dB at the cutoff.
  CHECK(levelDb("cutoff2=1000", 1000.0) == Approx(-3.01).margin(0.2));
  // Both filters: lpf at 1 kHz, then hpf at 1 kHz: -6 dB at 1 kHz.
  CHECK(levelDb("cutoff=1000 fil2_type=hpf_2p cutoff2=1000", 1000.0) == Approx(-6.02).margin(0.2));
}

TEST_CASE("fil2_keytrack moves cutoff2 with the key; cutoff2_onccN with the controller", "[engine][filter2]") {
  // One octave up from the keycenter: cutoff2 1 kHz -> 2 kHz, so 2 kHz sits at -3 dB.
  CHECK(levelDb("pitch_keytrack=0 fil2_type=hpf_2p cutoff2=1000 fil2_keytrack=100 fil2_keycenter=60", 2000.0, {}, 72) ==
        Approx(-3.01).margin(0.2));
  CHECK(levelDb("fil2_type=hpf_2p cutoff2=1000 cutoff2_oncc30=1200", 2000.0, {{30, 127}}) ==
        Approx(-3.01).margin(0.2));
  CHECK(levelDb("fil2_type=hpf_2p cutoff2=1000 cutoff2_oncc30=1200", 2000.0, {{30, 0}}) ==
        Approx(highPassDb(2000.0, 1000.0)).margin(0.2));
}

TEST_CASE("lfoN_cutoff2 sweeps the second filter at the LFO's rate", "[engine][filter2][lfo]") {
  SfzProgram p("<region> sample=*sine amp_veltrack=0 cutoff2=2000 lfo1_freq=5 lfo1_cutoff2=1200",
               sine(2000.0, kRate, 48000, 0.5f));
  REQUIRE(p.warnings.empty());
  const auto r = play(p, {cc(0, 7, 127), noteOn(0, 60)}, 30000);
  const auto at = [&](double t) {
    const auto mid = static_cast<size_t>(t * kRate);
    return toDb(rms(r->left, mid - 96, mid + 96) * std::sqrt(2.0) / 0.5);
  };
  for (int cycle = 0; cycle < 2; ++cycle) {
    CAPTURE(cycle);
    CHECK(at(0.2 * cycle + 0.05) > -1.0);   // cutoff 4 kHz
    CHECK(at(0.2 * cycle + 0.15) < -10.0);  // cutoff 1 kHz
  }
}

TEST_CASE("fil_gain_onccN and fil2_gain_onccN set a peaking filter's gain from the controller", "[engine][filter2]") {
  // A peq at the sine's frequency passes it at exactly its gain.
  CHECK(levelDb("fil_type=peq cutoff=1000 fil_gain_oncc30=12", 1000.0, {{30, 127}}) == Approx(12.0).margin(0.1));
  CHECK(levelDb("fil_type=peq cutoff=1000 fil_gain_oncc30=12", 1000.0, {{30, 0}}) == Approx(0.0).margin(0.1));
  CHECK(levelDb("fil2_type=peq cutoff2=1000 fil2_gain=-3 fil2_gain_oncc31=-6", 1000.0, {{31, 127}}) ==
        Approx(-9.0).margin(0.1));
}

}  // namespace second_filter_tests
