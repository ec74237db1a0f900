#include "formats/InstrumentFile.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "dspreset/DecentSampler.h"
#include "formats/ImpulseResponses.h"
#include "formats/SilentLoad.h"
#include "hydrogen/DrumKit.h"
#include "multisample/Multisample.h"
#include "sf2/SoundFont.h"
#include "sf2/SoundFontInstrument.h"
#include "sfz/Parser.h"

namespace spindle::formats {

namespace fs = std::filesystem;

namespace {

constexpr size_t kHeadBytes = 4096;

std::vector<char> head(const fs::path& path) {
  std::vector<char> bytes(kHeadBytes);
  std::ifstream in(path, std::ios::binary);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  bytes.resize(static_cast<size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  return bytes;
}

bool isArchive(const std::vector<char>& h) {
  const auto byte = [&](size_t i) { return i < h.size() ? static_cast<unsigned char>(h[i]) : 0u; };
  const bool gzip = byte(0) == 0x1f && byte(1) == 0x8b;
  const bool bzip2 = byte(0) == 'B' && byte(1) == 'Z' && byte(2) == 'h';
  const bool xz = byte(0) == 0xfd && byte(1) == '7' && byte(2) == 'z';
  const bool tar = h.size() > 262 && std::string_view(h.data() + 257, 5) == "ustar";
  return gzip || bzip2 || xz || tar;
}

bool isZip(const std::vector<char>& h) { return h.size() >= 4 && std::string_view(h.data(), 4) == "PK\x03\x04"; }

Format detectFolder(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir / "drumkit.xml", ec)) return Format::HydrogenKit;
  if (fs::exists(dir / multisample::kMappingFile, ec) || dir.extension() == ".multisample") return Format::Multisample;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".dspreset") return Format::DecentSampler;
  return Format::Unknown;
}

instrument::Instrument refused(const fs::path& path, const std::string& why) {
  instrument::Instrument out;
  out.path = path;
  out.name = path.stem().string();
  out.diagnostics.push_back({instrument::Diagnostic::Severity::Error, path.string(), 0, why});
  return out;
}

// The archive's own folder in the cache of its kind: its name, size and time, so a
// changed archive never reads an older unpacking.
fs::path cacheFolder(const fs::path& path, std::string_view kind) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  const auto stamp = fs::last_write_time(path, ec).time_since_epoch().count();
  return archiveCache(kind) / (path.stem().string() + "-" + std::to_string(size) + "-" + std::to_string(stamp));
}

instrument::Instrument loadMultisampleArchive(const fs::path& path) {
  const fs::path into = cacheFolder(path, "multisamples");
  std::string error;
  if (!multisample::unpackMultisample(path, into, error)) return refused(path, error);
  instrument::Instrument in = multisample::loadMultisample(into);
  in.name = path.stem().string();
  return in;
}

instrument::Instrument loadArchive(const fs::path& path) {
  const fs::path into = cacheFolder(path, "drumkits");
  std::string error;
  const fs::path kit = hydrogen::unpackArchive(path, into, error);
  if (kit.empty()) return refused(path, error);
  instrument::Instrument in = hydrogen::loadDrumKit(kit);
  in.name = path.stem().string();
  return in;
}

}  // namespace

Format detect(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return detectFolder(path);
  const std::vector<char> h = head(path);
  const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(h.data()), h.size());
  if (sf2::looksLikeSoundFont(bytes)) return Format::SoundFont;
  if (isArchive(h)) return Format::HydrogenArchive;
  if (isZip(h)) return multisample::isMultisampleArchive(path) ? Format::MultisampleArchive : Format::Unknown;
  if (std::find(h.begin(), h.end(), '\0') != h.end()) return Format::Unknown;  // binary, not text
  if (dspreset::looksLikePreset(h)) return Format::DecentSampler;
  if (hydrogen::looksLikeDrumKit(h)) return Format::HydrogenKit;
  if (multisample::looksLikeMultisample(h)) return Format::Multisample;
  return Format::Sfz;
}

const char* formatName(Format f) {
  switch (f) {
    case Format::Sfz: return "SFZ";
    case Format::DecentSampler: return "DecentSampler preset";
    case Format::HydrogenKit: return "Hydrogen drum kit";
    case Format::HydrogenArchive: return "Hydrogen drum kit archive";
    case Format::SoundFont: return "SoundFont";
    case Format::Multisample: return "multisample";
    case Format::MultisampleArchive: return "multisample archive";
    case Format::Unknown: break;
  }
  return "unknown";
}

instrument::Instrument loadSfzText(std::string_view text, const fs::path& virtualFile) {
  return sfz::loadString(text, virtualFile);
}

namespace {

instrument::Instrument loadByFormat(const fs::path& path) {
  switch (detect(path)) {
    case Format::Sfz: return sfz::loadFile(path);
    case Format::DecentSampler: return dspreset::loadPreset(path);
    case Format::HydrogenKit: return hydrogen::loadDrumKit(path);
    case Format::HydrogenArchive: return loadArchive(path);
    case Format::SoundFont: return sf2::loadSoundFont(path);
    case Format::Multisample: return multisample::loadMultisample(path);
    case Format::MultisampleArchive: return loadMultisampleArchive(path);
    case Format::Unknown: break;
  }
  return refused(path, "not an instrument Spindle can play (SFZ, SoundFont, DecentSampler preset, Hydrogen drum kit "
                       "or multisample)");
}

}  // namespace

instrument::Instrument loadInstrument(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return refused(path, "no such file");
  instrument::Instrument in = loadByFormat(path);
  readImpulseResponses(in);
  refuseEmpty(in);
  return in;
}

fs::path archiveCache(std::string_view kind) {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg) return fs::path(xdg) / "spindle" / kind;
  const char* home = std::getenv("HOME");
  if (home && *home) return fs::path(home) / ".cache" / "spindle" / kind;
  return fs::temp_directory_path() / ("spindle-" + std::string(kind));
}

}  // namespace spindle::formats
