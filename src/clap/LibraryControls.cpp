// Plugin, the library's labelled controls as parameters (ids from kFirstControlParam):
// parameter n plays MIDI CC cc[n] of the library's ControlMap on part 0, as the LV2
// plugin's "Control N" ports do. The control side publishes each new library's CCs
// (publishControls, under the core's controlMutex(), from whichever thread loaded it);
// the audio thread takes them at its next block and sends every set value again there.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "clap/Plugin.h"
#include "core/MidiEvent.h"

namespace spindle::clap {

void Plugin::publishControls(const plugin::ControlMap& map) noexcept {
  for (std::size_t n = 0; n < controlCc_.size(); ++n)
    controlCc_[n].store(n < map.count ? map.cc[n] : int16_t{-1}, std::memory_order_relaxed);
  controlsVersion_.fetch_add(1, std::memory_order_release);
}

// At a block's first chunk: a new library's CCs (or values a state set), every set value
// sent from its first frame. A second publish while this reads is seen as a new version
// at the next block, which reads and sends them all again.
void Plugin::takeControls() noexcept SPINDLE_REALTIME {
  const uint32_t version = controlsVersion_.load(std::memory_order_acquire);
  if (version == controlsSeen_ && !resendControls_) return;
  controlsSeen_ = version;
  resendControls_ = false;
  for (std::size_t n = 0; n < playingCc_.size(); ++n) {
    playingCc_[n] = controlCc_[n].load(std::memory_order_relaxed);
    sendControl(n, 0);
  }
}

void Plugin::setControl(std::size_t n, double value, uint32_t offset) noexcept SPINDLE_REALTIME {
  const double clamped = std::isfinite(value) ? std::clamp(value, double{kControlUnset}, 127.0) : double{kControlUnset};
  controlValues_[n].store(static_cast<float>(clamped), std::memory_order_relaxed);
  if (inChunk_) sendControl(n, offset);
  else resendControls_ = true;
}

void Plugin::sendControl(std::size_t n, uint32_t offset) noexcept SPINDLE_REALTIME {
  const float value = controlValues_[n].load(std::memory_order_relaxed);
  const int cc = playingCc_[n];
  if (value < 0.0f || cc < 0) return;
  const uint8_t message[3] = {midi::kControlChange, static_cast<uint8_t>(cc), static_cast<uint8_t>(std::lround(value))};
  core_->addMidi(offset, message, sizeof message);
}

// The library's label for control n, else "Control n+1".
std::string Plugin::controlName(std::size_t n) const {
  const char* label = controlLabels_.labels.data();
  for (std::size_t k = 0; k < n && k < controlLabels_.count; ++k) label += std::strlen(label) + 1;
  return n < controlLabels_.count ? std::string(label) : "Control " + std::to_string(n + 1);
}

}  // namespace spindle::clap
