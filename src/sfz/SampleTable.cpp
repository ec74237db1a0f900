#include "sfz/SampleTable.h"

#include <optional>
#include <string>

#include "sfz/Paths.h"

namespace spindle::sfz {

int SampleTable::add(const std::filesystem::path& folder, std::string_view written) {
  const std::filesystem::path wanted = joinWritten(folder, written);
  const std::optional<std::filesystem::path> found = findExisting(wanted);
  const std::string path = (found ? *found : wanted).string();
  const auto [it, added] = index_.emplace(path, static_cast<int>(instrument_.samples.size()));
  if (added) {
    instrument_.samples.push_back(path);
    if (!found) instrument_.missingSamples.push_back(path);
  }
  return it->second;
}

}  // namespace spindle::sfz
