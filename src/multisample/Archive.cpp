// .multisample zips: unpacked through the guarded unpacking every loader shares.
#include "instrument/Archive.h"

#include "multisample/Multisample.h"

namespace spindle::multisample {

namespace fs = std::filesystem;

bool isMultisampleArchive(const fs::path& file) {
  return instrument::archiveHolds(file, instrument::ArchiveFormat::Zip, kMappingFile);
}

bool unpackMultisample(const fs::path& archive, const fs::path& into, std::string& error) {
  if (!instrument::unpackArchive(archive, instrument::ArchiveFormat::Zip, into, "the instrument's folder", error))
    return false;
  std::error_code ec;
  if (fs::exists(into / kMappingFile, ec)) return true;
  error = archive.string() + ": no " + kMappingFile + " at the archive's root";
  fs::remove_all(into, ec);
  return false;
}

}  // namespace spindle::multisample
