#include "engine/MidiClock.h"

#include <algorithm>

namespace spindle::engine {

bool MidiClock::tick(uint64_t frame, double sampleRate) noexcept SPINDLE_REALTIME {
  const double longest = longestInterval(sampleRate);
  if (count_ > 0 && (frame < last_ || static_cast<double>(frame - last_) > longest)) count_ = 0;
  last_ = frame;
  seen_ = true;
  newest_ = (newest_ + 1) % static_cast<int>(frames_.size());
  frames_[static_cast<size_t>(newest_)] = frame;
  count_ = std::min(count_ + 1, static_cast<int>(frames_.size()));
  const int intervals = count_ - 1;
  if (intervals < kMinIntervals) return false;
  const int oldest = (newest_ + static_cast<int>(frames_.size()) - intervals) % static_cast<int>(frames_.size());
  const uint64_t span = frame - frames_[static_cast<size_t>(oldest)];
  if (span == 0) return false;
  bpm_ = static_cast<float>(60.0 * sampleRate * intervals / (kClocksPerBeat * static_cast<double>(span)));
  return true;
}

bool MidiClock::running(uint64_t frame, double sampleRate) const noexcept SPINDLE_REALTIME {
  return seen_ && frame >= last_ && static_cast<double>(frame - last_) <= longestInterval(sampleRate);
}

}  // namespace spindle::engine
