#include "sfz/EffectReader.h"

#include <algorithm>
#include <charconv>
#include <string_view>

#include "sfz/EffectControls.h"
#include "sfz/OpcodeTable.h"
#include "sfz/Values.h"

namespace spindle::sfz {

namespace {

struct ParamName {
  std::string_view name;
  BusParam param;
};
constexpr ParamName kParams[] = {
    {"gain", BusParam::Gain},
    {"eq_freq", BusParam::EqFreq},
    {"eq_bw", BusParam::EqBw},
    {"eq_gain", BusParam::EqGain},
    {"filter_cutoff", BusParam::FilterCutoff},
    {"filter_resonance", BusParam::FilterResonance},
    {"rectify", BusParam::Rectify},
    {"width", BusParam::Width},
    {"apan_freq", BusParam::ApanFreq},
    {"apan_phase", BusParam::ApanPhase},
    {"apan_depth", BusParam::ApanDepth},
    {"apan_dry", BusParam::ApanDry},
    {"apan_wet", BusParam::ApanWet},
    {"delay_timel", BusParam::DelayTimeL}, {"delay_timer", BusParam::DelayTimeR},
    {"delay_timec", BusParam::DelayTimeC}, {"delay_levell", BusParam::DelayLevelL},
    {"delay_levelr", BusParam::DelayLevelR}, {"delay_levelc", BusParam::DelayLevelC},
    {"delay_panl", BusParam::DelayPanL}, {"delay_panr", BusParam::DelayPanR},
    {"delay_panc", BusParam::DelayPanC}, {"delay_feedback", BusParam::DelayFeedback},
    {"delay_input", BusParam::DelayInput}, {"delay_dry", BusParam::DelayDry},
    {"delay_wet", BusParam::DelayWet}, {"delay_cutoff", BusParam::DelayCutoff},
    {"delay_resonance", BusParam::DelayResonance}, {"delay_damphi", BusParam::DelayDampHi},
    {"delay_damplo", BusParam::DelayDampLo}, {"delay_lfofreq", BusParam::DelayLfoFreq},
    {"delay_moddepth", BusParam::DelayModDepth},
    {"phaser_freq", BusParam::PhaserFreq}, {"phaser_depth", BusParam::PhaserDepth},
    {"phaser_feedback", BusParam::PhaserFeedback}, {"phaser_phase", BusParam::PhaserPhase},
    {"phaser_wet", BusParam::PhaserWet}, {"phaser_stages", BusParam::PhaserStages},
    {"reverb_size", BusParam::ReverbSize}, {"reverb_damp", BusParam::ReverbDamp},
    {"reverb_tone", BusParam::ReverbTone}, {"reverb_predelay", BusParam::ReverbPredelay},
    {"reverb_input", BusParam::ReverbInput}, {"reverb_dry", BusParam::ReverbDry},
    {"reverb_wet", BusParam::ReverbWet},
    {"bitred", BusParam::Bitred},
    {"decim", BusParam::Decim},
    {"disto_tone", BusParam::DistoTone},
    {"disto_depth", BusParam::DistoDepth},
    {"disto_stages", BusParam::DistoStages},
    {"disto_dry", BusParam::DistoDry},
    {"disto_wet", BusParam::DistoWet},
    {"comp_attack", BusParam::CompAttack},
    {"comp_release", BusParam::CompRelease},
    {"comp_ratio", BusParam::CompRatio},
    {"comp_threshold", BusParam::CompThreshold},
    {"comp_gain", BusParam::CompGain},
    {"gate_attack", BusParam::GateAttack},
    {"gate_release", BusParam::GateRelease},
    {"gate_threshold", BusParam::GateThreshold},
};

struct TypeName {
  std::string_view name;
  BusEffectType type;
};
constexpr TypeName kTypes[] = {{"gain", BusEffectType::Gain},       {"eq", BusEffectType::Eq},
                               {"filter", BusEffectType::Filter},   {"rectify", BusEffectType::Rectify},
                               {"width", BusEffectType::Width},     {"apan", BusEffectType::Apan},
                               {"delay", BusEffectType::Delay},     {"phaser", BusEffectType::Phaser},
                               {"reverb", BusEffectType::Reverb},   {"fverb", BusEffectType::Reverb},
                               {"lofi", BusEffectType::Lofi},       {"disto", BusEffectType::Disto},
                               {"comp", BusEffectType::Comp},       {"gate", BusEffectType::Gate},
                               {"limiter", BusEffectType::Limiter}};

// The N of `name` = prefix + N + suffix, or -1.
int numberBetween(std::string_view name, std::string_view prefix, std::string_view suffix) {
  if (!name.starts_with(prefix) || !name.ends_with(suffix) || name.size() <= prefix.size() + suffix.size()) return -1;
  const std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  int n = -1;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  return ec == std::errc() && end == digits.data() + digits.size() ? n : -1;
}

}  // namespace

void EffectReader::enter() {
  close();
  open_ = true;
  typed_ = skipped_ = false;
  effect_ = BusEffect{};
}

void EffectReader::close() {
  if (!open_) return;
  open_ = false;
  if (typed_ && !skipped_) inst_.buses.effects.push_back(effect_);
}

bool EffectReader::take(const Token& token) {
  const std::string_view name = token.name;
  if (name == "type" || name == "bus") {
    name == "type" ? takeType(token) : takeBus(token);
    return true;
  }
  if (name == "filter_type" || name == "delay_filter") return takeFilterType(token);
  if (name == "reverb_type") {
    const auto* it = std::find(std::begin(kReverbTypes), std::end(kReverbTypes), token.value);
    if (it == std::end(kReverbTypes)) {
      reporter_.warning(*token.file, token.line, "reverb_type '" + token.value + "' is not a reverb type (ignored)");
      return true;
    }
    effect_.reverbType = static_cast<uint8_t>(it - std::begin(kReverbTypes));
    return true;
  }
  if (name == "comp_stlink" || name == "gate_stlink") return takeSwitch(token);
  if (name == "eq_type") {
    const auto* it = std::find(std::begin(kEqTypes), std::end(kEqTypes), token.value);
    if (it == std::end(kEqTypes)) {
      reporter_.warning(*token.file, token.line, "eq_type '" + token.value + "' is not an EQ type (ignored)");
      return true;
    }
    effect_.eqType = static_cast<EqType>(it - std::begin(kEqTypes));
    return true;
  }
  const std::optional<double> value = parseNumber(token.value);
  if ((name == "apan_waveform" || name == "phaser_waveform") && value) {
    effect_.wave = static_cast<uint8_t>(std::clamp(*value, 0.0, 12.0));
    return true;
  }
  if (!value) {
    const bool known = takeRouting(token, 0.0) || takeParameter(token, 0.0);
    if (known) reporter_.warning(*token.file, token.line, "opcode '" + token.name + "' needs a number (ignored)");
    return known;
  }
  return takeRouting(token, *value) || takeParameter(token, *value);
}

// directtomain, fxNtomain, fxNtomix: percent, clamped to the reference's 0..100.
bool EffectReader::takeRouting(const Token& token, double value) {
  const auto level = static_cast<float>(std::clamp(value, 0.0, 100.0) * 0.01);
  const int main = numberBetween(token.name, "fx", "tomain"), mix = numberBetween(token.name, "fx", "tomix");
  if (token.name == "directtomain") {
    toMain_[0] = level;
  } else if (main >= 1 && main <= kFxBuses) {
    toMain_[static_cast<size_t>(main)] = level;
  } else if (mix >= 1 && mix <= kFxBuses) {
    toMix_[static_cast<size_t>(mix)] = level;
  } else {
    return false;
  }
  for (size_t b = 0; b < kBuses; ++b) inst_.buses.toOutput[b] = toMain_[b] + toMix_[b];
  return true;
}

// A parameter (its value) or one of its controls (name_onccN, name_curveccN,
// name_smoothccN, name_stepccN: EffectControls.h). gate_onccN (the gate's manual
// control) and bypass_onccN (any effect's bypass) are controls with no value of their own.
bool EffectReader::takeParameter(const Token& token, double value) {
  for (const ParamName& p : {ParamName{"gate", BusParam::GateManual}, ParamName{"bypass", BusParam::Bypass}})
    if (takeBusControl(effect_, p.param, p.name, token, value, reporter_)) return true;
  for (const ParamName& p : kParams) {
    if (token.name == p.name) {
      effect_.values[static_cast<size_t>(p.param)] = static_cast<float>(value);
      return true;
    }
    if (takeBusControl(effect_, p.param, p.name, token, value, reporter_)) return true;
  }
  return false;
}

void EffectReader::takeType(const Token& token) {
  const auto* it = std::find_if(std::begin(kTypes), std::end(kTypes), [&](const TypeName& t) { return t.name == token.value; });
  if (it != std::end(kTypes)) {
    effect_.type = it->type;
    typed_ = true;
    return;
  }
  skipped_ = true;
  if (reporter_.firstTime("effect type " + token.value))
    reporter_.warning(*token.file, token.line, "effect type '" + token.value + "' is not played by Spindle (its <effect> is skipped)");
}

void EffectReader::takeBus(const Token& token) {
  const int fx = numberBetween(token.value, "fx", "");
  if (token.value == "main") {
    effect_.bus = 0;
  } else if (fx >= 1 && fx <= kFxBuses) {
    effect_.bus = static_cast<uint8_t>(fx);
  } else {
    skipped_ = true;
    if (reporter_.firstTime("effect bus " + token.value))
      reporter_.warning(*token.file, token.line, "bus '" + token.value + "' is not played by Spindle (its <effect> is skipped)");
  }
}

// comp_stlink, gate_stlink: on or off.
bool EffectReader::takeSwitch(const Token& token) {
  const BusParam param = token.name == "comp_stlink" ? BusParam::CompLink : BusParam::GateLink;
  if (token.value != "on" && token.value != "off") {
    reporter_.warning(*token.file, token.line, token.name + " '" + token.value + "' is neither on nor off (ignored)");
    return true;
  }
  effect_.values[static_cast<size_t>(param)] = token.value == "on" ? 1.0f : 0.0f;
  return true;
}

// filter_type and delay_filter take fil_type's names.
bool EffectReader::takeFilterType(const Token& token) {
  const std::optional<OpcodeMatch> filType = findOpcode("fil_type");
  if (!filType) return false;
  const auto options = filType->spec->options;
  const auto it = std::find(options.begin(), options.end(), token.value);
  if (it == options.end() || it == options.begin()) {
    reporter_.warning(*token.file, token.line, token.name + " '" + token.value + "' is not a filter type (ignored)");
    return true;
  }
  effect_.filterType = static_cast<FilterType>(it - options.begin());
  effect_.filterWritten = true;
  return true;
}

}  // namespace spindle::sfz
