#pragma once
// The playback parameters of one region, as plain data, in SFZ's terms.
//
// Every loader fills it (sfz, sf2, dspreset, hydrogen: values already clamped to the
// ranges of the SFZ format reference, header inheritance already applied) inside the
// Instrument it builds (instrument/Instrument.h); the engine reads it, read-only, on
// the audio thread. It lives in core, not beside the Instrument, because the engine
// links core alone: the rest of the instrument model (paths, diagnostics, the sample
// table) stays on the loader's side of the real-time boundary. Values keep their SFZ
// units (dB, cents, seconds, percent, frames); the engine converts them when a voice
// starts. Field names follow the opcodes.
#include <array>
#include <cstdint>
#include <vector>

#include "core/Modulation.h"

namespace spindle {

enum class LoopMode : uint8_t { NoLoop, OneShot, LoopContinuous, LoopSustain };
// Release plays at the note-off, or at the sustain pedal's release for a note released
// under it; ReleaseKey at the note-off, pedal or not (SFZ v2 release_key).
enum class Trigger : uint8_t { Attack, Release, First, Legato, ReleaseKey };
enum class OffMode : uint8_t { Fast, Normal, Time };
// fil_type. The order is that of OpcodeTable's kFilterTypes (its index = the value).
enum class FilterType : uint8_t {
  None, Lpf1p, Lpf2p, Hpf1p, Hpf2p, Bpf2p, Brf2p,
  // SFZ v2 and ARIA.
  Lpf4p, Lpf6p, Hpf4p, Hpf6p, Bpf1p, Brf1p, Bpf4p, Bpf6p, Pkf2p, Peq, Lsh, Hsh, Apf1p,
  Lpf2pSv, Hpf2pSv, Bpf2pSv, Brf2pSv,
};
enum class CrossfadeCurve : uint8_t { Power, Gain };

// DAHDSR envelope, SFZ units: seconds and percent.
struct EnvelopeParams {
  float delay = 0.0f, start = 0.0f, attack = 0.0f, hold = 0.0f, decay = 0.0f;
  float sustain = 100.0f, release = 0.0f;
  float depth = 0.0f;  // cents (pitcheg, fileg); unused for ampeg
  // Velocity modulation (vel2*): added per unit of velocity (velocity/127).
  float vel2delay = 0.0f, vel2attack = 0.0f, vel2hold = 0.0f, vel2decay = 0.0f;
  float vel2sustain = 0.0f, vel2release = 0.0f, vel2depth = 0.0f;
  // Stage curvature (ARIA *_shape): 0 is linear; below 0 the curve bends under the
  // straight line, above 0 over it (engine/mod/Envelope.h). *_zero: decayZero = 1 times
  // the decay from 1 down to 0 (it stops at sustain), 0 from 1 to sustain; releaseZero
  // = 1 times the release from 1 to 0, 0 from the level the note-off found.
  float attackShape = 0.0f, decayShape = 0.0f, releaseShape = 0.0f;
  float decayZero = 1.0f, releaseZero = 0.0f;
  // *_dynamic (ARIA): 1, the controllers of the stage opcodes (ampeg_attack_onccN...)
  // move the running envelope (mod::Envelope::update); 0, they are read at note start.
  float dynamic = 0.0f;

