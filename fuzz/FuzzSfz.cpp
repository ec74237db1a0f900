// fuzz_sfz: the SFZ parser, #include resolution included, inside a scratch folder.
//
// Input: files separated by a 0x01 byte. The first is main.sfz; each later one starts
// with its name (relative, up to the first newline), e.g. "\x01" "inc/common.sfz\n...",
// so #include "inc/common.sfz" in main.sfz finds it. Names are kept inside the scratch
// folder (no "..", no absolute paths). fuzz/run.sh packs fixtures this way.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ScratchDir.h"
#include "sfz/Parser.h"

namespace {

using spindle::fuzz::scratch;

bool safeName(std::string_view name) {
  if (name.empty() || name.size() > 64 || name.front() == '/' || name.find("..") != std::string_view::npos) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-' || c == '/' || c == ' ';
    if (!ok) return false;
  }
  return true;
}

void writeInclude(std::string_view chunk) {
  const std::size_t newline = chunk.find('\n');
  if (newline == std::string_view::npos) return;
  const std::string_view name = chunk.substr(0, newline);
  if (!safeName(name)) return;
  std::error_code ec;
  const auto file = scratch().path() / std::string(name);
  std::filesystem::create_directories(file.parent_path(), ec);
  if (std::filesystem::is_directory(file, ec)) return;
  scratch().write(std::string(name), chunk.substr(newline + 1));
}

void clearScratch() {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(scratch().path(), ec))
    std::filesystem::remove_all(entry.path(), ec);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  clearScratch();
  std::size_t start = input.find('\x01');
  const std::string_view main = input.substr(0, start);
  while (start != std::string_view::npos) {
    const std::size_t next = input.find('\x01', start + 1);
    writeInclude(input.substr(start + 1, next == std::string_view::npos ? std::string_view::npos : next - start - 1));
    start = next;
  }
  // Parsed twice: from the file (the loader's path) and from memory (the same folder).
  const auto file = scratch().write("main.sfz", main);
  const auto fromFile = spindle::sfz::loadFile(file);
  const auto fromText = spindle::sfz::loadString(main, file);
  if (fromFile.regions.size() != fromText.regions.size()) __builtin_trap();
  // Every region's sample index is -1 (none) or a row of the sample table.
  for (const auto& region : fromFile.regions) {
    const auto index = region.sampleIndex;
    if (index < -1 || (index >= 0 && static_cast<std::size_t>(index) >= fromFile.samples.size())) __builtin_trap();
  }
  return 0;
}
