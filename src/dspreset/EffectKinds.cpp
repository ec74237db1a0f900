#include "dspreset/EffectKinds.h"

#include "dspreset/MusicalTime.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

namespace spindle::dspreset {

namespace {

using C = EffectAttribute::Convert;
using P = BusParam;

constexpr EffectAttribute kFilter[] = {
    {"frequency", "FX_FILTER_FREQUENCY", nullptr, 22000.0, C::Same, P::FilterCutoff},
    {"resonance", "FX_FILTER_RESONANCE", nullptr, 0.7, C::QToDb, P::FilterResonance}};
constexpr EffectAttribute kNotch[] = {
    {"frequency", "FX_FILTER_FREQUENCY", nullptr, 10000.0, C::Same, P::FilterCutoff},
    {"q", "FX_FILTER_Q", nullptr, 0.7, C::QToDb, P::FilterResonance}};
constexpr EffectAttribute kPeak[] = {
    {"frequency", "FX_FILTER_FREQUENCY", nullptr, 10000.0, C::Same, P::EqFreq},
    {"q", "FX_FILTER_Q", nullptr, 0.7, C::QToOctaves, P::EqBw},
    {"gain", "FX_FILTER_GAIN", nullptr, 1.0, C::LinearToDb, P::EqGain}};
constexpr EffectAttribute kGain[] = {{"level", "LEVEL", "FX_GAIN", 0.0, C::Level, P::Gain}};
constexpr EffectAttribute kDelay[] = {
    {"delayTime", "FX_DELAY_TIME", nullptr, 0.7, C::Same, P::DelayTimeL, 1.0f, P::DelayTimeR, 1.0f},
    {"stereoOffset", "FX_STEREO_OFFSET", nullptr, 0.0, C::Same, P::DelayTimeL, -0.5f, P::DelayTimeR, 0.5f},
    {"feedback", "FX_FEEDBACK", nullptr, 0.2, C::Percent, P::DelayFeedback},
    {"wetLevel", "FX_WET_LEVEL", nullptr, 0.5, C::Percent, P::DelayWet}};
constexpr EffectAttribute kSyncedDelay[] = {
    {"delayTime", "FX_DELAY_TIME", nullptr, 10.0, C::MusicalTime, P::DelayBeatsL, 1.0f, P::DelayBeatsR, 1.0f},
    {"feedback", "FX_FEEDBACK", nullptr, 0.2, C::Percent, P::DelayFeedback},
    {"wetLevel", "FX_WET_LEVEL", nullptr, 0.5, C::Percent, P::DelayWet}};
constexpr EffectAttribute kReverb[] = {
    {"roomSize", "FX_REVERB_ROOM_SIZE", nullptr, 0.7, C::Percent, P::ReverbSize},
    {"damping", "FX_REVERB_DAMPING", nullptr, 0.3, C::Percent, P::ReverbDamp},
    {"wetLevel", "FX_REVERB_WET_LEVEL", "FX_WET_LEVEL", 0.0, C::Percent, P::ReverbWet}};
constexpr EffectAttribute kChorus[] = {{"mix", "FX_MIX", nullptr, 0.5, C::Same, P::Mix},
                                       {"modDepth", "FX_MOD_DEPTH", nullptr, 0.2, C::Same, P::ModDepth},
                                       {"modRate", "FX_MOD_RATE", nullptr, 0.2, C::Same, P::ModRate}};
constexpr EffectAttribute kPhaser[] = {{"mix", "FX_MIX", nullptr, 0.5, C::Same, P::Mix},
                                       {"modDepth", "FX_MOD_DEPTH", nullptr, 0.2, C::Same, P::ModDepth},
                                       {"modRate", "FX_MOD_RATE", nullptr, 0.2, C::Same, P::ModRate},
                                       {"centerFrequency", "FX_CENTER_FREQUENCY", nullptr, 400.0, C::Same, P::CentreFreq},
                                       {"feedback", "FX_FEEDBACK", nullptr, 0.7, C::Same, P::ModFeedback}};
constexpr EffectAttribute kFolder[] = {{"drive", "FX_DRIVE", nullptr, 1.0, C::Same, P::Drive},
                                       {"threshold", "FX_THRESHOLD", nullptr, 0.25, C::Same, P::Threshold}};
constexpr EffectAttribute kShaper[] = {{"drive", "FX_DRIVE", nullptr, 1.0, C::Same, P::Drive},
                                       {"driveBoost", "FX_DRIVE_BOOST", nullptr, 1.0, C::Same, P::DriveBoost},
                                       {"outputLevel", "FX_OUTPUT_LEVEL", nullptr, 0.1, C::Same, P::OutputLevel}};
constexpr EffectAttribute kConvolution[] = {{"mix", "FX_MIX", nullptr, 0.5, C::Same, P::ConvolutionMix}};
constexpr EffectAttribute kEnabled = {"enabled", "ENABLED", "FX_EN", 1.0, C::Enabled, P::Bypass};

template <size_t N>
constexpr int countOf(const EffectAttribute (&)[N]) {
  return static_cast<int>(N);
}

using T = BusEffectType;
using F = FilterType;
const EffectKind kKinds[] = {
    {"lowpass", T::Filter, F::Lpf2p, kFilter, countOf(kFilter)},
    {"lowpass_4pl", T::Filter, F::Lpf4p, kFilter, countOf(kFilter)},
    {"lowpass_1pl", T::Filter, F::Lpf1p, kFilter, 1},
    {"highpass", T::Filter, F::Hpf2p, kFilter, countOf(kFilter)},
    {"hipass", T::Filter, F::Hpf2p, kFilter, countOf(kFilter)},
    {"bandpass", T::Filter, F::Bpf2p, kFilter, countOf(kFilter)},
    {"notch", T::Filter, F::Brf2p, kNotch, countOf(kNotch)},
    {"peak", T::Eq, F::Peq, kPeak, countOf(kPeak)},
    {"gain", T::Gain, F::Lpf2p, kGain, countOf(kGain)},
    {"delay", T::Delay, F::Lpf2p, kDelay, countOf(kDelay)},
    {"delay:musical_time", T::Delay, F::Lpf2p, kSyncedDelay, countOf(kSyncedDelay)},
    {"reverb", T::Reverb, F::Lpf2p, kReverb, countOf(kReverb)},
    {"chorus", T::Chorus, F::Lpf2p, kChorus, countOf(kChorus)},
    {"phaser", T::ModPhaser, F::Lpf2p, kPhaser, countOf(kPhaser)},
    {"wave_folder", T::WaveFolder, F::Lpf2p, kFolder, countOf(kFolder)},
    {"wave_shaper", T::WaveShaper, F::Lpf2p, kShaper, countOf(kShaper)},
    {"convolution", T::Convolution, F::Lpf2p, kConvolution, countOf(kConvolution)},
};

}  // namespace

pugi::xml_attribute attributeNamed(const pugi::xml_node& node, const char* name) {
  for (const pugi::xml_attribute& a : node.attributes()) {
    const std::string_view written = a.name(), wanted = name;
    if (written.size() == wanted.size() &&
        std::equal(written.begin(), written.end(), wanted.begin(), [](char x, char y) { return std::tolower(x) == std::tolower(y); }))
      return a;
  }
  return {};
}

const EffectKind* effectKind(std::string_view type) {
  const auto* it = std::find_if(std::begin(kKinds), std::end(kKinds), [&](const EffectKind& k) { return k.type == type; });
  return it == std::end(kKinds) ? nullptr : it;
}

const EffectAttribute* boundAttribute(const EffectKind& kind, std::string_view parameter) {
  if (parameter == kEnabled.binding || parameter == kEnabled.binding2) return &kEnabled;
  for (int i = 0; i < kind.count; ++i) {
    const EffectAttribute& a = kind.attributes[i];
    if (parameter == a.binding || (a.binding2 && parameter == a.binding2)) return &a;
  }
  return nullptr;
}

float convertAttribute(const EffectAttribute& a, double value, bool linear) {
  const auto db = [](double g) { return 20.0 * std::log10(std::max(g, 1e-5)); };
  switch (a.convert) {
    case C::Same: return static_cast<float>(value);
    case C::Percent: return static_cast<float>(100.0 * value);
    case C::QToDb: return static_cast<float>(db(std::max(value, 0.001)));
    case C::LinearToDb: return static_cast<float>(db(value));
    case C::QToOctaves: return static_cast<float>(2.0 / std::log(2.0) * std::asinh(1.0 / (2.0 * std::max(value, 0.01))));
    case C::Level: return static_cast<float>(linear ? db(value) : value);
    case C::Enabled: return value != 0.0 ? 0.0f : 1.0f;
    case C::MusicalTime: return static_cast<float>(musicalTimeBeats(static_cast<int>(std::lround(value))));
  }
  return 0.0f;
}

bool linearLevel(const pugi::xml_node& node) {
  return std::string_view(node.attribute("levelUnit").as_string()) == "linear";
}

std::vector<float> applyAttributes(const EffectKind& kind, const pugi::xml_node& node, BusEffect& effect) {
  std::vector<float> converted;
  effect.type = kind.bus;
  effect.filterType = kind.filter;
  effect.filterWritten = kind.bus == BusEffectType::Filter;
  const bool linear = linearLevel(node);
  for (int i = 0; i < kind.count; ++i) {
    const EffectAttribute& a = kind.attributes[i];
    effect.values[static_cast<size_t>(a.param)] = 0.0f;
    if (a.param2) effect.values[static_cast<size_t>(*a.param2)] = 0.0f;
  }
  for (int i = 0; i < kind.count; ++i) {
    const EffectAttribute& a = kind.attributes[i];
    const float v = convertAttribute(a, attributeNamed(node, a.name).as_double(a.fallback), linear);
    converted.push_back(v);
    effect.values[static_cast<size_t>(a.param)] += v * a.scale;
    if (a.param2) effect.values[static_cast<size_t>(*a.param2)] += v * a.scale2;
  }
  if (kind.bus == BusEffectType::Reverb) {
    effect.values[static_cast<size_t>(BusParam::ReverbInput)] = 100.0f;
    effect.values[static_cast<size_t>(BusParam::ReverbDry)] = 100.0f;
  }
  return converted;
}

}  // namespace spindle::dspreset