  // ARIA's ampeg shape for decay and release, -10.3616 = -ln(10^4.5): an exponential
  // falling 90 dB over the stage's time.
  static constexpr float kAmpegShape = -10.3616f;
  static constexpr EnvelopeParams amplitude() {
    EnvelopeParams p;
    p.release = 0.001f;
    p.decayShape = p.releaseShape = kAmpegShape;
    return p;
  }
};

struct LfoParams {
  float delay = 0.0f;  // seconds
  float fade = 0.0f;   // seconds
  float freq = 0.0f;   // Hz; 0 disables the LFO
  float depth = 0.0f;  // dB (amplfo) or cents (pitchlfo, fillfo)
};

// An SFZ v2 LFO (lfoN_*): out = wave(phase) * scale + offset, faded in after its delay,
// read by the voice at control rate; depth[t] is its depth on the continuous
// modulation target t (core/Modulation.h: cents, dB, percent, Hz...). Waves are
// numbered as lfoN_wave: 0 triangle, 1 sine, 2 pulse 75 %, 3 square, 4 pulse 25 %,
// 5 pulse 12.5 %, 6 saw up, 7 saw down, 12 sample and hold; pulses and the square are
// unipolar (0..1, as ARIA), the others bipolar; a step sequence replaces the wave.
struct FlexLfo {
  static constexpr int kDepths = kContinuousTargets;  // ModTarget::Amplitude..Variable
  int number = 1;                     // the N of lfoN
  float freq = 0.0f, phase = 0.0f, delay = 0.0f, fade = 0.0f;  // Hz, cycles, seconds, seconds
  float count = 0.0f;                 // cycles before it stops; 0 = endless
  float wave = 1.0f;
  float offset = 0.0f, ratio = 1.0f, scale = 1.0f;
  std::array<float, kDepths> depth{};
  // Sample and hold: 0 draws from the voice's generator; another value from a generator
  // of its own seeded by it and the voice (DecentSampler <random seed>), so LFOs with
  // one seed hold one value per voice.
  uint32_t seed = 0;
  // 1: one LFO for every voice (DecentSampler scope="global"): it runs from the engine's
  // first frame, its delay counted from there, and a voice starts it at the phase it
  // has reached, so all voices move together. 0: each voice starts its own.
  uint8_t clock = 0;
  // lfoN_steps / lfoN_stepX: with steps > 0 the wave is a step sequence, step X
  // (1-based) = stepX percent of full scale for a 1/steps of the cycle.
  static constexpr int kMaxSteps = 32;
  float steps = 0.0f;
  std::array<float, kMaxSteps> step{};
  // lfoN_waveX, _offsetX, _ratioX, _scaleX for X = 2..8 (X = 1 is the main wave above):
  // more waves added to the output, each turning ratioX times as fast as the main one.
  struct SubWave {
    float wave = -1.0f;  // < 0: not given (the sub-wave is off)
    float offset = 0.0f, ratio = 1.0f, scale = 1.0f;
  };
  static constexpr int kMaxWaves = 8;
  std::array<SubWave, kMaxWaves - 1> sub{};
  // lfoN_freq_lfoX: Hz added to LFO X's frequency per unit of this LFO's output (X <= 8).
  std::array<float, 9> freqLfo{};
  // lfoN_depth_lfoX / lfoN_depthadd_lfoX (percent): this LFO scales LFO X's output, or
  // adds to its scale (engine/mod/VoiceMod.cpp depthScales); bit X of depthLfoGiven: given.
  std::array<float, 9> depthLfo{}, depthAddLfo{};
  uint16_t depthLfoGiven = 0;
  // lfoN_smooth: milliseconds; the output follows the wave through a one-pole low-pass.
  float smooth = 0.0f;
};
static_assert(FlexLfo::kDepths == static_cast<int>(ModTarget::Offset), "one depth per continuous target");
inline constexpr int kMaxFlexLfos = 8;  // per region; more are dropped with a note

// An SFZ v2 flex envelope (egN_*). From level 0, stage X moves to levelX over timeX
// seconds along its shape (egN_shapeX, engine/mod/FlexEgBank.h); the stage numbered
// `sustain` holds its level until the note-off; after the last stage the EG is 0 and
// finished. depth[t] as for FlexLfo; ampeg = 1 makes it the voice's amplitude
// envelope in place of ampeg (egN_ampeg).
struct FlexEgPoint {
  float time = 0.0f, level = 0.0f, shape = 0.0f;  // seconds, -1..1, curvature
  float curve = -1.0f;  // egN_curveX: a curve_index whose curve replaces the shape; < 0: none
};
struct FlexEg {
  static constexpr int kMaxPoints = 32;
  int number = 1;  // the N of egN
  float sustain = 0.0f, ampeg = 0.0f;
  // egN_dynamic: 0, a stage reads its time and level (with egN_timeX_onccY...) when it
  // starts; 1, a controller move also re-reads them for the stage running.
  float dynamic = 0.0f;
  // egN_loop, egN_loop_count (Spindle's reading; the reference gives no definition):
  // after its last stage the EG goes back to stage `loop` (from its level then), while
  // the note is held and at most loopCount times (0: no limit); released, it ends.
  float loop = -1.0f, loopCount = 0.0f;  // loop < 0: none
  float pointCount = 0.0f;  // egN_points: never fewer than `points` (ARIA reads them all)
  int points = 0;  // 1 + the highest point X given
  std::array<FlexEgPoint, kMaxPoints> point{};
  std::array<float, FlexLfo::kDepths> depth{};
  std::array<float, 9> freqLfo{};  // egN_freq_lfoX: Hz added to LFO X's frequency per unit level
  std::array<float, 9> depthLfo{}, depthAddLfo{};  // egN_depth_lfoX, egN_depthadd_lfoX, as FlexLfo's
  uint16_t depthLfoGiven = 0;
  // egN_pan_curve: a curve_index the EG's level goes through before its pan depth; < 0: none.
  float panCurve = -1.0f;
};
inline constexpr int kMaxFlexEgs = 4;

// eqN_type. The order is that of OpcodeTable's kEqTypes (its index = the value).
enum class EqType : uint8_t { Peak, LowShelf, HighShelf };

// One band of the per-voice 3-band EQ (eqN_*): Hz, octaves, dB; vel2*: added per unit
// of velocity (velocity/127). engine/dsp/Eq.h gives each type's response.
struct EqBand {
  float freq = 0.0f, bw = 1.0f, gain = 0.0f;
  EqType type = EqType::Peak;
  float vel2freq = 0.0f, vel2gain = 0.0f;
};

// A controller range, normalised like the controller values (core/Controllers.h):
// loccN=lo / 127, lohdccN as written. Holds when lo <= value <= hi.
struct CcCondition {
  uint16_t cc = 0;  // 0..511
  float lo = 0.0f, hi = 1.0f;
};

// The effect buses a region's voices send to, shared by every part: the reverb and the
// chorus. Each voice feeds each bus its centred signal times the send level.
enum class SendBus : uint8_t { Reverb = 0, Chorus = 1 };
inline constexpr int kSendBuses = 2;

// One send level: `percent` plus `perCc` times controller `cc` (0..1), clamped to
// 0..100 % (SoundFont: reverbEffectsSend / chorusEffectsSend and their CC91 / CC93
// modulators, in FluidSynth's 0.1 % units divided by 10).
struct EffectSend {
  float percent = 0.0f;
  float perCc = 0.0f;
  uint16_t cc = 0;
  bool any() const noexcept { return percent != 0.0f || perCc != 0.0f; }
};

// A memoryless curve a voice applies to its own output (DecentSampler's group
// wave_folder and wave_shaper; engine/dsp/Shaper.h gives the formulas, which the
// instrument bus effects of the same names share). Controllers add to its values
// (ModTarget::Shaper1Drive...).
enum class ShaperType : uint8_t { Folder, Shaper };
struct ShaperStage {
  ShaperType type = ShaperType::Folder;
  float drive = 1.0f;        // input gain, >= 0
  float threshold = 0.25f;   // Folder: folds back at +-threshold
  float driveBoost = 0.0f;   // Shaper: 0..1, the drive times 1 + driveBoost
  float outputLevel = 1.0f;  // Shaper: gain after the tanh
};
inline constexpr int kMaxShaperStages = 2;

struct Region {
  // Sample: index into the owning instrument's sample table; -1 = no sample.
  int32_t sampleIndex = -1;
  int64_t offset = 0, offsetRandom = 0;  // frames, or percent of the sample's frames when offsetPercent
  bool offsetPercent = false;            // offset_mode=percent (ARIA): offset, offset_random, offset_onccN
  int64_t end = -1;                      // last frame played; -1 = the file's end
  int64_t count = 0;                     // one-shot repeat count, 0 = not set
  int64_t loopCount = 0;                 // loop_count: times the loop plays, 0 = endless
  float sampleFadeout = 0.0f;            // sample_fadeout: seconds of fade before the sample's end
  float loopTune = 0.0f;                 // loop_tune: cents added while playing inside the loop
  int32_t sampleQuality = -1;            // sample_quality 1..10 (engine::Quality for it), -1 = the engine's
  // Oscillator playback of a one-cycle table (SFZ v2; engine/dsp/OscillatorBank.h).
  // oscillator: 0 off, 1 on (a file's frames are one cycle), 2 auto (sfizz's rule: on
  // for files under 3000 frames); generators (*sine...) are oscillators whatever it says.
  uint8_t oscillator = 0;
  int32_t oscillatorMode = 0, oscillatorMulti = 1;  // 0..2, 1..9
  int32_t oscillatorQuality = -1;                   // 0..3; -1 = from the engine's quality
  float oscillatorPhase = 0.0f;                     // cycles; below 0 = random per copy
  float oscillatorDetune = 0.0f, oscillatorModDepth = 0.0f;  // cents, percent
  LoopMode loopMode = LoopMode::NoLoop;
  bool loopModeSet = false;              // false: loop_continuous if the file has a loop
  int64_t loopStart = -1, loopEnd = -1;  // frames; -1 = from the file's smpl chunk
  // direction=reverse (SFZ v2): the parser points sampleIndex at the sample's reversed
  // entry (frame i = the file's frame total-1-i, held whole in RAM), so offset, end and
  // loop_start/loop_end count in reversed frames from the file's last frame, as sfizz
  // reads them; the file's own smpl loop is mirrored (the same frames loop, played
  // backwards), as the rgc:audio v2 tests ask. reverse_loccN/hiccN: the region
  // keeps its forward sampleIndex and plays reverseSampleIndex instead when every
  // reverseCcs range holds at note-on.
  bool reverse = false;
  int32_t reverseSampleIndex = -1;  // -1: never reversed by a controller
  std::vector<CcCondition> reverseCcs;
  float loopCrossfade = 0.0f;            // loop_crossfade: seconds at the file's rate (core/LoopTail.h)
  int64_t loopCrossfadeFrames = 0;       // the same in file frames (DecentSampler's loopCrossfade); wins when > 0
  float delay = 0.0f, delayRandom = 0.0f;  // seconds
  int64_t delaySamples = 0;                 // frames of the engine's output, added to delay
  // Beats at the engine's tempo when the voice starts: delay_beats (plus delay_beats_random
  // times a random number in 0..1) adds to delay, stop_beats > 0 releases the voice after
  // that long sounding (after its delay).
  float delayBeats = 0.0f, delayBeatsRandom = 0.0f, stopBeats = 0.0f;
  float syncBeats = 0.0f, syncOffset = 0.0f;  // sync_beats, sync_offset (engine/voices/Voice.cpp)

