// TrashFifo: what the audio thread retires, the control thread deletes.
#include "rt/TrashFifo.h"

#include "catch.h"

namespace trash_fifo_tests {

namespace {
struct Tracked {
  explicit Tracked(int* deletions) : deletions_(deletions) {}
  ~Tracked() { ++*deletions_; }
  int* deletions_;
};
}  // namespace

TEST_CASE("TrashFifo: collect deletes retired objects, full refuses", "[rt][trash]") {
  int deletions = 0;
  spindle::rt::TrashFifo<Tracked, 2> trash;
  CHECK(trash.hasRoom());
  CHECK(trash.collect() == 0);

  const auto* a = new Tracked(&deletions);
  const auto* b = new Tracked(&deletions);
  const auto* c = new Tracked(&deletions);
  REQUIRE(trash.tryRetire(a));
  REQUIRE(trash.tryRetire(b));
  CHECK_FALSE(trash.hasRoom());
  CHECK_FALSE(trash.tryRetire(c));  // the caller still owns c
  CHECK(deletions == 0);

  CHECK(trash.collect() == 2);
  CHECK(deletions == 2);
  CHECK(trash.hasRoom());
  REQUIRE(trash.tryRetire(c));
  REQUIRE(trash.tryRetire(nullptr));
  CHECK(trash.collect() == 2);
  CHECK(deletions == 3);
}

TEST_CASE("TrashFifo: the destructor deletes what is still queued", "[rt][trash]") {
  int deletions = 0;
  {
    spindle::rt::TrashFifo<Tracked, 4> trash;
    REQUIRE(trash.tryRetire(new Tracked(&deletions)));
    REQUIRE(trash.tryRetire(new Tracked(&deletions)));
  }
  CHECK(deletions == 2);
}

}  // namespace trash_fifo_tests
