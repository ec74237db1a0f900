// Plugin, its control, health and part ports (audio thread): the "Control N" inputs
// that play the instrument's labelled controls as MIDI CCs to part 0, the labels
// announced on the notify port, the health outputs written after each run(), and the
// parts' optional stereo outputs.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "lv2/Plugin.h"
#include "stream/DiskThread.h"

namespace spindle::lv2 {

// LV2's forge utilities are inline header functions that write the host's buffer:
// real-time safe though not annotated (as in Plugin.cpp).
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif

// A port whose value moved plays it from the cycle's first frame, before the cycle's
// MIDI; after a load every value in effect goes out again (a program change resets
// the controllers to the instrument's defaults). kControlUnset sends nothing: the
// controller keeps the instrument's value, or the last one sent.
void Plugin::sendControls() noexcept SPINDLE_REALTIME {
  for (std::size_t n = 0; n < static_cast<std::size_t>(kControlPorts); ++n) {
    bool send = resendControls_;
    if (const float* port = controlPorts_[n]; port && *port != portSeen_[n]) {
      portSeen_[n] = *port;
      const float value = std::isfinite(*port) ? std::clamp(*port, kControlUnset, 127.0f) : kControlUnset;
      controlValues_[n].store(value, std::memory_order_relaxed);
      send = true;
    }
    const float value = controlValues_[n].load(std::memory_order_relaxed);
    const int cc = controlMap_.cc[n];
    if (!send || value < 0.0f || cc < 0) continue;
    const uint8_t message[3] = {0xB0, static_cast<uint8_t>(cc), static_cast<uint8_t>(std::lround(value))};
    live_.addPortEvent(0, message, sizeof message);
  }
  resendControls_ = false;
}

// A new instrument's map: its values go out in the next cycle, its labels with the next
// replies, its underruns count from here.
void Plugin::takeControlMap(const ControlMap& map) noexcept SPINDLE_REALTIME {
  controlMap_ = map;
  resendControls_ = true;
  underrunsAtLoad_ = engine_.stats().sourceUnderruns;
}

// patch:Set of controlLabels: a tuple of the labels, one string per control port the
// instrument maps, in port order.
void Plugin::writeControlLabels() noexcept SPINDLE_REALTIME {
  LV2_Atom_Forge_Frame object, tuple;
  lv2_atom_forge_frame_time(&forge_, 0);
  lv2_atom_forge_object(&forge_, &object, 0, uris_.patchSet);
  lv2_atom_forge_key(&forge_, uris_.patchProperty);
  lv2_atom_forge_urid(&forge_, uris_.controlLabels);
  lv2_atom_forge_key(&forge_, uris_.patchValue);
  lv2_atom_forge_tuple(&forge_, &tuple);
  const char* label = controlMap_.labels.data();
  for (uint32_t n = 0; n < controlMap_.count; ++n) {
    const auto length = static_cast<uint32_t>(std::strlen(label));
    lv2_atom_forge_string(&forge_, label, length);
    label += length + 1;
  }
  lv2_atom_forge_pop(&forge_, &tuple);
  lv2_atom_forge_pop(&forge_, &object);
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

// The engine's share of the last note-on's latency in the cycle just rendered: frames
// from its event to its first voice's first frame (0 when sample-accurate).
void Plugin::noteLatency() noexcept SPINDLE_REALTIME {
  for (const engine::NoteStart& start : engine_.noteStarts())
    if (start.voices > 0 && start.firstOffset >= 0)
      latencyMs_ = static_cast<float>(1000.0 * std::max(0, start.firstOffset - start.eventOffset) / sampleRate_);
}

// True when buffer is also the main pair's or another part port's: a host may hand
// the outputs it does not use one scratch buffer (Ardour does), and a part written
// there would land on the others, or on the mix.
bool Plugin::sharedBuffer(const float* buffer, std::size_t part, bool right) const noexcept SPINDLE_REALTIME {
  if (buffer == left_ || buffer == right_) return true;
  for (std::size_t p = 0; p < partPorts_.size(); ++p) {
    if (p != part && (buffer == partPorts_[p].left || buffer == partPorts_[p].right)) return true;
    if (p == part && buffer == (right ? partPorts_[p].left : partPorts_[p].right)) return true;
  }
  return false;
}

// The part pairs connected to buffers of their own; a part without one plays on the main
// pair only.
const engine::PartOutputs* Plugin::partOutputs(uint32_t done) noexcept SPINDLE_REALTIME {
  bool any = false;
  for (std::size_t p = 0; p < partPorts_.size(); ++p) {
    const engine::StereoOut& port = partPorts_[p];
    const bool connected = port.left && port.right && !sharedBuffer(port.left, p, false) &&
                           !sharedBuffer(port.right, p, true);
    partOutputs_[p] = connected ? engine::StereoOut{port.left + done, port.right + done} : engine::StereoOut{};
    any = any || connected;
  }
  return any ? &partOutputs_ : nullptr;
}

void Plugin::writeHealth() noexcept SPINDLE_REALTIME {
  const engine::EngineStats stats = engine_.stats();
  if (voicesOut_) *voicesOut_ = static_cast<float>(stats.activeVoices);
  if (underrunsOut_) *underrunsOut_ = static_cast<float>(stats.sourceUnderruns - underrunsAtLoad_);
  if (latencyOut_) *latencyOut_ = latencyMs_;
  if (cacheFillOut_) {
    const stream::DiskThread* disk = streaming_.disk();
    const double used = disk ? static_cast<double>(disk->counters().cacheBytes.load(std::memory_order_relaxed)) : 0.0;
    *cacheFillOut_ = cacheBudget_ > 0.0 ? static_cast<float>(std::min(100.0, 100.0 * used / cacheBudget_)) : 0.0f;
  }
}

}  // namespace spindle::lv2