  // Input controls: the region plays when every condition holds.
  uint8_t lokey = 0, hikey = 127, lovel = 1, hivel = 127;
  uint8_t lochan = 1, hichan = 16;  // 1-based like the opcodes
  int16_t lobend = -8192, hibend = 8192;
  // locc/hicc, lohdcc/hihdcc: one entry per controller, any number (filled off the
  // audio thread, only read there).
  std::vector<CcCondition> ccConditions;
  // on_locc/on_hicc, on_lohdcc/on_hihdcc: a controller moving into one of these ranges
  // starts the region (no key needed). Empty: notes start it.
  std::vector<CcCondition> ccTriggers;
  // stop_locc/stop_hicc, stop_lohdcc/stop_hihdcc: a controller moving into one of these ranges releases the
  // region's sounding voices.
  std::vector<CcCondition> stopCcs;
  uint8_t lochanaft = 0, hichanaft = 127, lopolyaft = 0, hipolyaft = 127;
  float lobpm = 0.0f, hibpm = 500.0f;  // lobpm <= tempo < hibpm (hibpm = 500 includes 500)
  uint8_t loprog = 0, hiprog = 127;    // the part's last MIDI program change number
  float lotimer = 0.0f, hitimer = 1e30f;  // seconds since the part's previous note-on
  bool swVelPrevious = false;          // sw_vel=previous: the previous note's velocity
  bool noKey = false;                  // key=-1: only ccTriggers start it
  float lorand = 0.0f, hirand = 1.0f;
  uint8_t seqLength = 1, seqPosition = 1;
  Trigger trigger = Trigger::Attack;
  // Keyswitches; -1 = not set.
  int16_t swLokey = 0, swHikey = 127;
  int16_t swLast = -1, swDown = -1, swUp = -1, swPrevious = -1, swDefault = -1;
  // sw_lolast..sw_hilast: sw_last as a range (both set, or neither: the parser copies a
  // lone bound to the other).
  int16_t swLolast = -1, swHilast = -1;

