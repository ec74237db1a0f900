// fuzz_sf2: the SoundFont reader on any bytes, then what loading does with what it
// accepts. The reader must refuse what lies (sizes, indices) with an error and never
// read outside the input; the instrument builder must turn any accepted font into
// regions without crashing; and a sample's slice of the file (raw PCM or Ogg Vorbis)
// must decode, or fail with an error, without reading outside its range.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "ScratchDir.h"
#include "sf2/SoundFont.h"
#include "sf2/SoundFontInstrument.h"
#include "stream/AudioFile.h"

namespace {

constexpr size_t kSlicesDecoded = 4;
constexpr int64_t kFramesDecoded = 4096;

void decodeSome(const spindle::instrument::Instrument& instrument) {
  std::vector<float> left(kFramesDecoded), right(kFramesDecoded);
  for (size_t i = 0; i < instrument.samples.size() && i < kSlicesDecoded; ++i) {
    std::string error;
    auto reader = spindle::stream::AudioFileReader::open(instrument.samples[i], error);
    if (!reader) continue;
    reader->readPlanar(left.data(), right.data(), kFramesDecoded);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const spindle::fuzz::ScratchDir scratch;
  auto result = spindle::sf2::readSoundFont(std::span<const uint8_t>(data, size), "fuzz.sf2");
  if (!result.font) return 0;
  // Touch what a loader would walk: every zone of every preset and instrument.
  size_t zones = 0;
  for (const auto& p : result.font->presets) zones += p.zones.size() + (p.global ? 1 : 0);
  for (const auto& i : result.font->instruments) zones += i.zones.size() + (i.global ? 1 : 0);
  if (zones > size) __builtin_trap();  // every zone takes bytes of the input
  result.font->path = scratch.write("fuzz.sf2", std::string_view(reinterpret_cast<const char*>(data), size));
  const spindle::instrument::Instrument instrument = spindle::sf2::buildInstrument(*result.font);
  for (const auto& r : instrument.regions)
    if (r.sampleIndex < 0 || static_cast<size_t>(r.sampleIndex) >= instrument.samples.size()) __builtin_trap();
  decodeSome(instrument);
  return 0;
}
