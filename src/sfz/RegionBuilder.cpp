#include "sfz/RegionBuilder.h"

#include <algorithm>

#include "core/Limits.h"

namespace spindle::sfz {

namespace {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

template <class T>
T as(double v) {
  return static_cast<T>(v);
}

uint8_t asNote(double v) { return static_cast<uint8_t>(std::clamp(v, 0.0, 127.0)); }

}  // namespace

void RegionBuilder::apply(const ParsedOpcode& op) {
  Region& r = region_;
  const double v = op.number;
  std::visit(Overloaded{
                 [&](Special s) { applySpecial(s, op); },
                 [&](float Region::*m) { r.*m = as<float>(v); },
                 [&](uint8_t Region::*m) { r.*m = as<uint8_t>(v); },
                 [&](int16_t Region::*m) { r.*m = as<int16_t>(v); },
                 [&](int32_t Region::*m) { r.*m = as<int32_t>(v); },
                 [&](int64_t Region::*m) { r.*m = as<int64_t>(v); },
                 [&](EnvField f) { (r.*f.envelope).*f.param = as<float>(v); },
                 [&](LfoField f) { (r.*f.lfo).*f.param = as<float>(v); },
             },
             op.spec->target);
}

void RegionBuilder::applySpecial(Special which, const ParsedOpcode& op) {
  Region& r = region_;
  const double v = op.number;
  const bool none = v < 0;  // key=-1 ("no key"), pitch_keycenter=sample
  switch (which) {
    case Special::Sample:
      r.sampleIndex = as<int32_t>(v);
      hasSample_ = true;
      break;
    case Special::Key:
      noKey_ = none;
      if (!none) r.lokey = r.hikey = r.pitchKeycenter = asNote(v);
      break;
    case Special::LoKey:
    case Special::HiKey:
      noKey_ = none;
      if (!none) (which == Special::LoKey ? r.lokey : r.hikey) = asNote(v);
      break;
    case Special::PitchKeycenter:
      r.pitchKeycenterFromKey = none;
      if (!none) r.pitchKeycenter = asNote(v);
      break;
    case Special::LoCc: setCcBound(op.index, false, v); break;
    case Special::HiCc: setCcBound(op.index, true, v); break;
    case Special::AmpVelcurve: velcurve_.set(op.index, as<float>(v)); break;
    case Special::LoopMode:
      r.loopMode = as<LoopMode>(v);
      r.loopModeSet = true;
      break;
    case Special::Trigger: r.trigger = as<Trigger>(v); break;
    case Special::OffMode: r.offMode = as<OffMode>(v); break;
    case Special::FilType: r.filType = as<FilterType>(v); break;
    case Special::XfKeycurve: r.xfKeycurve = as<CrossfadeCurve>(v); break;
    case Special::XfVelcurve: r.xfVelcurve = as<CrossfadeCurve>(v); break;
    case Special::SwDefault: r.swDefault = as<int16_t>(v); break;
  }
}

void RegionBuilder::setCcBound(int cc, bool high, double value) {
  Region& r = region_;
  const auto begin = r.ccConditions.begin();
  const auto end = begin + r.ccConditionCount;
  const auto found = std::find_if(begin, end, [cc](const CcCondition& c) { return c.cc == cc; });
  if (found == end) {
    if (r.ccConditionCount >= limits::kMaxCcConditions) {
      ccOverflow_ = true;
      return;
    }
    *found = CcCondition{as<uint8_t>(cc), 0, 127};
    ++r.ccConditionCount;
  }
  (high ? found->hi : found->lo) = as<uint8_t>(value);
}

std::optional<Region> RegionBuilder::finish(std::string& whySkipped, std::string& notes) {
  if (!hasSample_) {
    whySkipped = "region without sample skipped";
    return std::nullopt;
  }
  if (noKey_) {
    whySkipped = "region with lokey/hikey/key=-1 (triggered only by on_locc/on_hicc, not supported) skipped";
    return std::nullopt;
  }
  if (ccOverflow_) notes = "more than 8 distinct locc/hicc conditions; the extra ones are ignored";
  if (!velcurve_.empty()) {
    region_.hasAmpVelcurve = true;
    region_.ampVelcurve = interpolateCurve(velcurve_);
  }
  if (region_.cutoff >= 0.0f && region_.filType == FilterType::None) region_.filType = FilterType::Lpf2p;
  return region_;
}

}  // namespace spindle::sfz
