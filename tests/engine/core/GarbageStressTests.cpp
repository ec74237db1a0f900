// Program lifetimes across threads: a control thread lends, re-lends and frees
// Programs while the audio thread plays them. Run under ASan (asan preset) this
// catches a Program freed while a part, slot or voice still uses it; in any build
// it checks that every Program comes back exactly once.
#include <atomic>
#include <set>
#include <thread>

#include "EngineTestSupport.h"
#include "catch.h"

namespace garbage_stress_tests {

using namespace spindle;
using namespace spindle::test;

TEST_CASE("control thread lends and frees Programs while the audio thread plays them", "[engine][garbage][stress]") {
  TestSample sample(sine(220.0, 48000.0, 4800, 0.2f));
  sample.data.loopStart = 0;
  sample.data.loopEnd = 4799;
  const auto makeProgram = [&] {
    auto* p = new engine::Program();
    p->samples.push_back(&sample.data);
    Region r;
    r.sampleIndex = 0;
    r.ampeg.release = 0.01f;
    p->regions.push_back(r);
    p->prepare();
    return p;
  };
  engine::EngineConfig config;
  config.polyphony = 16;
  engine::Engine engine(config);
  std::atomic<bool> stop{false};

  std::thread audio([&] {
    std::vector<float> l(256), r(256);
    for (uint32_t block = 0; !stop.load(std::memory_order_acquire); ++block) {
      const MidiEvent events[2] = {{0, 0x90, static_cast<uint8_t>(40 + block % 40), 100},
                                   {128, static_cast<uint8_t>(0x91 + block % 2), static_cast<uint8_t>(40 + (block + 20) % 40), 0}};
      engine.process(events, 2, l.data(), r.data(), 256);
    }
  });

  std::set<const engine::Program*> live;
  size_t created = 0, freed = 0, returnedTwice = 0;
  const auto dispose = [&](const engine::Program* p) {
    returnedTwice += live.count(p) ? 0 : 1;
    live.erase(p);
    delete p;
    ++freed;
  };
  engine::Prng rng(5);
  for (int i = 0; i < 3000; ++i) {
    engine::Command c;
    c.type = rng.uniform() < 0.5f ? engine::CommandType::SetProgram : engine::CommandType::SetSlotProgram;
    c.part = static_cast<int8_t>(rng.next() % 2);
    c.count = static_cast<int32_t>(rng.next() % 3);
    if (live.empty() || rng.uniform() < 0.5f) {
      c.program = makeProgram();
      live.insert(c.program);
      ++created;
    } else {  // lend one again that may be on its way back
      auto it = live.begin();
      std::advance(it, static_cast<long>(rng.next() % live.size()));
      c.program = *it;
    }
    while (!engine.postCommand(c)) {
      engine.collectGarbage(dispose);
      std::this_thread::yield();
    }
    if (i % 7 == 0) engine.collectGarbage(dispose);
    if (i % 50 == 0) std::this_thread::sleep_for(std::chrono::microseconds(300));
  }
  stop.store(true, std::memory_order_release);
  audio.join();
  engine.collectGarbage(dispose);
  engine.collectAllPrograms(dispose);
  CHECK(returnedTwice == 0);
  CHECK(freed == created);
  CHECK(live.empty());
}

}  // namespace garbage_stress_tests
