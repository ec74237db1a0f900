#include "stream/CompactFrames.h"

#include <sndfile.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace spindle::stream {

namespace {

// float -> 24-bit, little-endian, 3 bytes a value; false when `value` is not v / 2^23.
bool pack24(float value, uint8_t* out) noexcept {
  const double scaled = static_cast<double>(value) * 8388608.0;
  const auto v = static_cast<int32_t>(std::lrint(std::clamp(scaled, -8388608.0, 8388607.0)));
  const auto bits = static_cast<uint32_t>(v);
  out[0] = static_cast<uint8_t>(bits);
  out[1] = static_cast<uint8_t>(bits >> 8);
  out[2] = static_cast<uint8_t>(bits >> 16);
  return static_cast<double>(v) == scaled;
}

int64_t read24(AudioFileReader& reader, uint8_t* left, uint8_t* right, int64_t frames, bool& exact) {
  const int64_t chunk = AudioFileReader::kChunkFrames;
  std::vector<float> l(static_cast<std::size_t>(std::min(frames, chunk)));
  std::vector<float> r(right ? l.size() : 0);
  int64_t done = 0;
  while (done < frames) {
    const int64_t want = std::min(frames - done, chunk);
    const int64_t got = reader.readPlanar(l.data(), right ? r.data() : nullptr, want);
    for (int64_t i = 0; i < std::max<int64_t>(got, 0); ++i) {
      const auto k = static_cast<std::size_t>(i);
      exact = pack24(l[k], left + 3 * (done + i)) && exact;
      if (right) exact = pack24(r[k], right + 3 * (done + i)) && exact;
    }
    if (got <= 0) break;
    done += got;
    if (got < want) break;
  }
  return done;
}

}  // namespace

SampleFormat compactFormatOf(AudioFileReader& reader) noexcept {
  if (reader.reads16()) return SampleFormat::Int16;
  return (reader.info().format & SF_FORMAT_SUBMASK) == SF_FORMAT_PCM_24 ? SampleFormat::Int24 : SampleFormat::Float32;
}

int64_t readCompact(AudioFileReader& reader, SampleFormat format, void* left, void* right, int64_t frames,
                    bool& exact) {
  exact = true;
  switch (format) {
    case SampleFormat::Int16:
      return reader.readPlanar16(static_cast<int16_t*>(left), static_cast<int16_t*>(right), frames);
    case SampleFormat::Int24:
      return read24(reader, static_cast<uint8_t*>(left), static_cast<uint8_t*>(right), frames, exact);
    case SampleFormat::Float32: break;
  }
  return reader.readPlanar(static_cast<float*>(left), static_cast<float*>(right), frames);
}

void reverseValues(void* values, SampleFormat format, int64_t frames) noexcept {
  const int size = bytesPerValue(format);
  auto* bytes = static_cast<uint8_t*>(values);
  for (int64_t i = 0, j = frames - 1; i < j; ++i, --j)
    std::swap_ranges(bytes + i * size, bytes + (i + 1) * size, bytes + j * size);
}

}  // namespace spindle::stream
