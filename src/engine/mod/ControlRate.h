#pragma once
// The one control rate: what moves more slowly than audio (controller modulation and its
// smoothing, the SFZ v2 LFOs and flex EGs, the bus effects' parameters, a filter's
// cutoff under its envelope and LFO) is computed once every kControlFrames frames of
// the voice's or the effect's own, never from where a block starts, and ramped frame by
// frame inside the step where the sound would step otherwise (gains, mixes, pans).
namespace spindle::engine::mod {

inline constexpr int kControlFrames = 32;

}  // namespace spindle::engine::mod
