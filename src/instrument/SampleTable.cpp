#include "instrument/SampleTable.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "instrument/Paths.h"

namespace spindle::instrument {

int SampleTable::add(const std::filesystem::path& folder, std::string_view written) {
  const std::filesystem::path wanted = joinWritten(folder, written);
  const std::optional<std::filesystem::path> found = findExisting(wanted);
  const std::string path = (found ? *found : wanted).string();
  const bool known = index_.contains(path);
  const int index = addResolved(path);
  if (!known && !found) instrument_.missingSamples.push_back(path);
  return index;
}

int SampleTable::addResolved(const std::string& path) {
  const auto [it, added] = index_.emplace(path, static_cast<int>(instrument_.samples.size()));
  if (added) instrument_.samples.push_back(path);
  return it->second;
}

int SampleTable::reversed(int index) {
  if (index < 0 || static_cast<std::size_t>(index) >= instrument_.samples.size()) return index;
  const auto [it, added] = reversedOf_.emplace(index, static_cast<int>(instrument_.samples.size()));
  if (added) {
    instrument_.reversedSamples.push_back(it->second);  // ascending: always the table's last entry
    instrument_.samples.push_back(instrument_.samples[static_cast<std::size_t>(index)]);
  }
  return it->second;
}

void SampleTable::dropUnplayedForward() {
  Instrument& inst = instrument_;
  std::vector<bool> played(inst.samples.size(), false);
  for (const Region& r : inst.regions)
    for (const int32_t i : {r.sampleIndex, r.reverseSampleIndex})
      if (i >= 0) played[static_cast<std::size_t>(i)] = true;
  std::vector<int32_t> renumbered(inst.samples.size(), -1);
  std::vector<std::string> kept;
  std::vector<int32_t> keptReversed;
  for (std::size_t i = 0; i < inst.samples.size(); ++i) {
    if (!played[i] && reversedOf_.contains(static_cast<int>(i))) continue;
    renumbered[i] = static_cast<int32_t>(kept.size());
    if (inst.isReversed(i)) keptReversed.push_back(renumbered[i]);
    kept.push_back(std::move(inst.samples[i]));
  }
  for (Region& r : inst.regions)
    for (int32_t* i : {&r.sampleIndex, &r.reverseSampleIndex})
      if (*i >= 0) *i = renumbered[static_cast<std::size_t>(*i)];
  inst.samples = std::move(kept);
  inst.reversedSamples = std::move(keptReversed);
  index_.clear();
  reversedOf_.clear();
}

}  // namespace spindle::instrument
