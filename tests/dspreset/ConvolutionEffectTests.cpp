// DecentSampler's <effect type="convolution">: the bus effect the reader makes (its mix,
// the response's path found as sample paths are), and the errors that leave it out.
#include <string>

#include "TestUtil.h"
#include "catch.h"
#include "dspreset/DecentSampler.h"

namespace convolution_effect_tests {

using spindle::BusEffectType;
using spindle::BusParam;
using spindle::test::countDiagnostics;

namespace {

std::string preset(const std::string& effects) {
  return "<DecentSampler><groups><group><sample path=\"a.wav\" loNote=\"60\" hiNote=\"60\"/></group></groups>"
         "<effects>" + effects + "</effects></DecentSampler>";
}

float mixOf(const spindle::BusEffect& e) { return e.values[static_cast<size_t>(BusParam::ConvolutionMix)]; }

}  // namespace

TEST_CASE("DecentSampler convolution: mix and irFile make a bus effect on the main bus", "[dspreset][convolution]") {
  spindle::test::TempDir dir;
  dir.write("a.wav", "");
  dir.write("IRs/Hall 3.wav", "");
  const auto file = dir.write("p.dspreset", preset("<effect type=\"convolution\" mix=\"0.25\" irFile=\"irs\\hall 3.wav\"/>"
                                                   "<effect type=\"convolution\" irFile=\"IRs/Hall 3.wav\"/>"
                                                   "<effect type=\"convolution\" mix=\"1.5\" irFile=\"IRs/Hall 3.wav\"/>"));
  const auto in = spindle::dspreset::loadPreset(file);
  REQUIRE(in.buses.effects.size() == 3);
  for (const auto& e : in.buses.effects) {
    CHECK(e.type == BusEffectType::Convolution);
    CHECK(e.bus == 0);
    CHECK(e.impulse.file == (dir.path() / "IRs" / "Hall 3.wav").string());  // case and backslash as samples
    CHECK(e.impulse.writtenIn == file.string());
  }
  CHECK(mixOf(in.buses.effects[0]) == 0.25f);
  CHECK(mixOf(in.buses.effects[1]) == 0.5f);  // DecentSampler's default
  CHECK(mixOf(in.buses.effects[2]) == 1.0f);  // clamped
  CHECK(countDiagnostics(in, "mix=\"1.5\" is outside 0..1, clamped") == 1);
  CHECK(countDiagnostics(in, "<effects>") == 0);  // nothing left unplayed
}

TEST_CASE("DecentSampler convolution: no irFile, or one not found, is an error; the other effects play",
          "[dspreset][convolution]") {
  spindle::test::TempDir dir;
  dir.write("a.wav", "");
  const auto file = dir.write("p.dspreset", preset("<effect type=\"convolution\"/><effect type=\"convolution\" "
                                                   "irFile=\"none.wav\"/><effect type=\"reverb\"/>"));
  const auto in = spindle::dspreset::loadPreset(file);
  REQUIRE(in.buses.effects.size() == 1);  // the reverb
  CHECK(in.buses.effects[0].type == spindle::BusEffectType::Reverb);
  CHECK(countDiagnostics(in, "convolution effect without irFile") == 1);
  const auto* missing = spindle::test::findDiagnostic(in, "(irFile=\"none.wav\") not found");
  REQUIRE(missing);
  CHECK(missing->file == file.string());
  CHECK(missing->message.find((dir.path() / "none.wav").string()) != std::string::npos);
  CHECK(countDiagnostics(in, "not played") == 0);
  CHECK(in.ok);
}

}  // namespace convolution_effect_tests