  // Voice groups and polyphony.
  int64_t group = 0, offBy = 0;  // offBy 0 = not set
  OffMode offMode = OffMode::Fast;
  float offTime = 0.006f;  // seconds, the fade of off_mode=time: linear, or off_curve=10's exponential
  float offCurve = -100.0f, offShape = 0.0f;  // unset (-100: linear fade; a lone off_shape: curve 10), 0: unset
  // polyphony, by the header that gave it (-1 = unlimited), as sfizz scopes it:
  //   instrumentPolyphony  <global>: the voices of the whole instrument (of the part);
  //   masterPolyphony      <master>: the voices of that <master>'s regions (masterBlock);
  //   groupBlockPolyphony  <group> without group=N: that <group>'s regions (groupBlock);
  //   polyphony            <group> or <region> with group=N: polyphony group N's regions;
  //   regionPolyphony      <region> without group=N: the region's own voices.
  // A new voice over a limit stops the oldest voice of that scope.
  int32_t polyphony = -1, notePolyphony = -1;
  int32_t instrumentPolyphony = -1, masterPolyphony = -1, groupBlockPolyphony = -1, regionPolyphony = -1;
  uint32_t masterBlock = 0, groupBlock = 0;  // the <master> and <group> header the region is under
  // note_selfmask: on (1), a note over note_polyphony stops only same-note voices of its
  // velocity or below, quietest first (a softer note never cuts a louder one); off (0),
  // the oldest, whatever their velocity.
  uint8_t noteSelfmask = 1;
  float rtDecay = 0.0f;                        // dB per second after note-off (release trigger)
  std::array<float, 4> rtDecayN{}, rtDecayNTime{};  // rt_decayN dB/s for rt_decayN_time s, first (EngineMidi)
  // rt_dead: off (0, the default), a release trigger stays silent when the note started
  // voices and none of them sounds any more (its sustain sample has ended); on, it plays.
  uint8_t rtDead = 0;

