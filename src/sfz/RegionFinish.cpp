// A region once all its opcodes are applied (RegionBuilder::finish: header levels
// combined, polyphony scoped, curves interpolated, what cannot play refused), and the
// polyphony limits regions of one group share.
#include "sfz/RegionBuilder.h"

#include <algorithm>
#include <string>
#include <utility>

namespace spindle::sfz {

void shareGroupPolyphony(std::vector<Region>& regions) {
  std::vector<std::pair<int64_t, int32_t>> limits;  // group number, voices
  for (const Region& r : regions) {
    if (r.polyphony < 0) continue;
    const auto it = std::find_if(limits.begin(), limits.end(), [&](const auto& l) { return l.first == r.group; });
    if (it != limits.end()) it->second = r.polyphony;
    else limits.emplace_back(r.group, r.polyphony);
  }
  for (Region& r : regions) {
    const auto it = std::find_if(limits.begin(), limits.end(), [&](const auto& l) { return l.first == r.group; });
    if (r.polyphony < 0 && it != limits.end()) r.polyphony = it->second;
  }
}

// Each level's polyphony to its scope (Region::polyphony): a <group>'s applies to its
// polyphony group when a header gave group=N (sfizz's rule), else to the <group>'s own
// regions; a <region>'s to its polyphony group when it has a group=N, else to itself.
void RegionBuilder::scopePolyphony() {
  Region& r = region_;
  r.instrumentPolyphony = polyphonyAt_[0];
  r.masterPolyphony = polyphonyAt_[1];
  (groupInHeader_ ? r.polyphony : r.groupBlockPolyphony) = polyphonyAt_[2];
  if (polyphonyAt_[3] < 0) return;
  (groupInHeader_ || groupInRegion_ ? r.polyphony : r.regionPolyphony) = polyphonyAt_[3];
}

namespace {
// Connections with no depth (a curve or smoothing given alone) do nothing: dropped.
void dropEmptyModulations(Region& r) {
  const auto end = r.ccModulations.begin() + r.ccModulationCount;
  const auto kept = std::remove_if(r.ccModulations.begin(), end, [](const CcModulation& m) { return m.depth == 0.0f; });
  r.ccModulationCount = static_cast<uint8_t>(kept - r.ccModulations.begin());
}

// sw_lolast without sw_hilast (or the reverse) is a range of one key, as sfizz reads it.
// A reversed range is put in order, so the engine sees lo <= hi or both unset.
void completeLastRange(Region& r) {
  if (r.swLolast < 0) r.swLolast = r.swHilast;
  if (r.swHilast < 0) r.swHilast = r.swLolast;
  if (r.swLolast > r.swHilast) std::swap(r.swLolast, r.swHilast);
}
}  // namespace

std::optional<Region> RegionBuilder::finish(std::string& whySkipped, std::string& notes) {
  notes.clear();
  if (!hasSample_) {
    whySkipped = "region without sample skipped";
    return std::nullopt;
  }
  if (noKey_ && region_.ccTriggers.empty()) {
    whySkipped = "region with lokey/hikey/key=-1 and no on_locc/on_hicc trigger never plays; skipped";
    return std::nullopt;
  }
  region_.noKey = noKey_;
  for (size_t level = 0; level < levelVolume_.size(); ++level) {
    region_.volume += levelVolume_[level];
    region_.amplitude *= levelAmplitude_[level] * 0.01f;
    region_.tune += levelTune_[level];
  }
  if (modOverflow_) {
    notes += std::string(notes.empty() ? "" : "; ") + "more than " + std::to_string(kMaxCcModulations) +
             " controller modulations or " + std::to_string(kMaxCcCrossfades) +
             " controller crossfades; the extra ones are ignored";
  }
  if (lfoOverflow_) {
    notes += std::string(notes.empty() ? "" : "; ") + "more than " + std::to_string(kMaxFlexLfos) +
             " LFOs (lfoN_) or " + std::to_string(kMaxFlexEgs) + " flex EGs (egN_); the extra ones are ignored";
  }
  if (varOverflow_) {
    notes += std::string(notes.empty() ? "" : "; ") + "more than " + std::to_string(kMaxVariables) +
             " variables (varNN_); the extra ones are ignored";
  }
  dropEmptyModulations(region_);
  completeLastRange(region_);
  scopePolyphony();
  if (!velcurve_.empty()) {
    region_.hasAmpVelcurve = true;
    region_.ampVelcurve = instrument::interpolateCurve(velcurve_);
  }
  if (region_.cutoff >= 0.0f && region_.filType == FilterType::None) region_.filType = FilterType::Lpf2p;
  if (region_.cutoff2 >= 0.0f && region_.fil2Type == FilterType::None) region_.fil2Type = FilterType::Lpf2p;
  return region_;
}

}  // namespace spindle::sfz
