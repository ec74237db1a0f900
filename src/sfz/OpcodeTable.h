#pragma once
// The opcodes Spindle implements: name, aliases, value type, range, and the Region field
// each one fills. One table (OpcodeTable.cpp); ranges are those of the SFZ format
// reference (syntax.yml), checked by tests/sfz against the reference itself.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <variant>

#include "core/Region.h"

namespace spindle::sfz {

// The reference's bound for frame positions (offsets, loop points, delays in frames).
inline constexpr double kMaxFrames = 4294967296.0;
// Option lists shared by the opcode table and the readers that parse them again.
inline constexpr std::string_view kEqTypes[] = {"peak", "lshelf", "hshelf"};  // index = EqType
inline constexpr std::string_view kCrossfadeCurves[] = {"power", "gain"};

enum class ValueKind : uint8_t {
  Integer,   // decimal number, truncated toward zero
  Float,
  Note,      // MIDI note: number or name (c4 = 60, c#4, db4), shifted by octave/note_offset
  KeyRange,  // Note, or -1 = "no key" (the region is only triggered by other means)
  Option,    // one of OpcodeSpec::options; the number is its index
  Text,
};

// Opcodes that need more than storing a number into one field.
enum class Special : uint8_t {
  Sample, Key, LoKey, HiKey, PitchKeycenter, LoCc, HiCc, AmpVelcurve,
  LoopMode, Trigger, OffMode, FilType, XfKeycurve, XfVelcurve, SwDefault,
  // Controllers (15a): hd conditions and triggers, set_cc defaults, pedals.
  LoHdcc, HiHdcc, OnLoCc, OnHiCc, OnLoHdcc, OnHiHdcc, SetCc, SetHdcc, SetRealcc,
  SwVel, SustainCc, SustainLo, SustainSw, SostenutoCc, SostenutoLo, SostenutoSw,
  // Header levels (ARIA): global_/master_/group_ volume, amplitude and tune, which
  // combine with the region's own value (RegionBuilder::finish).
  GlobalVolume, MasterVolume, GroupVolume, GlobalAmplitude, MasterAmplitude, GroupAmplitude,
  GlobalTune, MasterTune, GroupTune,
  // SFZ v2: phase, stop_locc/stop_hicc (and ARIA's stop_lohdcc/stop_hihdcc), eqN_type (band N), fil2_type, note_selfmask,
  // direction, reverse_locc/reverse_hicc.
  Phase, StopLoCc, StopHiCc, StopLoHdcc, StopHiHdcc, EqType,
  Fil2Type, NoteSelfmask, Direction, ReverseLoCc, ReverseHiCc, RtDead,
  // ARIA: offset_mode; group and polyphony, scoped by the header level (RegionBuilder::finish).
  OffsetMode, Group, Polyphony,
  RtDecayN, RtDecayNTime,  // ARIA: rt_decayN, rt_decayN_time (N = 1..4)
};

struct EnvField {
  EnvelopeParams Region::*envelope;
  float EnvelopeParams::*param;
};
struct LfoField {
  LfoParams Region::*lfo;
  float LfoParams::*param;
};
struct EqField {  // eqN_*: the band is the N of the name (1..3), or `band` when given
  float EqBand::*param;
  int band = 0;
};
// A source's hold on LFO X's output: none, lfoN_/egN_depth_lfoX, lfoN_/egN_depthadd_lfoX.
enum class LinkKind : uint8_t { None, Depth, DepthAdd };
// lfoN_* (ModOpcodes.cpp): a parameter of the region's LFO N (the OpcodeMatch's lfo),
// or with depth >= 0 its depth on that ModTarget.
struct FlexLfoField {
  float FlexLfo::*param = nullptr;
  int depth = -1;
  bool step = false;  // lfoN_stepX: step X (the OpcodeMatch's index, 1-based)
  float FlexLfo::SubWave::*sub = nullptr;  // lfoN_waveX...: wave X's field (X = 1: the main one's)
  bool freqLfo = false;                    // lfoN_freq_lfoX: depth on LFO X's frequency (the index)
  LinkKind depthLfo = LinkKind::None;      // lfoN_depth_lfoX, lfoN_depthadd_lfoX (X: the index)
};
// egN_* (ModOpcodes.cpp): a field of point X (the OpcodeMatch's index) of the region's
// EG N (its eg), a parameter of that EG, or with depth >= 0 its depth on that ModTarget.
struct FlexEgField {
  float FlexEgPoint::*point = nullptr;
  float FlexEg::*param = nullptr;
  int depth = -1;
  bool freqLfo = false;  // egN_freq_lfoX (X: the index)
  LinkKind depthLfo = LinkKind::None;  // egN_depth_lfoX, egN_depthadd_lfoX
};
// varNN_* (ModOpcodes.cpp): the region's variable NN (the OpcodeMatch's var): with
// depth >= 0 its depth on that ModTarget, else its varNN_mod.
struct VariableField {
  int depth = -1;
};
// Controller modulation opcodes (ModOpcodes.cpp): which part of a CcModulation (or
// CcCrossfade) the value sets, for which target and source.
enum class ModParam : uint8_t { Depth, Curve, Smooth, Step, CrossfadeLo, CrossfadeHi, CrossfadeCurve };
struct ModField {
  ModTarget target;
  ModParam param;
  int16_t source = -1;   // a fixed controller (129 chanaft, 130 polyaft); -1: the N of the name
  bool fadeOut = false;  // CrossfadeLo/Hi: xfout_ rather than xfin_
};
using Target = std::variant<Special, float Region::*, uint8_t Region::*, int16_t Region::*,
                            int32_t Region::*, int64_t Region::*, EnvField, LfoField, ModField, EqField,
                            FlexLfoField, FlexEgField, VariableField>;

struct OpcodeSpec {
  std::string_view name;  // as in the reference; "N" marks the number in loccN, amp_velcurve_N
  std::array<std::string_view, 2> aliases;
  ValueKind kind;
  double min, max;  // the reference's range: a value beyond it is clamped into it, unless...
  Target target;
  std::span<const std::string_view> options = {};  // ValueKind::Option, in enum order
  int maxIndex = 127;                               // largest N for names with "N"
  // ...hardMin < hardMax: a value beyond [min, max] but inside [hardMin, hardMax] is kept
  // (with a warning): real players accept it and the engine plays it safely (volume=14).
  // Beyond the hard range it is clamped into the hard range.
  double hardMin = 0, hardMax = 0;
};

struct OpcodeMatch {
  const OpcodeSpec* spec;
  int index;    // the N of loccN / amp_velcurve_N; -1 for names without N
  int lfo = 0;  // the N of lfoN_* (1 and up); 0 for other names
  int eg = 0;   // the N of egN_*
  int var = 0;  // the NN of varNN_*
  int sub = 0;  // the X of lfoN_freq_lfoX_onccY, egN_timeX_onccY (a number inside the name)
};

std::span<const OpcodeSpec> opcodeTable();
// The controller modulation opcodes (ModOpcodes.cpp), also found by findOpcode().
std::span<const OpcodeSpec> modOpcodeTable();
// The oscillator opcodes (SynthOpcodes.cpp), also found by findOpcode().
std::span<const OpcodeSpec> synthOpcodeTable();

// The implemented opcode called `name` (canonical or alias, N given as digits; an
// lfoN_ or egN_ prefix's number goes to OpcodeMatch::lfo or ::eg).
std::optional<OpcodeMatch> findOpcode(std::string_view name);

// lfoN_* / egN_* / varNN_* names (ModOpcodes.cpp): true when `name` has such a prefix,
// with the opcode (or nullopt) in `match`.
bool findSourceOpcode(std::string_view name, std::optional<OpcodeMatch>& match);

// ARIA's hint_* opcodes (hint_ram_based...) tell ARIA's engine how to load or play; other
// players need not follow them (the reference). Read without a warning, at any header.
inline bool isPlayerHint(std::string_view name) { return name.starts_with("hint_") && name.size() > 5; }

// True when `name` is an opcode of the SFZ reference (any version), implemented or not.
bool isReferenceOpcode(std::string_view name);

// fil_type's values in FilterType order ("" for None).
std::span<const std::string_view> filterTypeNames();

// The reference's opcode names (ReferenceOpcodes.cpp).
std::span<const std::string_view> referenceOpcodeNames();

}  // namespace spindle::sfz
