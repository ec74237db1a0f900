// Plugin, its control, health and part ports (audio thread): the "Control N" inputs
// that play the instrument's labelled controls as MIDI CCs to part 0, the labels
// announced on the notify port and the health outputs written after each run().
#include <algorithm>
#include <cmath>
#include <cstring>

#include "lv2/Plugin.h"

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
    core_.addMidi(0, message, sizeof message);
  }
  resendControls_ = false;
}

// A new instrument's map: its values go out in the next cycle, its labels with the next
// replies, its underruns count from here.
void Plugin::takeControlMap(const ControlMap& map) noexcept SPINDLE_REALTIME {
  controlMap_ = map;
  resendControls_ = true;
  core_.underrunsFromHere();
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

void Plugin::writeHealth() noexcept SPINDLE_REALTIME {
  const plugin::Health health = core_.health();
  if (voicesOut_) *voicesOut_ = health.voices;
  if (underrunsOut_) *underrunsOut_ = health.underruns;
  if (latencyOut_) *latencyOut_ = health.latencyMs;
  if (cacheFillOut_) *cacheFillOut_ = health.cacheFill;
}

}  // namespace spindle::lv2
