#pragma once
// The controls of a bus effect's parameters (SFZ <effect> name_onccN with its
// name_curveccN, name_smoothccN and name_stepccN), as the running effect reads them.
//
//   parameter target = value + sum over its controls of step(depth x curve(cc))
//
// curve: curve_index of the Program's curves (built in 0..6 or <curve> headers; linear
// when the effect runs without a Program's table); step: the control's contribution
// quantised down to a multiple of it (0: off), as a region's X_stepccN. smooth: a
// parameter follows its target with a one-pole smoother whose time constant is the
// longest smoothccN of its controls (ms; 0 follows at once), else the bus's default.
// Audio thread (value) and the thread that starts the effect (smoothing).
#include <array>

#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/mod/CurveTable.h"

namespace spindle::engine::mod {

// The value control `c` adds to its parameter at controller value x (0..1).
float busControlValue(const BusParamCc& c, float x, const CurveTable* curves) noexcept SPINDLE_REALTIME;

// Each parameter's one-pole coefficient per step of stepFrames frames at sampleRate:
// its controls' longest smoothccN, else defaultSeconds.
void busSmoothing(const BusEffect& effect, double sampleRate, int stepFrames, double defaultSeconds,
                  std::array<float, kBusParams>& coefficients) noexcept SPINDLE_REALTIME;

}  // namespace spindle::engine::mod
