// session::Loader's progress and cancel, and session::Library: the pools the loads go
// into (one per preload size) and the Programs kept until the engine hands them back.
#include "SessionTestSupport.h"
#include "catch.h"

namespace library_tests {

using namespace spindle;

TEST_CASE("a load counts its sample files as it goes, and a cancel asked before it stops it", "[session]") {
  const auto dir = test::scratchDir("session-progress");
  const auto sfz = test::writeLibrary(dir, "four.sfz", 4);
  session::Loader loader(stream::PoolOptions{-1, 0, 0});
  session::LoadProgress progress;
  const session::Loader::Result loaded = loader.load(sfz, &progress);
  REQUIRE(loaded.program);
  CHECK(progress.filesTotal == 4);
  CHECK(progress.filesDone == 4);
  CHECK(progress.bytesInRam == loader.pool().bytesInRam());
  CHECK(!loaded.report.cancelled);

  session::Loader other(stream::PoolOptions{-1, 0, 0});
  session::LoadProgress cancelled;
  cancelled.cancel = true;
  const session::Loader::Result stopped = other.load(sfz, &cancelled);
  CHECK(!stopped.program);
  CHECK(stopped.report.cancelled);
  CHECK(stopped.report.ok);  // the file itself read well
  CHECK(cancelled.filesDone == 0);
  CHECK(session::failureText(sfz.string(), stopped.report) == "cancelled: " + sfz.string());
}

TEST_CASE("the Library loads into one pool per preload size and frees a Program once the engine hands it back",
          "[session]") {
  const auto dir = test::scratchDir("session-library");
  const auto sfz = test::writeLibrary(dir, "lib.sfz", 2, 48000);
  session::Library library(stream::PoolOptions{1024, 0, 0});
  session::Loader::Result small = library.load(sfz);
  const uint64_t oneLoad = library.bytesInRam();
  CHECK(library.samplesInRam() == 2);
  session::Loader::Result same = library.load(sfz, 1024);  // the same pool: its samples are shared
  CHECK(library.bytesInRam() == oneLoad);
  session::Loader::Result larger = library.load(sfz, 4096);  // a pool of its own
  CHECK(library.samplesInRam() == 4);
  CHECK(library.bytesInRam() > 2 * oneLoad);

  engine::Engine engine(engine::EngineConfig{48000.0, 256, 16, engine::Quality::Hermite, 1, nullptr});
  const engine::Program* program = library.keep(std::move(small.program));
  CHECK(session::postToEveryPart(engine, program) == 0);
  std::vector<float> l(256), r(256);
  engine.process(nullptr, 0, l.data(), r.data(), 256);
  CHECK(engine.stats().parts[15].program == program);
  CHECK(session::postToEveryPart(engine, nullptr) == 0);
  engine.process(nullptr, 0, l.data(), r.data(), 256);
  library.collect(engine);
  CHECK(!library.release(program));  // freed by collect(): no longer kept
  const engine::Program* kept = library.keep(std::move(same.program));
  CHECK(library.release(kept));
}

}  // namespace library_tests
