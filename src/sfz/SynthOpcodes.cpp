// The SFZ v2 oscillator opcodes (Wavetable Oscillator in the reference): settings of
// the oscillator playback of one-cycle tables (engine/dsp/OscillatorBank.h).
#include "sfz/OpcodeTable.h"

namespace spindle::sfz {

namespace {

using R = Region;

constexpr std::string_view kOscillatorModes[] = {"off", "on", "auto"};  // index = Region::oscillator

constexpr OpcodeSpec kSynthTable[] = {
    OpcodeSpec{"oscillator", {}, ValueKind::Option, 0, 0, &R::oscillator, kOscillatorModes},
    // The reference's range is -1..360 with no unit; sfizz reads cycles and wraps them
    // into 0..1 (1 = 0), negative for a random phase: so does Spindle.
    OpcodeSpec{"oscillator_phase", {}, ValueKind::Float, -1, 360, &R::oscillatorPhase},
    OpcodeSpec{"oscillator_mode", {}, ValueKind::Integer, 0, 2, &R::oscillatorMode},
    OpcodeSpec{"oscillator_multi", {}, ValueKind::Integer, 1, 9, &R::oscillatorMulti},
    // No range in the reference: sfizz's (cents, and percent that may pass 100 for FM).
    OpcodeSpec{"oscillator_detune", {}, ValueKind::Float, -12000, 12000, &R::oscillatorDetune},
    OpcodeSpec{"oscillator_mod_depth", {}, ValueKind::Float, 0, 10000, &R::oscillatorModDepth},
    OpcodeSpec{"oscillator_quality", {}, ValueKind::Integer, 0, 3, &R::oscillatorQuality},
};

}  // namespace

std::span<const OpcodeSpec> synthOpcodeTable() { return kSynthTable; }

}  // namespace spindle::sfz