  // Pedals: the controller that holds (sustain) or latches (sostenuto) this region's
  // voices, down at value >= lo (0..1; the reference's default 0.5 of 127 means any
  // value but 0); sw = false: the pedal does not act on this region.
  uint16_t sustainCc = 64, sostenutoCc = 66;
  float sustainLo = 0.5f / 127.0f, sostenutoLo = 0.5f / 127.0f;
  bool sustainSw = true, sostenutoSw = true;

  // Amplifier.
  float volume = 0.0f;      // dB
  float amplitude = 100.0f; // percent
  float pan = 0.0f, width = 100.0f, position = 0.0f;  // percent, -100..100
  // Per note (ARIA): uniform in +-|*_random| percent, one draw each when non-zero;
  // position += (key - positionKeycenter) * positionKeytrack + positionVeltrack * velocity/127.
  float panRandom = 0.0f, positionRandom = 0.0f;
  float positionKeytrack = 0.0f, positionVeltrack = 0.0f;  // percent per key, percent at 127
  uint8_t positionKeycenter = 60;
  float panKeytrack = 0.0f, panVeltrack = 0.0f;       // percent per key / at velocity 127
  uint8_t panKeycenter = 60;
  bool phaseInvert = false;  // phase=invert: the region's output has inverted polarity
  float ampVeltrack = 100.0f, ampVeltrackRandom = 0.0f;  // percent; random: +- that much per note
  uint8_t panLaw = 0;  // pan_law: 0 mma (constant power), 1 balance (engine/mod/Curves.h)
  float ampKeytrack = 0.0f;    // dB per key from ampKeycenter
  uint8_t ampKeycenter = 60;
  float ampRandom = 0.0f;      // dB
  bool hasAmpVelcurve = false;
  std::array<float, 128> ampVelcurve{};  // gain 0..1 per velocity, when hasAmpVelcurve

  // Crossfades (key and velocity); lo > hi means "not set".
  uint8_t xfinLokey = 0, xfinHikey = 0, xfoutLokey = 127, xfoutHikey = 127;
  uint8_t xfinLovel = 0, xfinHivel = 0, xfoutLovel = 127, xfoutHivel = 127;
  CrossfadeCurve xfKeycurve = CrossfadeCurve::Power, xfVelcurve = CrossfadeCurve::Power;

  // Pitch.
  uint8_t pitchKeycenter = 60;
  bool pitchKeycenterFromKey = false;  // pitch_keycenter=sample: the file's root key (SampleData::rootKey)
  float pitchKeytrack = 100.0f;        // cents per key
  float pitchVeltrack = 0.0f;          // cents at velocity 127
  float pitchRandom = 0.0f;            // cents
  float tune = 0.0f;                   // cents
  int32_t transpose = 0;               // semitones
  float bendUp = 200.0f, bendDown = -200.0f;  // cents
  int32_t bendStep = 1;                       // cents
  int32_t bendStepUp = 0, bendStepDown = 0;   // cents; 0 = bend_step
  float bendSmooth = 0.0f;                    // ms; 0 = bends apply at once
  // SoundFont regions: the bend range is the part's (MIDI RPN 0, 2 semitones until set),
  // not bend_up/bend_down.
  bool bendFromRpn = false;

