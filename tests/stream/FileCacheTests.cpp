// The disk thread's idle readers (stream/FileCache.h): files that seek exactly (PCM,
// FLAC) are kept up to their own limit, Vorbis ones (decoded again from frame 0 when
// reopened) up to the overall one; past either, the least recently used goes.
#include <string>
#include <vector>

#include "StreamTestSupport.h"
#include "catch.h"
#include "stream/FileCache.h"
#include "stream/SamplePool.h"

namespace file_cache_tests {

using namespace spindle;

namespace {
struct Files {
  stream::SamplePool head{stream::PoolOptions{100, 0}};
  std::vector<const SampleData*> exact, vorbis;  // exact: WAV and FLAC, alternately
  Files() {
    const auto dir = test::scratchDir("file-cache");
    for (int i = 0; i < 3; ++i) {
      const auto wav = dir / ("w" + std::to_string(i) + ".wav"), flac = dir / ("f" + std::to_string(i) + ".flac");
      const auto ogg = dir / ("v" + std::to_string(i) + ".ogg");
      test::writeTestWav(wav, 1, 5000);
      REQUIRE(test::writeTestCompressed(flac, SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 1, 5000));
      REQUIRE(test::writeTestCompressed(ogg, SF_FORMAT_OGG | SF_FORMAT_VORBIS, 1, 5000));
      exact.push_back(head.acquire(wav.string()));
      exact.push_back(head.acquire(flac.string()));
      vorbis.push_back(head.acquire(ogg.string()));
    }
  }
};

// Checks each sample's reader out and back in, in order.
void use(stream::FileCache& cache, const std::vector<const SampleData*>& samples) {
  std::string error;
  for (const SampleData* s : samples) {
    auto reader = cache.checkOut(s, error);
    REQUIRE(reader);
    cache.checkIn(s, std::move(reader));
  }
}
}  // namespace

TEST_CASE("the file cache keeps at most its limit of idle files, most recent first", "[stream][disk]") {
  const auto dir = test::scratchDir("disk-cache");
  stream::SamplePool head(stream::PoolOptions{100, 0});
  std::vector<const SampleData*> samples;
  for (int i = 0; i < 4; ++i) {
    const auto path = dir / ("f" + std::to_string(i) + ".wav");
    test::writeTestWav(path, 1, 5000);
    samples.push_back(head.acquire(path.string()));
  }
  stream::FileCache cache(2);
  std::string error;
  for (const SampleData* s : samples) cache.checkIn(s, cache.checkOut(s, error));
  CHECK(cache.opens() == 4);
  CHECK(cache.idleCount() == 2);
  cache.checkIn(samples[3], cache.checkOut(samples[3], error));  // kept: a hit
  CHECK(cache.hits() == 1);
  cache.checkIn(samples[0], cache.checkOut(samples[0], error));  // closed earlier: reopened
  CHECK(cache.opens() == 5);
  auto a = cache.checkOut(samples[1], error), b = cache.checkOut(samples[1], error);  // two streams, two readers
  CHECK((a && b && a != b));
}

TEST_CASE("the file cache knows which readers seek exactly", "[stream][disk]") {
  Files files;
  std::string error;
  stream::FileCache cache(0);
  for (const SampleData* s : files.exact) CHECK(cache.checkOut(s, error)->seeksExactly());
  for (const SampleData* s : files.vorbis) CHECK_FALSE(cache.checkOut(s, error)->seeksExactly());
}

TEST_CASE("the file cache keeps Vorbis readers past its limit for readers that seek exactly", "[stream][disk]") {
  Files files;
  stream::FileCache cache(5, 2);
  use(cache, files.vorbis);
  use(cache, files.exact);  // 6 exact after 3 Vorbis: the 2 newest exact stay
  CHECK(cache.opens() == 9);
  CHECK(cache.idleCount() == 5);
  use(cache, files.vorbis);  // all kept: hits
  CHECK(cache.hits() == 3);
  use(cache, {files.exact[5], files.exact[4]});  // the 2 newest: hits
  CHECK(cache.hits() == 5);
  use(cache, {files.exact[0]});  // closed: reopened, and the oldest exact one goes
  CHECK(cache.opens() == 10);
  use(cache, {files.exact[5]});
  CHECK(cache.opens() == 11);
  CHECK(cache.idleCount() == 5);
}

TEST_CASE("the file cache's overall limit still bounds every idle reader", "[stream][disk]") {
  Files files;
  stream::FileCache cache(2, 8);  // the exact limit above the overall one: the overall one wins
  use(cache, files.exact);
  CHECK(cache.idleCount() == 2);
  use(cache, files.vorbis);
  CHECK(cache.idleCount() == 2);
  use(cache, {files.vorbis[2], files.vorbis[1]});
  CHECK(cache.hits() == 2);
}

}  // namespace file_cache_tests
