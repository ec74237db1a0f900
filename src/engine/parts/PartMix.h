#pragma once
// PartMix: what a voice needs of its part's mix for one render segment. Audio thread.
#include "core/Realtime.h"
#include "engine/mod/ControllerState.h"

namespace spindle::engine {

struct PartMix {
  float gain = 1.0f;
  float pan = 0.0f;
  int bend = 0;
  float bendRange = 200.0f;  // cents: the part's RPN 0, for SoundFont regions
  float noteBend = 0.0f;     // cents: an MPE note's own bend, added to the part's (Expression.h)
  // The parts of gain and pan, for voices whose region modulates CC7 / CC11 / CC10
  // itself: gain = baseGain * cc7Gain * cc11Gain; ccPan is CC10's share of pan.
  float baseGain = 1.0f, cc7Gain = 1.0f, cc11Gain = 1.0f;
  float ccPan = 0.0f;
  // The part's, or an MPE note's (its zone's with its own bend, pressure, timbre); null:
  // no modulation.
  const mod::ControllerState* controllers = nullptr;
};

struct Part;
// The mix state of a part now (VoiceControl.cpp).
PartMix makePartMix(const Part& part, bool soloActive) noexcept SPINDLE_REALTIME;

}  // namespace spindle::engine