  // Filter.
  FilterType filType = FilterType::None;  // None: no cutoff given
  float cutoff = -1.0f;                   // Hz; < 0 = filter off
  float resonance = 0.0f;                 // dB
  float resonanceRandom = 0.0f;           // dB: uniform [0, resonance_random] added per note
  float filGain = 0.0f;                   // dB: the gain of peq, pkf_2p, lsh and hsh
  // The second filter (fil2_type, cutoff2, resonance2...), after the first: the same
  // meanings; off while cutoff2 < 0. Neither fileg nor the v1 LFOs move it.
  FilterType fil2Type = FilterType::None;
  float cutoff2 = -1.0f, resonance2 = 0.0f, resonance2Random = 0.0f, fil2Gain = 0.0f;
  float fil2Keytrack = 0.0f, fil2Veltrack = 0.0f, cutoff2Random = 0.0f;
  uint8_t fil2Keycenter = 60;
  float filKeytrack = 0.0f;               // cents per key
  uint8_t filKeycenter = 60;
  float filVeltrack = 0.0f;               // cents
  float filRandom = 0.0f;                 // cents
  std::array<EqBand, 3> eq{{{50.0f}, {500.0f}, {5000.0f}}};  // eq1..eq3; gain 0 = band off
  // Per-voice shaper stages, in order, after the filters and the EQ, before the
  // amplitude envelope, gain and pan; shaperCount 0: none (the voice skips the stage).
  uint8_t shaperCount = 0;
  std::array<ShaperStage, kMaxShaperStages> shapers{};

  EnvelopeParams ampeg = EnvelopeParams::amplitude();
  EnvelopeParams fileg{0, 0, 0, 0, 0, 0, 0};
  EnvelopeParams pitcheg{0, 0, 0, 0, 0, 0, 0};
  LfoParams amplfo, fillfo, pitchlfo;
  std::vector<FlexLfo> lfos;  // lfoN_*, in order of first mention
  std::vector<FlexEg> egs;    // egN_*, in order of first mention
  std::vector<ModVariable> variables;  // varNN_*, in order of first mention

  // Controller modulation (core/Modulation.h); crossfades by controller use xfCccurve.
  uint8_t ccModulationCount = 0, ccCrossfadeCount = 0;
  std::array<CcModulation, kMaxCcModulations> ccModulations{};
  std::array<CcCrossfade, kMaxCcCrossfades> ccCrossfades{};
  CrossfadeCurve xfCccurve = CrossfadeCurve::Power;

  int32_t output = 0;
  // Effect sends (SendBus order); none unless the format says so. sendGain scales every
  // send: SoundFont regions hold the pan law's -3.01 dB centre in their volume, which
  // FluidSynth's sends do not pass through.
  std::array<EffectSend, kSendBuses> sends{};
  float sendGain = 1.0f;
  // SFZ effect1..effect4: % of the voice's output fed to the part's fx buses 1..4
  // (core/BusEffects.h), besides the whole of it to the main bus.
  float effect1 = 0.0f, effect2 = 0.0f, effect3 = 0.0f, effect4 = 0.0f;
  std::array<float, 4> fxSends() const noexcept { return {effect1, effect2, effect3, effect4}; }
  // The SoundFont preset the region belongs to (an index into the Program's presets),
  // played only while the part's bank and program select it; -1: every program (SFZ).
  int16_t preset = -1;
};

// Whether a region asks to play a file of `totalFrames` frames as a one-cycle table:
// oscillator=on, or auto and shorter than sfizz's 3000 frames. The voice plays it so
// when the file is held whole as float (SampleData::table; engine/voices/VoiceOscillator.cpp).
inline constexpr int64_t kAutoOscillatorFrames = 3000;
inline bool wantsOscillator(const Region& r, int64_t totalFrames) noexcept {
  return r.oscillator == 1 || (r.oscillator == 2 && totalFrames < kAutoOscillatorFrames);
}

}  // namespace spindle
