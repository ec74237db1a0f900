#include "stream/SampleSlice.h"

#include <charconv>
#include <vector>

namespace spindle::stream {

namespace {

constexpr std::string_view kMarker = "#slice:";

// "a:b:c" -> {"a", "b", "c"}.
std::vector<std::string_view> fields(std::string_view text) {
  std::vector<std::string_view> out;
  while (true) {
    const size_t colon = text.find(':');
    out.push_back(text.substr(0, colon));
    if (colon == std::string_view::npos) return out;
    text.remove_prefix(colon + 1);
  }
}

bool number(std::string_view text, uint64_t& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

}  // namespace

std::string slicePath(const std::string& file, const SampleSlice& s) {
  return file + std::string(kMarker) + (s.encoding == SliceEncoding::Vorbis ? "vorbis" : "pcm16") + ":" +
         std::to_string(s.offset) + ":" + std::to_string(s.count) + ":" + std::to_string(s.rate) + ":" +
         std::to_string(s.offset24);
}

std::optional<std::pair<std::string, SampleSlice>> parseSlicePath(std::string_view path) {
  const size_t at = path.rfind(kMarker);
  if (at == std::string_view::npos) return std::nullopt;
  const std::vector<std::string_view> f = fields(path.substr(at + kMarker.size()));
  if (f.size() != 5 || (f[0] != "pcm16" && f[0] != "vorbis")) return std::nullopt;
  SampleSlice s;
  s.encoding = f[0] == "vorbis" ? SliceEncoding::Vorbis : SliceEncoding::Pcm16;
  uint64_t rate = 0;
  if (!number(f[1], s.offset) || !number(f[2], s.count) || !number(f[3], rate) || !number(f[4], s.offset24))
    return std::nullopt;
  if (rate == 0 || rate > 1000000) return std::nullopt;
  s.rate = static_cast<uint32_t>(rate);
  return std::make_pair(std::string(path.substr(0, at)), s);
}

std::string fileOfPath(const std::string& path) {
  const auto sliced = parseSlicePath(path);
  return sliced ? sliced->first : path;
}

std::string sliceSuffix(const std::string& path) {
  const auto sliced = parseSlicePath(path);
  return sliced ? path.substr(sliced->first.size()) : std::string();
}

}  // namespace spindle::stream
