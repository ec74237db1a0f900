#pragma once
// BusEffects: an instrument's effect buses as a loader describes them (SFZ <effect>).
//
//   voices --100 %-------> main bus -> its effects -> x directtomain --+
//         \--effectN % --> fx bus N -> its effects -> x fxNtomain ----+--> the part's output
//                                                     (+ fxNtomix)
//
// Every voice feeds the main bus its whole output and fx bus N (1..4) its output times
// the region's effectN. Each bus runs its effects in file order, then joins the part's
// output at its level: the main bus at directtomain (100 % by default), fx bus N at
// fxNtomain plus fxNtomix (0 by default; the reference names a "mix node" it never
// describes, so the two add to the same output). An fx bus without effects passes its
// input on. Effect parameters move with controllers: value + sum of depth * curve(cc),
// each control with its curve, step and smoothing (engine/mod/BusControls.h), plus the
// controllers' translation curves and the LFOs (engine/mod/BusModulation.h).
//
// Built on the loader thread; engine/effects/PartBuses.h runs it.
#include <array>
#include <cstdint>
#include <vector>

#include "core/ImpulseResponse.h"
#include "core/Region.h"

namespace spindle {

inline constexpr int kFxBuses = 4;
inline constexpr int kBuses = 1 + kFxBuses;  // 0 = main, n = fx bus n

enum class BusEffectType : uint8_t {
  Gain, Eq, Filter, Rectify, Width, Apan, Delay, Phaser, Reverb, Lofi, Disto, Comp, Gate, Limiter,
  Convolution,
  // DecentSampler's (engine/effects/Chorus.h, Simple.h, Phaser.h), in its units.
  Chorus, WaveFolder, WaveShaper, ModPhaser
};

// Every parameter of every effect type, each in the unit of its opcode.
enum class BusParam : uint8_t {
  Gain,             // gain: dB
  EqFreq,           // eq_freq: Hz
  EqBw,             // eq_bw: octaves
  EqGain,           // eq_gain: dB
  FilterCutoff,     // filter_cutoff: Hz
  FilterResonance,  // filter_resonance: dB
  Rectify,          // rectify: % (0 passes through, 100 rectifies half-wave)
  Width,            // width: % (100 passes through, 0 mono, -100 swaps the sides)
  ApanFreq,         // apan_freq: Hz
  ApanPhase,        // apan_phase: degrees the right channel's wave runs ahead of the left's
  ApanDepth,        // apan_depth: %
  ApanDry,          // apan_dry: %
  ApanWet,          // apan_wet: %
  // delay (engine/effects/Delay.h): each tap's time (s), level (%) and pan (0 left..100 right)
  DelayTimeL, DelayTimeR, DelayTimeC, DelayLevelL, DelayLevelR, DelayLevelC, DelayPanL, DelayPanR, DelayPanC,
  DelayFeedback, DelayInput, DelayDry, DelayWet,  // %
  DelayCutoff, DelayResonance,                    // Hz, dB (delay_filter's)
  DelayDampHi, DelayDampLo,                       // %
  // phaser (engine/effects/Phaser.h)
  PhaserFreq, PhaserDepth, PhaserFeedback, PhaserPhase, PhaserWet, PhaserStages,  // Hz, %, %, %, %, count
  // reverb / fverb (engine/effects/Reverb.h)
  ReverbSize, ReverbDamp, ReverbTone, ReverbPredelay, ReverbInput, ReverbDry, ReverbWet,  // %, %, %, s, %, %, %
  Bitred,           // bitred: 0..100
  Decim,            // decim: 0..100
  DistoTone,        // disto_tone: 0..100
  DistoDepth,       // disto_depth: 0..100
  DistoStages,      // disto_stages: 1..4
  DistoDry,         // disto_dry: % (the level into the distortion)
  DistoWet,         // disto_wet: % (the distortion's share of the output)
  CompAttack,       // comp_attack: s
  CompRelease,      // comp_release: s
  CompRatio,        // comp_ratio
  CompThreshold,    // comp_threshold: dB
  CompGain,         // comp_gain: dB
  CompLink,         // comp_stlink: 1 on, 0 off
  GateAttack,       // gate_attack: s
  GateRelease,      // gate_release: s
  GateThreshold,    // gate_threshold: dB
  GateLink,         // gate_stlink: 1 on, 0 off
  GateManual,       // gate_onccN: % (100 holds the gate closed)
  Bypass,           // bypass_onccN: 0 plays the effect, 1 replaces its output by its input
  ConvolutionMix,   // convolution mix: 0..1, the convolved share of the output (DecentSampler)
  // DecentSampler's chorus and phaser (engine/effects/Chorus.h, engine/effects/Phaser.h):
  Mix,              // 0 dry .. 1 only the effect
  ModDepth,         // 0..1
  ModRate,          // Hz
  CentreFreq,       // Hz: the phaser's centre
  ModFeedback,      // -1..1: the phaser's feedback
  // DecentSampler's wave_folder and wave_shaper (engine/effects/Simple.h):
  Drive,            // the input's gain (linear)
  Threshold,        // wave_folder: the level the wave folds at
  DriveBoost,       // wave_shaper: 0..1, more drive
  OutputLevel,      // wave_shaper: the output's gain (linear)
  // delay: each tap's time in beats of the engine's tempo (engine/effects/Delay.h); 0 plays
  // the tap's time in seconds instead
  DelayBeatsL, DelayBeatsR, DelayBeatsC,
  DelayLfoFreq, DelayModDepth,  // delay: Hz, % of each tap's time the taps' shared sine LFO moves it
  Count
};
inline constexpr int kBusParams = static_cast<int>(BusParam::Count);

// The value each parameter starts from when its opcode is not written. The reference
// gives none; these are sfizz's (a frequency of 0 plays as the lowest the EQ and filter
// take, 10 Hz: an unset filter_cutoff nearly silences the bus, as in sfizz).
// apan: the right channel opposite the left (180 degrees), its whole output wet, so
// at depth 0 it passes the bus through. delay, phaser and reverb: Spindle's own
// (docs/formats.md): a delay tap with time 0 is silent; the left and right taps at full
// level, hard left and right, dry and wet 100 %; a 4-stage phaser at 1 Hz, depth 50 %.
// reverb: sfizz's fverb's (input, dry and wet 0: an unset reverb silences its bus; size
// 0, tone 100). disto: tone 100, one stage, no level into the distortion and none of it
// in the output. comp: 5 ms attack, 50 ms release, ratio 1. gate: the same times,
// threshold 0 dB.
inline constexpr std::array<float, kBusParams> kBusParamDefaults = {
    0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 100.0f, 0.0f, 180.0f, 0.0f, 0.0f, 100.0f,
    // delay
    0.0f, 0.0f, 0.0f, 100.0f, 100.0f, 0.0f, 0.0f, 100.0f, 50.0f, 0.0f, 100.0f, 100.0f, 100.0f,
    0.0f, 0.0f, 0.0f, 0.0f,
    // phaser
    1.0f, 50.0f, 0.0f, 0.0f, 100.0f, 4.0f,
    // reverb
    0.0f, 0.0f, 100.0f, 0.0f, 0.0f, 0.0f, 0.0f,
    0.0f, 0.0f, 100.0f, 0.0f, 1.0f, 0.0f, 0.0f,  // lofi, disto
    0.005f, 0.05f, 1.0f, 0.0f, 0.0f, 0.0f,       // comp
    0.005f, 0.05f, 0.0f, 0.0f, 0.0f,             // gate
    0.0f,                                        // bypass
    0.5f,                                        // convolution mix (DecentSampler's default)
    0.5f, 0.2f, 0.2f, 400.0f, 0.7f,              // chorus, phaser (DecentSampler's defaults)
    1.0f, 0.25f, 1.0f, 0.1f,                     // wave_folder, wave_shaper
    0.0f, 0.0f, 0.0f,                            // delay beats
    0.0f, 0.0f};                                 // delay lfofreq, moddepth

struct BusParamCc {
  BusParam param = BusParam::Gain;
  uint16_t cc = 0;
  float depth = 0.0f;  // added at cc = 1, in the parameter's unit
  uint8_t curve = 0;        // name_curveccN: the curve_index the controller goes through
  float smoothMs = -1.0f;   // name_smoothccN; < 0: the bus's own smoothing
  float step = 0.0f;        // name_stepccN: the contribution in multiples of it; 0 = off
};

// A controller moving a parameter through a curve (DecentSampler's translated control
// bindings): `points` (kBusCurvePoints, built on the loader thread) is what is added at
// each controller value 0..127, in the parameter's unit, read with linear interpolation.
struct BusParamCurve {
  BusParam param = BusParam::Gain;
  uint16_t cc = 0;
  std::vector<float> points;
};
inline constexpr int kBusCurvePoints = 128;

// A part-wide LFO moving one parameter (DecentSampler's global <lfo>): its wave
// (0 sine, 1 square, 2 saw, each 0..1) at `hz`, silent for `delay` seconds after the
// part starts its buses; `curve` (kBusCurvePoints points over the wave's 0..1, built
// on the loader thread) is the value it gives, which is added to the parameter,
// multiplies it or replaces it.
struct BusParamLfo {
  enum class Behavior : uint8_t { Add, Multiply, Set };
  BusParam param = BusParam::Gain;
  uint8_t wave = 0;
  Behavior behavior = Behavior::Set;
  float hz = 1.0f, delay = 0.0f;
  std::vector<float> curve;
};
inline constexpr int kMaxBusLfos = 8;  // per effect

struct BusEffect {
  BusEffectType type = BusEffectType::Gain;
  uint8_t bus = 0;  // 0 = main, 1..4 = fxN
  FilterType filterType = FilterType::Lpf2p;
  EqType eqType = EqType::Peak;
  uint8_t wave = 0;  // apan_waveform, numbered as lfoN_wave (0 triangle)
  std::array<float, kBusParams> values = kBusParamDefaults;
  std::vector<BusParamCc> controllers;
  std::vector<BusParamCurve> curves;
  std::vector<BusParamLfo> lfos;  // at most kMaxBusLfos
  bool filterWritten = false;  // filter_type or delay_filter was written
  uint8_t reverbType = 0;      // reverb_type, as kReverbTypes numbers them
  ImpulseResponseRef impulse;  // convolution: its response (engine/effects/Convolution.h)
};

// reverb_type's names, in order (engine/effects/Reverb.h gives each its decay range).
inline constexpr const char* kReverbTypes[] = {"large_hall", "large_room", "mid_hall", "mid_room",
                                               "small_hall", "small_room", "chamber"};

struct BusLayout {
  // Each bus's level into the part's output, 0..1: directtomain, fxNtomain + fxNtomix.
  std::array<float, kBuses> toOutput = {1.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  std::vector<BusEffect> effects;  // file order
  // Whether the layout changes anything: some effect, or a level other than the default.
  bool used() const noexcept {
    return !effects.empty() || toOutput != std::array<float, kBuses>{1.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  }
};

}  // namespace spindle
