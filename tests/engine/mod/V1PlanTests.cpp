// V1Plan: which of a region's v1 envelopes and LFOs the loader thread lists for its voices.
#include "catch.h"
#include "core/Region.h"
#include "engine/mod/V1Plan.h"

using namespace spindle;
using namespace spindle::engine::mod;

namespace {

uint64_t bit(ModTarget t) { return uint64_t{1} << static_cast<unsigned>(t); }

}  // namespace

TEST_CASE("V1Plan lists ampeg alone for a region without depths, LFOs or a filter", "[engine][mod]") {
  Region r;
  r.fileg.depth = 1200.0f;  // no filter: fileg moves nothing
  r.fillfo = {0.0f, 0.0f, 5.0f, 100.0f};
  const V1Plan plan = compileV1(r, 0, false);
  REQUIRE(plan.envelopes().size() == 1);
  CHECK(plan.envelopes()[0].dest == V1Dest::Amp);
  CHECK(plan.envelopes()[0].releases);
  CHECK(plan.lfos().empty());
  CHECK_FALSE(plan.controlled[static_cast<size_t>(V1Dest::Pitch)]);
}

TEST_CASE("V1Plan lists a source with a depth, a running LFO or a controller on either", "[engine][mod]") {
  Region r;
  r.cutoff = 1000.0f;
  r.pitcheg.vel2depth = 100.0f;
  r.amplfo = {0.0f, 0.0f, 0.0f, 3.0f};  // no frequency: still, unless a controller moves it
  r.pitchlfo = {0.0f, 0.0f, 4.0f, 50.0f};
  r.fileg.dynamic = 1.0f;
  const V1Plan plan = compileV1(r, bit(ModTarget::AmplfoFreq) | bit(ModTarget::FilegDepth), false);
  REQUIRE(plan.envelopes().size() == 3);
  CHECK(plan.envelopes()[1].dest == V1Dest::Fil);
  CHECK(plan.envelopes()[2].dest == V1Dest::Pitch);
  REQUIRE(plan.lfos().size() == 2);
  CHECK(plan.lfos()[0].dest == V1Dest::Amp);
  CHECK(plan.lfos()[0].freqMoves);
  CHECK_FALSE(plan.lfos()[0].depthMoves);
  CHECK(plan.lfos()[1].dest == V1Dest::Pitch);
  CHECK(plan.controlled[static_cast<size_t>(V1Dest::Fil)]);  // fileg_dynamic with a depth controller
  CHECK(plan.controlled[static_cast<size_t>(V1Dest::Amp)]);
  CHECK_FALSE(plan.controlled[static_cast<size_t>(V1Dest::Pitch)]);
}

TEST_CASE("V1Plan: a flex EG that replaces ampeg leaves ampeg at 1, unreleased", "[engine][mod]") {
  Region r;
  r.ampeg.release = 2.0f;
  r.ampeg.dynamic = 1.0f;
  const V1Plan plan = compileV1(r, 0, true);
  REQUIRE(plan.envelopes().size() == 1);
  const V1Envelope& amp = plan.envelopes()[0];
  CHECK_FALSE(amp.releases);
  CHECK_FALSE(amp.dynamic);
  CHECK_FALSE(amp.noteStartAdds);
  CHECK(amp.params.release == 0.0f);
}
