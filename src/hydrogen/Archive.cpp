// .h2drumkit archives: a tar (usually gzipped) of one kit folder, unpacked through the
// instrument model's guarded unpacking (instrument/Archive.h).
#include "instrument/Archive.h"

#include "hydrogen/DrumKit.h"

namespace spindle::hydrogen {

namespace fs = std::filesystem;

namespace {

// Where the kit landed: the folder of the first drumkit.xml unpacked.
fs::path findKit(const fs::path& root) {
  std::error_code ec;
  if (fs::exists(root / "drumkit.xml", ec)) return root;
  for (const auto& entry : fs::recursive_directory_iterator(root, ec))
    if (entry.path().filename() == "drumkit.xml") return entry.path().parent_path();
  return {};
}

}  // namespace

fs::path unpackArchive(const fs::path& archivePath, const fs::path& into, std::string& error) {
  if (!instrument::unpackArchive(archivePath, instrument::ArchiveFormat::Tar, into, "the kit folder", error)) return {};
  const fs::path kit = findKit(into);
  if (kit.empty()) {
    error = archivePath.string() + ": no drumkit.xml in the archive";
    std::error_code ec;
    fs::remove_all(into, ec);  // a refused archive leaves nothing in the cache
  }
  return kit;
}

}  // namespace spindle::hydrogen
