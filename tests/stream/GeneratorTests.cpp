// Generator samples: *sine and friends.
#include <algorithm>
#include <cmath>

#include "catch.h"
#include "core/Limits.h"
#include "core/Units.h"
#include "stream/Generators.h"
#include "stream/SamplePool.h"

namespace generator_tests {

using spindle::SampleData;
using spindle::stream::kWavetableFrames;
using spindle::stream::SamplePool;

TEST_CASE("*sine is one looped cycle that plays middle C at its own rate") {
  SamplePool pool;
  const SampleData* sine = pool.acquire("*sine");
  REQUIRE(sine != nullptr);
  CHECK(sine->totalFrames == kWavetableFrames);
  CHECK(sine->loopStart == 0);
  CHECK(sine->loopEnd == kWavetableFrames - 1);
  // One cycle of kWavetableFrames frames at sampleRate lasts 1 / 261.63 s.
  CHECK(sine->sampleRate / static_cast<double>(kWavetableFrames) == Approx(261.6255653));
  CHECK(sine->sampleRate / static_cast<double>(kWavetableFrames) == Approx(spindle::noteToHz(60)));
  CHECK(sine->frameAt(0, 0) == Approx(0.0).margin(1e-6));
  CHECK(sine->frameAt(0, kWavetableFrames / 4) == Approx(1.0).margin(1e-6));
  CHECK(sine->frameAt(0, 3 * kWavetableFrames / 4) == Approx(-1.0).margin(1e-6));
  CHECK(sine->frameAt(0, -1) == 0.0f);  // guards stay zero, as for files
  CHECK(sine->frameAt(0, kWavetableFrames) == 0.0f);
  CHECK(pool.record(sine->id).formatName == "generator");
}

TEST_CASE("band-limited tables stay within full scale and have the right shape") {
  SamplePool pool;
  for (const char* name : {"*saw", "*square", "*triangle", "*tri"}) {
    INFO(name);
    const SampleData* table = pool.acquire(name);
    REQUIRE(table != nullptr);
    float peak = 0.0f;
    for (int64_t i = 0; i < table->totalFrames; ++i) peak = std::max(peak, std::abs(table->frameAt(0, i)));
    CHECK(peak > 0.8f);
    CHECK(peak < 1.2f);  // Gibbs overshoot of the square and saw stays under ~18 %
  }
  const SampleData* square = pool.acquire("*square");
  CHECK(square->frameAt(0, kWavetableFrames / 4) == Approx(1.0).margin(0.05));
  CHECK(square->frameAt(0, 3 * kWavetableFrames / 4) == Approx(-1.0).margin(0.05));
  const SampleData* triangle = pool.acquire("*triangle");
  CHECK(triangle->frameAt(0, kWavetableFrames / 4) == Approx(1.0).margin(0.01));
  CHECK(triangle->frameAt(0, kWavetableFrames / 8) == Approx(0.5).margin(0.01));
}

TEST_CASE("*noise is reproducible white noise in [-1, 1), *silence is zeros") {
  SamplePool first, second;
  const SampleData* a = first.acquire("*noise");
  const SampleData* b = second.acquire("*noise");
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  double sum = 0.0, sumSquares = 0.0, low = 0.0, high = 0.0;
  bool same = true;
  for (int64_t i = 0; i < a->totalFrames; ++i) {
    const double v = a->frameAt(0, i);
    low = std::min(low, v);
    high = std::max(high, v);
    same = same && a->frameAt(0, i) == b->frameAt(0, i);
    sum += v;
    sumSquares += v * v;
  }
  const auto n = static_cast<double>(a->totalFrames);
  CHECK(same);
  CHECK(low >= -1.0);
  CHECK(high < 1.0);
  CHECK(sum / n == Approx(0.0).margin(0.01));
  CHECK(sumSquares / n == Approx(1.0 / 3.0).margin(0.01));  // variance of U(-1, 1)
  CHECK(a->loopEnd == a->totalFrames - 1);

  const SampleData* silence = first.acquire("*silence");
  REQUIRE(silence != nullptr);
  CHECK(std::all_of(silence->table, silence->table + silence->totalFrames, [](float v) { return v == 0.0f; }));
  CHECK(silence->loopEnd == silence->totalFrames - 1);
}

TEST_CASE("an unknown generator is an error naming it") {
  SamplePool pool;
  CHECK(pool.acquire("*wobble") == nullptr);
  REQUIRE(pool.messages().size() == 1);
  CHECK(pool.messages()[0].text.find("'*wobble'") != std::string::npos);
}

}  // namespace generator_tests
