#pragma once
// Helpers for the engine + disk thread tests: a library of long files written here,
// Programs over a SamplePool, and a block renderer with a hook between blocks (where
// an offline render waits for the disk thread).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "RtGuard.h"
#include "core/MidiEvent.h"
#include "core/Region.h"
#include "engine/Engine.h"
#include "engine/parts/Program.h"
#include "rt/StreamBank.h"
#include "stream/DiskThread.h"
#include "stream/SamplePool.h"
#include "stream/StreamTestSupport.h"

namespace spindle::test {

struct TimedNote {
  int64_t frame;
  MidiEvent event;
};
inline TimedNote on(int64_t frame, int key, int channel = 0, int velocity = 100) {
  return {frame, MidiEvent{0, static_cast<uint8_t>(0x90 | channel), static_cast<uint8_t>(key), static_cast<uint8_t>(velocity)}};
}
inline TimedNote off(int64_t frame, int key, int channel = 0) {
  return {frame, MidiEvent{0, static_cast<uint8_t>(0x80 | channel), static_cast<uint8_t>(key), 0}};
}

inline engine::Command setProgram(const engine::Program* p, int part) {
  engine::Command c;
  c.type = engine::CommandType::SetProgram;
  c.part = static_cast<int8_t>(part);
  c.program = p;
  return c;
}

// Events sorted by frame are cut into blocks; `beforeBlock` runs before each
// process() call, `blockDone` after it (both on the calling thread).
class BlockRenderer {
 public:
  BlockRenderer(engine::Engine& engine, int block, std::vector<TimedNote> events)
      : engine_(engine), block_(block), events_(std::move(events)) {
    // By frame, events at one frame in the order given (std::sort on (frame, index)).
    std::vector<std::pair<int64_t, std::size_t>> order;
    for (std::size_t i = 0; i < events_.size(); ++i) order.emplace_back(events_[i].frame, i);
    std::sort(order.begin(), order.end());
    std::vector<TimedNote> sorted;
    for (const auto& entry : order) sorted.push_back(events_[entry.second]);
    events_ = std::move(sorted);
    blockEvents_.reserve(events_.size());
    scratchLeft_.resize(static_cast<std::size_t>(block));
    scratchRight_.resize(static_cast<std::size_t>(block));
  }
  std::function<void()> beforeBlock;
  bool audioScope = false;  // process() inside an AudioThreadScope (RtGuard counts, RTSan checks)
  bool waiting = false;     // Engine::processWaiting (an offline render) instead of process()

  // Renders one block, appends it to left/right.
  void block() {
    blockEvents_.clear();
    while (next_ < events_.size() && events_[next_].frame < frame_ + block_) {
      MidiEvent e = events_[next_++].event;
      e.frame = static_cast<uint32_t>(std::max<int64_t>(0, events_[next_ - 1].frame - frame_));
      blockEvents_.push_back(e);
    }
    if (beforeBlock) beforeBlock();
    if (audioScope) {
      AudioThreadScope audio;
      process();
    } else {
      process();
    }
    left.insert(left.end(), scratchLeft_.begin(), scratchLeft_.end());
    right.insert(right.end(), scratchRight_.begin(), scratchRight_.end());
    frame_ += block_;
  }
  void process() {
    const auto count = static_cast<int>(blockEvents_.size());
    if (waiting)
      engine_.processWaiting(blockEvents_.data(), count, scratchLeft_.data(), scratchRight_.data(), block_);
    else
      engine_.process(blockEvents_.data(), count, scratchLeft_.data(), scratchRight_.data(), block_);
  }
  // Renders until every event is played and no voice sounds (at most maxBlocks).
  void toTheEnd(int maxBlocks) {
    for (int b = 0; b < maxBlocks; ++b) {
      block();
      if (next_ == events_.size() && engine_.stats().activeVoices == 0) return;
    }
  }
  int64_t frame() const { return frame_; }

  std::vector<float> left, right;

 private:
  engine::Engine& engine_;
  int block_;
  std::vector<TimedNote> events_;
  std::size_t next_ = 0;
  int64_t frame_ = 0;
  std::vector<MidiEvent> blockEvents_;
  std::vector<float> scratchLeft_, scratchRight_;
};

inline float peak(const std::vector<float>& x, std::size_t from, std::size_t to) {
  float m = 0.0f;
  for (std::size_t i = from; i < std::min(to, x.size()); ++i) m = std::max(m, std::abs(x[i]));
  return m;
}

// Samples that differ between two renders (left and right vectors); a length
// difference counts as the longer length.
template <typename Render>
std::size_t differing(const Render& a, const Render& b) {
  std::size_t n = a.left.size() == b.left.size() ? 0 : std::max(a.left.size(), b.left.size());
  for (std::size_t i = 0; i < std::min(a.left.size(), b.left.size()); ++i)
    n += (a.left[i] != b.left[i]) + (a.right[i] != b.right[i]);
  return n;
}

}  // namespace spindle::test
