// The source list: which of a region's envelopes and LFOs the loader thread lists for its
// voices, at which rate, and what each moves.
#include <vector>

#include "catch.h"
#include "core/Region.h"
#include "engine/mod/ModPlan.h"
#include "engine/mod/Sources.h"

namespace sources_tests {

using namespace spindle;
using namespace spindle::engine::mod;

namespace {

uint64_t bit(ModTarget t) { return uint64_t{1} << static_cast<unsigned>(t); }
unsigned dest(V1Dest d) { return 1u << static_cast<unsigned>(d); }

}  // namespace

TEST_CASE("Source list lists ampeg alone for a region without depths, LFOs or a filter", "[engine][mod]") {
  Region r;
  r.fileg.depth = 1200.0f;  // no filter: fileg moves nothing
  r.fillfo = {0.0f, 0.0f, 5.0f, 100.0f};
  const V1Sources plan = compileV1(r, 0, false);
  REQUIRE(plan.view().envelopes.size() == 1);
  CHECK(plan.view().envelopes[0].dest == V1Dest::Amp);
  CHECK(plan.view().envelopes[0].releases);
  CHECK(plan.view().lfos.empty());
  CHECK_FALSE(plan.controlled & dest(V1Dest::Pitch));
}

TEST_CASE("Source list lists a source with a depth, a running LFO or a controller on either", "[engine][mod]") {
  Region r;
  r.cutoff = 1000.0f;
  r.pitcheg.vel2depth = 100.0f;
  r.amplfo = {0.0f, 0.0f, 0.0f, 3.0f};  // no frequency: still, unless a controller moves it
  r.pitchlfo = {0.0f, 0.0f, 4.0f, 50.0f};
  r.fileg.dynamic = 1.0f;
  const V1Sources plan = compileV1(r, bit(ModTarget::AmplfoFreq) | bit(ModTarget::FilegDepth), false);
  REQUIRE(plan.view().envelopes.size() == 3);
  CHECK(plan.view().envelopes[1].dest == V1Dest::Fil);
  CHECK(plan.view().envelopes[2].dest == V1Dest::Pitch);
  REQUIRE(plan.view().lfos.size() == 2);
  CHECK(plan.view().lfos[0].dest == V1Dest::Amp);
  CHECK(plan.view().lfos[0].freqMoves);
  CHECK_FALSE(plan.view().lfos[0].depthMoves);
  CHECK(plan.view().lfos[1].dest == V1Dest::Pitch);
  CHECK(plan.controlled & dest(V1Dest::Fil));  // fileg_dynamic with a depth controller
  CHECK(plan.controlled & dest(V1Dest::Amp));
  CHECK_FALSE(plan.controlled & dest(V1Dest::Pitch));
}

TEST_CASE("Source list: a flex EG that replaces ampeg leaves ampeg at 1, unreleased", "[engine][mod]") {
  Region r;
  r.ampeg.release = 2.0f;
  r.ampeg.dynamic = 1.0f;
  const V1Sources plan = compileV1(r, 0, true);
  REQUIRE(plan.view().envelopes.size() == 1);
  const V1Envelope& amp = plan.view().envelopes[0];
  CHECK_FALSE(amp.releases);
  CHECK_FALSE(amp.dynamic);
  CHECK_FALSE(amp.noteStartAdds);
  CHECK(amp.params.release == 0.0f);
}

TEST_CASE("Source list: one list per region, flex sources at control rate, then the v1 ones per frame",
          "[engine][mod]") {
  Region r;
  r.cutoff = 2000.0f;
  r.pitchlfo = {0.0f, 0.0f, 5.0f, 20.0f};
  FlexLfo lfo;
  lfo.number = 1;
  lfo.freq = 2.0f;
  lfo.depth[static_cast<size_t>(ModTarget::Pitch)] = 100.0f;
  r.lfos.push_back(lfo);
  FlexEg eg;
  eg.depth[static_cast<size_t>(ModTarget::Cutoff)] = 1200.0f;
  eg.depth[static_cast<size_t>(ModTarget::Volume)] = -6.0f;
  r.egs.push_back(eg);
  Region plain;
  ModPlan plan;
  plan.build({plain, r}, {});

  const RegionSources first = plan.sources(plan.region(0));
  REQUIRE(first.list.size() == 1);  // ampeg
  CHECK(first.list[0].kind == SourceKind::Envelope);

  const RegionSources s = plan.sources(plan.region(1));
  REQUIRE(s.list.size() == 4);
  CHECK(s.list[0].kind == SourceKind::FlexLfo);
  CHECK(s.list[0].targets == (1u << static_cast<unsigned>(ModTarget::Pitch)));
  CHECK(s.list[1].kind == SourceKind::FlexEg);
  CHECK(s.list[1].targets ==
        ((1u << static_cast<unsigned>(ModTarget::Cutoff)) | (1u << static_cast<unsigned>(ModTarget::Volume))));
  CHECK_FALSE(s.list[1].perFrame());
  CHECK(s.list[2].kind == SourceKind::Envelope);
  CHECK(s.list[3].kind == SourceKind::Lfo);
  CHECK(s.list[3].perFrame());
  CHECK(static_cast<V1Dest>(s.list[3].slot) == V1Dest::Pitch);
  REQUIRE(s.flexLfos.size() == 1);
  CHECK(s.flexLfos[s.list[0].params].freq == 2.0f);
  REQUIRE(s.lfos.size() == 1);
  CHECK(s.lfos[s.list[3].params].params.depth == 20.0f);
  CHECK(plan.region(1).planned);
  CHECK_FALSE(plan.region(7).planned);  // outside the plan: its voice compiles its own
}

}  // namespace sources_tests
