#pragma once
// Controller modulation of a region, as plain data (SFZ X_onccN, X_ccN, X_curveccN,
// X_smoothccN, X_stepccN, X_chanaft, X_polyaft; xfin/xfout_locc/hiccN).
//
// The sfz parser fills these into the Region; the engine compiles them per Program on
// the loader thread (engine/mod/ModPlan) into the flat lists its voices walk. Sources
// are controller slots 0..511 (core/Controllers.h: 129 channel aftertouch, 130
// polyphonic aftertouch...). Depths keep the target's SFZ unit (percent, dB, cents, Hz,
// seconds, frames).
#include <array>
#include <bitset>
#include <cstdint>

namespace spindle {

// What a controller moves. The first group is continuous (re-read while the note
// sounds); from Offset on, the value is taken once when the voice starts.
enum class ModTarget : uint8_t {
  Amplitude,    // percent; multiplies (100 at curve value 1 = unity)
  Volume,       // dB
  Pan, Width, Position,  // percent
  Pitch,        // cents (pitch_oncc, tune_oncc)
  Cutoff,       // cents
  Resonance,    // dB
  AmpVeltrack,  // percent
  AmplfoDepth, AmplfoFreq, FillfoDepth, FillfoFreq, PitchlfoDepth, PitchlfoFreq,  // dB or cents, Hz
  Eq1Freq, Eq1Bw, Eq1Gain, Eq2Freq, Eq2Bw, Eq2Gain, Eq3Freq, Eq3Bw, Eq3Gain,     // Hz, octaves, dB
  LfoFreq,      // Hz, of an lfoN (CcModulation::lfo)
  Cutoff2,      // cents
  Resonance2,   // dB
  LfoFreqLfo,   // Hz: a source's depth on the frequency of LFO `sub` (lfoN_freq_lfoX_onccY)
  FilGain, Fil2Gain,  // dB (fil_gain_onccN, fil2_gain_onccN)
  LfoStep,      // percent, of step `sub` of an lfoN's step sequence (lfoN_stepX_onccY)
  OscillatorDetune,    // cents, added to oscillator_detune
  OscillatorModDepth,  // percent; multiplies oscillator_mod_depth (100 at curve value 1 = unity, as sfizz)
  // Hz added to the first / second filter's cutoff before its cents apply: (cutoff +
  // CutoffHz) * 2^(Cutoff / 1200). No SFZ opcode; a DecentSampler modulator adding to a
  // filter's frequency in Hz (dspreset/Modulators.h).
  CutoffHz, Cutoff2Hz,
  // Added to a voice's shaper stage 1 / 2 (Region::shapers): drive, threshold,
  // driveBoost, outputLevel, in their units. No SFZ opcode; DecentSampler controls bound
  // to a group's wave_folder or wave_shaper (dspreset/ControlRegions.h).
  Shaper1Drive, Shaper1Threshold, Shaper1DriveBoost, Shaper1OutputLevel,
  Shaper2Drive, Shaper2Threshold, Shaper2DriveBoost, Shaper2OutputLevel,
  // A source of ARIA variable `sub` (varNN_onccX): its contribution joins the
  // variable's value, which moves the variable's own targets (ModVariable).
  Variable,
  // Note-start targets.
  Offset,  // frames
  Delay,   // seconds
  DelaySamples,  // frames (delay_samples_onccN)
  DelayBeats,    // beats (delay_beats_onccN)
  AmpegDelay, AmpegStart, AmpegAttack, AmpegHold, AmpegDecay, AmpegSustain, AmpegRelease,
  FilegDelay, FilegStart, FilegAttack, FilegHold, FilegDecay, FilegSustain, FilegRelease, FilegDepth,
  PitchegDelay, PitchegStart, PitchegAttack, PitchegHold, PitchegDecay, PitchegSustain, PitchegRelease,
  PitchegDepth,
  LfoDelay, LfoFade, LfoPhase,  // seconds, seconds, cycles, of an lfoN (CcModulation::lfo)
  LfoSmooth, LfoWave,           // milliseconds (lfoN_smooth_onccX), wave number (lfoN_wave_onccX)
  EgTime, EgLevel,              // seconds, level, of point `sub` of an egN (egN_timeX_onccY)
  LoopStart, LoopEnd,           // frames (loop_startccN, loop_lengthccN: moves loop_end)
  Count
};

// A set of targets (bit t: ModTarget t).
using ModTargetSet = std::bitset<static_cast<size_t>(ModTarget::Count)>;

inline constexpr bool isNoteStartTarget(ModTarget t) noexcept { return t >= ModTarget::Offset; }


// One source -> target connection. A value below 0 for smoothMs means "not given".
// lfo = eg = 0: the region's own target; lfo = k > 0: the k-th entry of Region::lfos,
// whose depth on `target` (lfoN_pitch_onccX...) or whose LfoFreq/Delay/Fade/Phase it
// moves; eg = k > 0: the k-th flex EG's depth (egN_pitch_onccX...).
struct CcModulation {
  uint16_t cc = 0;
  ModTarget target = ModTarget::Amplitude;
  uint8_t curve = 0;       // curve_index: 0..6 built in, others from <curve> headers
  float depth = 0.0f;      // target units at curve value 1
  float smoothMs = -1.0f;  // X_smoothccN; < 0: the engine's default
  float step = 0.0f;       // X_stepccN: the contribution is quantised to multiples; 0 = off
  uint8_t lfo = 0;
  uint8_t eg = 0;  // k > 0: the depth on `target` of the k-th entry of Region::egs
  uint8_t sub = 0;  // LfoFreqLfo: the LFO moved (its number; ModPlan: its entry + 1); EgTime/EgLevel: the point;
                    // Variable: the variable's entry + 1 in Region::variables
};

inline constexpr int kContinuousTargets = static_cast<int>(ModTarget::Offset);

// An ARIA modulation variable (varNN_*). Its value is its sources' contributions (the
// Variable slots naming it: depth x curve(controller), varNN_onccX, varNN_curveccX)
// summed, or with varNN_mod=mult multiplied (0 with no source); the value times
// depth[t] moves each continuous target t (varNN_cutoff, varNN_eq1gain...) as an LFO's
// output times its depth does (amplitude multiplies).
struct ModVariable {
  int number = 1;     // the NN of varNN
  float mult = 0.0f;  // varNN_mod: 0 add, 1 mult
  std::array<float, kContinuousTargets> depth{};
};
inline constexpr int kMaxVariables = 8;  // per region; more are dropped with a note

// xfin_loccN/xfin_hiccN (fade in over lo..hi) or xfout_loccN/xfout_hiccN (fade out).
struct CcCrossfade {
  uint16_t cc = 0;
  bool fadeOut = false;
  uint8_t lo = 0, hi = 0;
};

// A <curve> header (curve_index, v000..v127 interpolated) as the engine receives it.
struct ModCurve {
  int index = 0;
  std::array<float, 128> points{};
};

inline constexpr int kMaxCcModulations = 32;  // per region; more are dropped with a warning
inline constexpr int kMaxCcCrossfades = 4;

}  // namespace spindle
