// LiveControl: part tunings. The files are read on the control thread; the table waits
// in a bounded queue for the main thread, the engine's only control-side caller.
#include "app/LiveControl.h"
#include "instrument/Scala.h"

namespace spindle::app {

bool LiveControl::setPartTuning(int part, const std::string& scale, const std::string& keymap, std::string& error) {
  error.clear();
  instrument::TuningResult result;
  instrument::TuningFileError fileError;
  if (!instrument::loadTuning({scale, keymap}, result, fileError)) {
    error = fileError.text();
    return false;
  }
  std::lock_guard lock(mutex_);
  if (tunings_.size() >= 4 * control::kParts) {  // a few tables a part; more is a flood
    refused_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  tunings_.emplace_back(part, result.tuning);
  state_.parts[static_cast<std::size_t>(part)].scale = scale;
  state_.parts[static_cast<std::size_t>(part)].keymap = keymap;
  return true;
}

void LiveControl::pumpTunings() {
  for (;;) {
    std::pair<int, KeyTuning> next;
    {
      std::lock_guard lock(mutex_);
      if (tunings_.empty()) return;
      next = tunings_.front();
    }
    if (!engine_.setPartTuning(next.first, next.second)) return;  // the engine's FIFO is full: next tick
    std::lock_guard lock(mutex_);
    tunings_.pop_front();
  }
}

}  // namespace spindle::app
