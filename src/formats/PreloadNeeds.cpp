#include "formats/PreloadNeeds.h"

#include <algorithm>
#include <cmath>

namespace spindle::formats {

double highestCents(const Region& r) noexcept {
  const auto track = static_cast<double>(r.pitchKeytrack);
  // pitch_keycenter=sample: the file's own root key is not known here; the range's
  // lowest key is the case that plays the highest.
  const int center = r.pitchKeycenterFromKey ? r.lokey : r.pitchKeycenter;
  const double keys = std::max((r.hikey - center) * track, (r.lokey - center) * track);
  const float bend = r.bendFromRpn ? 200.0f : std::max({0.0f, r.bendUp, r.bendDown});
  const float envelope = std::abs(r.pitcheg.depth) + std::abs(r.pitcheg.vel2depth);
  const float modulation = envelope + std::abs(r.pitchlfo.depth) + std::abs(r.pitchRandom) + std::max(0.0f, r.loopTune);
  const float tuning = r.tune + bend + std::max(0.0f, r.pitchVeltrack) + modulation;
  return keys + 100.0 * r.transpose + static_cast<double>(tuning);
}

std::vector<stream::PreloadNeed> preloadNeeds(const instrument::Instrument& instrument) {
  std::vector<stream::PreloadNeed> needs(instrument.samples.size());
  std::vector<bool> seen(needs.size(), false);
  for (const Region& r : instrument.regions) {
    if (r.sampleIndex < 0 || static_cast<std::size_t>(r.sampleIndex) >= needs.size()) continue;
    const auto i = static_cast<std::size_t>(r.sampleIndex);
    stream::PreloadNeed& need = needs[i];
    const double cents = highestCents(r);
    need.cents = seen[i] ? std::max(need.cents, cents) : cents;
    if (!r.offsetPercent) need.offsetFrames = std::max(need.offsetFrames, r.offset + std::max<int64_t>(r.offsetRandom, 0));
    seen[i] = true;
  }
  return needs;
}

}  // namespace spindle::formats
