#include "sfz/OpcodeTable.h"

#include "core/Controllers.h"
#include "core/Limits.h"

namespace spindle::sfz {

namespace {

using R = Region;
using E = EnvelopeParams;
using L = LfoParams;
using A = std::array<std::string_view, 2>;

constexpr double kInt32Min = -2147483648.0, kInt32Max = 2147483647.0;
// cutoff's reference maximum is "SampleRate / 2"; this is Nyquist at 192 kHz, and the
// engine clamps again to its own rate.
constexpr double kCutoffMax = 96000.0;

constexpr std::string_view kLoopModes[] = {"no_loop", "one_shot", "loop_continuous", "loop_sustain"};
constexpr std::string_view kTriggers[] = {"attack", "release", "first", "legato", "release_key"};  // index = Trigger
constexpr std::string_view kOffModes[] = {"fast", "normal", "time"};
constexpr std::string_view kSwVel[] = {"current", "previous"};
constexpr std::string_view kOnOff[] = {"off", "on"};
// Index = FilterType; "" is None.
constexpr std::string_view kFilterTypes[] = {
    "", "lpf_1p", "lpf_2p", "hpf_1p", "hpf_2p", "bpf_2p", "brf_2p", "lpf_4p", "lpf_6p", "hpf_4p", "hpf_6p", "bpf_1p",
    "brf_1p", "bpf_4p", "bpf_6p", "pkf_2p", "peq", "lsh", "hsh", "apf_1p", "lpf_2p_sv", "hpf_2p_sv", "bpf_2p_sv",
    "brf_2p_sv"};
static_assert(std::size(kFilterTypes) == static_cast<size_t>(FilterType::Brf2pSv) + 1);
static_assert(std::size(kEqTypes) == static_cast<size_t>(EqType::HighShelf) + 1);
constexpr std::string_view kPhases[] = {"normal", "invert"};
constexpr std::string_view kDirections[] = {"forward", "reverse"};
constexpr std::string_view kOffsetModes[] = {"samples", "percent"};
constexpr std::string_view kPanLaws[] = {"mma", "balance"};

constexpr OpcodeSpec spec(std::string_view name, A aliases, ValueKind kind, double lo, double hi, Target target) {
  return OpcodeSpec{name, aliases, kind, lo, hi, target};
}
constexpr OpcodeSpec option(std::string_view name, A aliases, Special target, std::span<const std::string_view> options) {
  return OpcodeSpec{name, aliases, ValueKind::Option, 0, 0, target, options};
}
constexpr OpcodeSpec fl(std::string_view name, A aliases, double lo, double hi, Target target) {
  return spec(name, aliases, ValueKind::Float, lo, hi, target);
}
constexpr OpcodeSpec in(std::string_view name, A aliases, double lo, double hi, Target target) {
  return spec(name, aliases, ValueKind::Integer, lo, hi, target);
}
constexpr OpcodeSpec note(std::string_view name, A aliases, Target target) {
  return spec(name, aliases, ValueKind::Note, 0, 127, target);
}
constexpr OpcodeSpec eg(std::string_view name, A aliases, EnvelopeParams R::*env, float E::*param,
                        double lo = 0, double hi = 100) {
  return fl(name, aliases, lo, hi, EnvField{env, param});
}
// An opcode numbered by controller (loccN, set_hdccN...): N up to the last of the 512 slots.
constexpr OpcodeSpec ccN(std::string_view name, A aliases, ValueKind kind, double lo, double hi, Special target) {
  return OpcodeSpec{name, aliases, kind, lo, hi, target, {}, controllers::kCount - 1};
}
// Keeps values in [hardMin, hardMax] that lie beyond the reference's range (see OpcodeSpec).
constexpr OpcodeSpec beyond(OpcodeSpec s, double hardMin, double hardMax) {
  s.hardMin = hardMin;
  s.hardMax = hardMax;
  return s;
}
// How far the engine plays levels and tuning beyond the reference: +48 dB of gain
// (amplitude 25119 % would be the same; 1600 % = +24 dB is plenty), eight octaves.
constexpr double kVolumeMax = 48.0, kAmplitudeMax = 1600.0, kTuneMax = 9600.0;
// eqN_*: N is the band, 1..3.
constexpr OpcodeSpec band(OpcodeSpec s) {
  s.maxIndex = 3;
  return s;
}
constexpr OpcodeSpec eq(std::string_view name, double lo, double hi, float EqBand::*param) {
  return band(fl(name, {}, lo, hi, EqField{param}));
}
constexpr OpcodeSpec lfo(std::string_view name, LfoParams R::*which, float L::*param, double lo, double hi) {
  return fl(name, {}, lo, hi, LfoField{which, param});
}

const OpcodeSpec kTable[] = {
    // Sample playback.
    spec("sample", {}, ValueKind::Text, 0, 0, Special::Sample),
    in("offset", {}, 0, kMaxFrames, &R::offset),
    in("offset_random", {}, 0, kMaxFrames, &R::offsetRandom),
    option("offset_mode", {}, Special::OffsetMode, kOffsetModes),
    in("end", {}, 0, kMaxFrames, &R::end),
    in("count", {}, 0, kMaxFrames, &R::count),
    in("loop_count", {}, 0, kMaxFrames, &R::loopCount),
    in("sample_quality", {}, 1, 10, &R::sampleQuality),
    fl("sample_fadeout", {}, 0, 100, &R::sampleFadeout),  // the reference gives no range: 100 s
    fl("loop_tune", {"looptune"}, -9600, 9600, &R::loopTune),
    option("loop_mode", {"loopmode"}, Special::LoopMode, kLoopModes),
    in("loop_start", {"loopstart"}, 0, kMaxFrames, &R::loopStart),
    in("loop_end", {"loopend"}, 0, kMaxFrames, &R::loopEnd),
    option("direction", {}, Special::Direction, kDirections),
    ccN("reverse_loccN", {}, ValueKind::Integer, 0, 127, Special::ReverseLoCc),
    ccN("reverse_hiccN", {}, ValueKind::Integer, 0, 127, Special::ReverseHiCc),
    fl("loop_crossfade", {}, 0, 100, &R::loopCrossfade),  // the reference gives no range: 100 s
    fl("delay", {}, 0, 100, &R::delay),
    fl("delay_random", {}, 0, 100, &R::delayRandom),
    fl("delay_beats", {}, 0, 1000, &R::delayBeats),  // the reference gives no range: 1000 beats
    fl("delay_beats_random", {}, 0, 1000, &R::delayBeatsRandom),
    fl("sync_beats", {}, 0, 32, &R::syncBeats),
    fl("sync_offset", {}, 0, 32, &R::syncOffset),
    in("delay_samples", {}, 0, kMaxFrames, &R::delaySamples),
    fl("stop_beats", {}, 0, 1000, &R::stopBeats),
    // Input controls.
    spec("key", {}, ValueKind::KeyRange, 0, 127, Special::Key),
    spec("lokey", {}, ValueKind::KeyRange, 0, 127, Special::LoKey),
    spec("hikey", {}, ValueKind::KeyRange, 0, 127, Special::HiKey),
    in("lovel", {}, 1, 127, &R::lovel),
    in("hivel", {}, 1, 127, &R::hivel),
    in("lochan", {}, 1, 16, &R::lochan),
    in("hichan", {}, 1, 16, &R::hichan),
    ccN("loccN", {}, ValueKind::Integer, 0, 127, Special::LoCc),
    ccN("hiccN", {}, ValueKind::Integer, 0, 127, Special::HiCc),
    ccN("lohdccN", {}, ValueKind::Float, 0, 1, Special::LoHdcc),
    ccN("hihdccN", {}, ValueKind::Float, 0, 1, Special::HiHdcc),
    ccN("on_loccN", {"start_loccN"}, ValueKind::Integer, 0, 127, Special::OnLoCc),
    ccN("on_hiccN", {"start_hiccN"}, ValueKind::Integer, 0, 127, Special::OnHiCc),
    ccN("on_lohdccN", {"start_lohdccN"}, ValueKind::Float, 0, 1, Special::OnLoHdcc),
    ccN("on_hihdccN", {"start_hihdccN"}, ValueKind::Float, 0, 1, Special::OnHiHdcc),
    ccN("stop_loccN", {}, ValueKind::Integer, 0, 127, Special::StopLoCc),
    ccN("stop_hiccN", {}, ValueKind::Integer, 0, 127, Special::StopHiCc),
    ccN("stop_lohdccN", {}, ValueKind::Float, 0, 1, Special::StopLoHdcc),
    ccN("stop_hihdccN", {}, ValueKind::Float, 0, 1, Special::StopHiHdcc),
    ccN("set_ccN", {}, ValueKind::Integer, 0, 127, Special::SetCc),
    ccN("set_hdccN", {}, ValueKind::Float, 0, 1, Special::SetHdcc),
    ccN("set_realccN", {}, ValueKind::Float, 0, 1, Special::SetRealcc),
    in("lochanaft", {}, 0, 127, &R::lochanaft),
    in("hichanaft", {}, 0, 127, &R::hichanaft),
    in("lopolyaft", {}, 0, 127, &R::lopolyaft),
    in("hipolyaft", {}, 0, 127, &R::hipolyaft),
    fl("lobpm", {}, 0, 500, &R::lobpm),
    fl("hibpm", {}, 0, 500, &R::hibpm),
    in("loprog", {}, 0, 127, &R::loprog),
    in("hiprog", {}, 0, 127, &R::hiprog),
    fl("lotimer", {}, 0, 1e30, &R::lotimer),
    fl("hitimer", {}, 0, 1e30, &R::hitimer),
    option("sw_vel", {}, Special::SwVel, kSwVel),
    in("lobend", {}, -8192, 8192, &R::lobend),
    in("hibend", {}, -8192, 8192, &R::hibend),
    fl("lorand", {}, 0, 1, &R::lorand),
    fl("hirand", {}, 0, 1, &R::hirand),
    in("seq_length", {}, 1, 100, &R::seqLength),
    in("seq_position", {}, 1, 100, &R::seqPosition),
    option("trigger", {}, Special::Trigger, kTriggers),
    note("sw_lokey", {}, &R::swLokey),
    note("sw_hikey", {}, &R::swHikey),
    note("sw_last", {}, &R::swLast),
    note("sw_down", {}, &R::swDown),
    note("sw_up", {}, &R::swUp),
    note("sw_previous", {}, &R::swPrevious),
    note("sw_default", {}, Special::SwDefault),
    note("sw_lolast", {}, &R::swLolast),
    note("sw_hilast", {}, &R::swHilast),
    // Voice groups and polyphony (the reference gives polyphony no range).
    in("group", {"polyphony_group"}, kInt32Min, kInt32Max, Special::Group),
    in("off_by", {"offby"}, kInt32Min, kInt32Max, &R::offBy),
    option("off_mode", {}, Special::OffMode, kOffModes),
    fl("off_time", {}, 0, 100, &R::offTime),
    in("off_curve", {}, -2, 10, &R::offCurve),
    fl("off_shape", {}, -100, 100, &R::offShape),  // the reference gives no range
    in("polyphony", {}, 1, limits::kMaxVoices, Special::Polyphony),
    in("note_polyphony", {}, 1, limits::kMaxVoices, &R::notePolyphony),
    option("note_selfmask", {}, Special::NoteSelfmask, kOnOff),
    fl("rt_decay", {}, 0, 200, &R::rtDecay),
    OpcodeSpec{"rt_decayN", {}, ValueKind::Float, 0, 200, Special::RtDecayN, {}, 4},
    OpcodeSpec{"rt_decayN_time", {}, ValueKind::Float, 0, 100, Special::RtDecayNTime, {}, 4},  // seconds
    option("rt_dead", {}, Special::RtDead, kOnOff),
    in("sustain_cc", {}, 0, 127, Special::SustainCc),
    fl("sustain_lo", {}, 0, 127, Special::SustainLo),
    option("sustain_sw", {}, Special::SustainSw, kOnOff),
    in("sostenuto_cc", {}, 0, 127, Special::SostenutoCc),
    fl("sostenuto_lo", {}, 0, 127, Special::SostenutoLo),
    option("sostenuto_sw", {}, Special::SostenutoSw, kOnOff),
    in("output", {}, 0, 1024, &R::output),
    // Amplifier.
    beyond(fl("volume", {}, -144, 6, &R::volume), -144, kVolumeMax),
    beyond(fl("amplitude", {}, 0, 100, &R::amplitude), 0, kAmplitudeMax),
    beyond(fl("global_volume", {}, -144, 6, Special::GlobalVolume), -144, kVolumeMax),
    beyond(fl("master_volume", {}, -144, 6, Special::MasterVolume), -144, kVolumeMax),
    beyond(fl("group_volume", {}, -144, 6, Special::GroupVolume), -144, kVolumeMax),
    beyond(fl("global_amplitude", {}, 0, 100, Special::GlobalAmplitude), 0, kAmplitudeMax),
    beyond(fl("master_amplitude", {}, 0, 100, Special::MasterAmplitude), 0, kAmplitudeMax),
    beyond(fl("group_amplitude", {}, 0, 100, Special::GroupAmplitude), 0, kAmplitudeMax),
    fl("pan", {}, -100, 100, &R::pan),
    note("pan_keycenter", {}, &R::panKeycenter),
    fl("pan_keytrack", {}, -100, 100, &R::panKeytrack),
    fl("pan_veltrack", {}, -100, 100, &R::panVeltrack),
    option("phase", {}, Special::Phase, kPhases),
    fl("width", {}, -100, 100, &R::width),
    fl("effect1", {}, 0, 100, &R::effect1),
    fl("effect2", {}, 0, 100, &R::effect2),
    fl("effect3", {}, 0, 100, &R::effect3),
    fl("effect4", {}, 0, 100, &R::effect4),
    fl("position", {}, -100, 100, &R::position),
    fl("pan_random", {}, -100, 100, &R::panRandom),
    fl("position_random", {}, -100, 100, &R::positionRandom),
    // position_keycenter/_keytrack: no type or range in the reference; pan_keycenter/_keytrack's.
    note("position_keycenter", {}, &R::positionKeycenter),
    fl("position_keytrack", {}, -100, 100, &R::positionKeytrack),
    in("position_veltrack", {}, -200, 200, &R::positionVeltrack),
    fl("amp_veltrack", {}, -100, 100, &R::ampVeltrack),
    fl("amp_veltrack_random", {}, 0, 200, &R::ampVeltrackRandom),  // no range in the reference
    OpcodeSpec{"pan_law", {}, ValueKind::Option, 0, 0, &R::panLaw, kPanLaws},
    fl("amp_velcurve_N", {}, 0, 1, Special::AmpVelcurve),
    fl("amp_keytrack", {}, -96, 12, &R::ampKeytrack),
    note("amp_keycenter", {}, &R::ampKeycenter),
    fl("amp_random", {"gain_random"}, 0, 24, &R::ampRandom),
    // Crossfades.
    note("xfin_lokey", {}, &R::xfinLokey),
    note("xfin_hikey", {}, &R::xfinHikey),
    note("xfout_lokey", {}, &R::xfoutLokey),
    note("xfout_hikey", {}, &R::xfoutHikey),
    in("xfin_lovel", {}, 0, 127, &R::xfinLovel),
    in("xfin_hivel", {}, 0, 127, &R::xfinHivel),
    in("xfout_lovel", {}, 0, 127, &R::xfoutLovel),
    in("xfout_hivel", {}, 0, 127, &R::xfoutHivel),
    option("xf_keycurve", {}, Special::XfKeycurve, kCrossfadeCurves),
    option("xf_velcurve", {}, Special::XfVelcurve, kCrossfadeCurves),
    // Pitch.
    note("pitch_keycenter", {}, Special::PitchKeycenter),
    in("pitch_keytrack", {"tune_keytrack"}, -1200, 1200, &R::pitchKeytrack),
    in("pitch_veltrack", {"tune_veltrack"}, -9600, 9600, &R::pitchVeltrack),
    in("pitch_random", {"tune_random"}, 0, 9600, &R::pitchRandom),
    beyond(in("tune", {"pitch"}, -100, 100, &R::tune), -kTuneMax, kTuneMax),
    in("global_tune", {}, -9600, 9600, Special::GlobalTune),
    in("master_tune", {}, -9600, 9600, Special::MasterTune),
    in("group_tune", {}, -9600, 9600, Special::GroupTune),
    in("transpose", {}, -127, 127, &R::transpose),
    in("bend_up", {"bendup"}, -9600, 9600, &R::bendUp),
    in("bend_down", {"benddown"}, -9600, 9600, &R::bendDown),
    in("bend_step", {"bendstep"}, 1, 1200, &R::bendStep),
    in("bend_stepup", {}, 1, 1200, &R::bendStepUp),
    in("bend_stepdown", {}, 1, 1200, &R::bendStepDown),
    fl("bend_smooth", {}, 0, 10000, &R::bendSmooth),
    // Filter.
    option("fil_type", {"filtype"}, Special::FilType, kFilterTypes),
    fl("cutoff", {}, 0, kCutoffMax, &R::cutoff),
    fl("resonance", {}, 0, 40, &R::resonance),
    fl("resonance_random", {}, 0, 40, &R::resonanceRandom),
    fl("fil_gain", {}, -96, 24, &R::filGain),  // the reference gives no range: eqN_gain's
    beyond(in("fil_keytrack", {}, 0, 1200, &R::filKeytrack), -1200, 1200),
    note("fil_keycenter", {}, &R::filKeycenter),
    in("fil_veltrack", {}, -9600, 9600, &R::filVeltrack),
    in("fil_random", {"cutoff_random"}, 0, 9600, &R::filRandom),
    // Per-voice EQ (N = band 1..3).
    eq("eqN_freq", 0, 30000, &EqBand::freq),
    eq("eqN_bw", 0.001, 4, &EqBand::bw),
    eq("eqN_gain", -96, 24, &EqBand::gain),
    band(option("eqN_type", {}, Special::EqType, kEqTypes)),
    // eqN_vel2*: the last number of the name is the 2 of vel2, so each band is spelled out.
    fl("eq1_vel2freq", {}, -30000, 30000, EqField{&EqBand::vel2freq, 1}),
    fl("eq2_vel2freq", {}, -30000, 30000, EqField{&EqBand::vel2freq, 2}),
    fl("eq3_vel2freq", {}, -30000, 30000, EqField{&EqBand::vel2freq, 3}),
    fl("eq1_vel2gain", {}, -96, 24, EqField{&EqBand::vel2gain, 1}),
    fl("eq2_vel2gain", {}, -96, 24, EqField{&EqBand::vel2gain, 2}),
    fl("eq3_vel2gain", {}, -96, 24, EqField{&EqBand::vel2gain, 3}),
    // Envelope generators.
    eg("ampeg_delay", {"amp_delay"}, &R::ampeg, &E::delay),
    eg("ampeg_start", {}, &R::ampeg, &E::start),
    eg("ampeg_attack", {"amp_attack"}, &R::ampeg, &E::attack),
    eg("ampeg_hold", {"amp_hold"}, &R::ampeg, &E::hold),
    eg("ampeg_decay", {"amp_decay"}, &R::ampeg, &E::decay),
    eg("ampeg_sustain", {"amp_sustain"}, &R::ampeg, &E::sustain),
    eg("ampeg_release", {"amp_release"}, &R::ampeg, &E::release),
    eg("ampeg_vel2delay", {"amp_vel2delay"}, &R::ampeg, &E::vel2delay, -100),
    eg("ampeg_vel2attack", {"amp_vel2attack"}, &R::ampeg, &E::vel2attack, -100),
    eg("ampeg_vel2hold", {"amp_vel2hold"}, &R::ampeg, &E::vel2hold, -100),
    eg("ampeg_vel2decay", {"amp_vel2decay"}, &R::ampeg, &E::vel2decay, -100),
    eg("ampeg_vel2sustain", {"amp_vel2sustain"}, &R::ampeg, &E::vel2sustain, -100),
    eg("ampeg_vel2release", {"amp_vel2release"}, &R::ampeg, &E::vel2release, -100),
    eg("fileg_delay", {"fil_delay"}, &R::fileg, &E::delay),
    eg("fileg_start", {}, &R::fileg, &E::start),
    eg("fileg_attack", {"fil_attack"}, &R::fileg, &E::attack),
    eg("fileg_hold", {"fil_hold"}, &R::fileg, &E::hold),
    eg("fileg_decay", {"fil_decay"}, &R::fileg, &E::decay),
    eg("fileg_sustain", {"fil_sustain"}, &R::fileg, &E::sustain),
    eg("fileg_release", {"fil_release"}, &R::fileg, &E::release),
    eg("fileg_depth", {"fil_depth"}, &R::fileg, &E::depth, -12000, 12000),
    eg("fileg_vel2delay", {"fil_vel2delay"}, &R::fileg, &E::vel2delay, -100),
    eg("fileg_vel2attack", {"fil_vel2attack"}, &R::fileg, &E::vel2attack, -100),
    eg("fileg_vel2hold", {"fil_vel2hold"}, &R::fileg, &E::vel2hold, -100),
    eg("fileg_vel2decay", {"fil_vel2decay"}, &R::fileg, &E::vel2decay, -100),
    eg("fileg_vel2sustain", {"fil_vel2sustain"}, &R::fileg, &E::vel2sustain, -100),
    eg("fileg_vel2release", {"fil_vel2release"}, &R::fileg, &E::vel2release, -100),
    eg("fileg_vel2depth", {"fil_vel2depth"}, &R::fileg, &E::vel2depth, -12000, 12000),
    eg("pitcheg_delay", {"pitch_delay"}, &R::pitcheg, &E::delay),
    eg("pitcheg_start", {}, &R::pitcheg, &E::start),
    eg("pitcheg_attack", {"pitch_attack"}, &R::pitcheg, &E::attack),
    eg("pitcheg_hold", {"pitch_hold"}, &R::pitcheg, &E::hold),
    eg("pitcheg_decay", {"pitch_decay"}, &R::pitcheg, &E::decay),
    eg("pitcheg_sustain", {"pitch_sustain"}, &R::pitcheg, &E::sustain),
    eg("pitcheg_release", {"pitch_release"}, &R::pitcheg, &E::release),
    eg("pitcheg_depth", {"pitch_depth"}, &R::pitcheg, &E::depth, -12000, 12000),
    eg("pitcheg_vel2delay", {"pitch_vel2delay"}, &R::pitcheg, &E::vel2delay, -100),
    eg("pitcheg_vel2attack", {"pitch_vel2attack"}, &R::pitcheg, &E::vel2attack, -100),
    eg("pitcheg_vel2hold", {"pitch_vel2hold"}, &R::pitcheg, &E::vel2hold, -100),
    eg("pitcheg_vel2decay", {"pitch_vel2decay"}, &R::pitcheg, &E::vel2decay, -100),
    eg("pitcheg_vel2sustain", {"pitch_vel2sustain"}, &R::pitcheg, &E::vel2sustain, -100),
    eg("pitcheg_vel2release", {"pitch_vel2release"}, &R::pitcheg, &E::vel2release, -100),
    eg("pitcheg_vel2depth", {"pitch_vel2depth"}, &R::pitcheg, &E::vel2depth, -12000, 12000),
    // LFOs.
    lfo("amplfo_delay", &R::amplfo, &L::delay, 0, 100),
    lfo("amplfo_fade", &R::amplfo, &L::fade, 0, 100),
    lfo("amplfo_freq", &R::amplfo, &L::freq, 0, 20),
    lfo("amplfo_depth", &R::amplfo, &L::depth, -10, 10),
    lfo("fillfo_delay", &R::fillfo, &L::delay, 0, 100),
    lfo("fillfo_fade", &R::fillfo, &L::fade, 0, 100),
    lfo("fillfo_freq", &R::fillfo, &L::freq, 0, 20),
    lfo("fillfo_depth", &R::fillfo, &L::depth, -1200, 1200),
    lfo("pitchlfo_delay", &R::pitchlfo, &L::delay, 0, 100),
    lfo("pitchlfo_fade", &R::pitchlfo, &L::fade, 0, 100),
    lfo("pitchlfo_freq", &R::pitchlfo, &L::freq, 0, 20),
    lfo("pitchlfo_depth", &R::pitchlfo, &L::depth, -1200, 1200),
};

}  // namespace

std::span<const OpcodeSpec> opcodeTable() { return kTable; }
std::span<const std::string_view> filterTypeNames() { return kFilterTypes; }

}  // namespace spindle::sfz
