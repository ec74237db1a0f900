// Plugin, the library's labelled controls as parameters (ids from kFirstControlParam):
// parameter n plays MIDI CC cc[n] of the library's ControlMap on part 0, as the LV2
// plugin's "Control N" ports do. The control side publishes each new library's CCs
// (publishControls, under the core's controlMutex(), from whichever thread loaded it);
// the audio thread takes them at its next block and sends every set value again there.
//
// Modulation (CLAP_EVENT_PARAM_MOD, in the param's units, CC values): one naming no note
// is the whole part's, an amount kept apart from the value, so automation does not
// erase it: the CC plays round(clamp(value + amount, 0, 127)), value being the one set
// or, unset, the part's initial one (ControlMap::initial). One naming notes is theirs
// (Notes.h).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "clap/Plugin.h"
#include "core/MidiEvent.h"

namespace spindle::clap {

void Plugin::publishControls(const plugin::ControlMap& map) noexcept {
  for (std::size_t n = 0; n < controlCc_.size(); ++n) {
    controlCc_[n].store(n < map.count ? map.cc[n] : int16_t{-1}, std::memory_order_relaxed);
    controlInitial_[n].store(n < map.count ? map.initial[n] : 0.0f, std::memory_order_relaxed);
  }
  controlsVersion_.fetch_add(1, std::memory_order_release);
}

// At a block's first chunk: a new library's CCs (or values a state set), every set value
// sent from its first frame. A second publish while this reads is seen as a new version
// at the next block, which reads and sends them all again.
void Plugin::takeControls() noexcept SPINDLE_REALTIME {
  const uint32_t version = controlsVersion_.load(std::memory_order_acquire);
  if (version == controlsSeen_ && !resendControls_) return;
  const bool published = version != controlsSeen_;  // the part holds the library's values again
  controlsSeen_ = version;
  resendControls_ = false;
  for (std::size_t n = 0; n < playing_.size(); ++n) {
    ModTarget& target = playing_[n];
    if (published) {
      target.cc = controlCc_[n].load(std::memory_order_relaxed);
      target.initial = target.part = controlInitial_[n].load(std::memory_order_relaxed);
    }
    sendControl(n, 0);
  }
}

void Plugin::setControl(std::size_t n, double value, uint32_t offset) noexcept SPINDLE_REALTIME {
  const double clamped = std::isfinite(value) ? std::clamp(value, double{kControlUnset}, 127.0) : double{kControlUnset};
  controlValues_[n].store(static_cast<float>(clamped), std::memory_order_relaxed);
  if (inChunk_) sendControl(n, offset);
  else resendControls_ = true;
}

void Plugin::modulateParam(const clap_event_param_mod_t& event, uint32_t offset) noexcept SPINDLE_REALTIME {
  if (event.param_id < kFirstControlParam || event.param_id >= kParamCount || !std::isfinite(event.amount)) return;
  if (Notes::polyphonic(event)) {
    if (inChunk_) notes_.modulate(*core_, event, offset);  // outside a chunk no note plays
    return;
  }
  const std::size_t n = event.param_id - kFirstControlParam;
  monoMod_[n] = static_cast<float>(std::clamp(event.amount, -127.0, 127.0));
  if (inChunk_) sendControl(n, offset);
  else resendControls_ = true;
}

// The part's value of control n's CC: nothing while the library's own value stands (no
// value set, no modulation, the part as the library left it). The notes modulating the
// control follow the part's new value with offsets of their own.
void Plugin::sendControl(std::size_t n, uint32_t offset) noexcept SPINDLE_REALTIME {
  ModTarget& target = playing_[n];
  if (target.cc < 0) return;
  const float value = controlValues_[n].load(std::memory_order_relaxed);
  target.base = value >= 0.0f ? value : target.initial;
  if (value < 0.0f && monoMod_[n] == 0.0f && target.part == target.initial) return;
  const long sent = std::lround(std::clamp(target.base + monoMod_[n], 0.0f, 127.0f));
  target.part = static_cast<float>(sent);
  const uint8_t message[3] = {midi::kControlChange, static_cast<uint8_t>(target.cc), static_cast<uint8_t>(sent)};
  core_->addMidi(offset, message, sizeof message);
  notes_.retarget(*core_, n, offset);
}

// The library's label for control n, else "Control n+1".
std::string Plugin::controlName(std::size_t n) const {
  const char* label = controlLabels_.labels.data();
  for (std::size_t k = 0; k < n && k < controlLabels_.count; ++k) label += std::strlen(label) + 1;
  return n < controlLabels_.count ? std::string(label) : "Control " + std::to_string(n + 1);
}

}  // namespace spindle::clap
