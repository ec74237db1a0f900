// fuzz_audio_file: opening and decoding a sample file, as the loader thread (SamplePool,
// whole and preloaded) and the disk thread (AudioFileReader: chunked reads, seeks) do.
//
// Input: one byte choosing the file name's extension (libsndfile detects most formats
// by content, a few by name), then the file's bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ScratchDir.h"
#include "stream/AudioFile.h"
#include "stream/SamplePool.h"

namespace {

using namespace spindle;

constexpr const char* kExtensions[] = {"wav", "flac", "ogg", "aiff", "au", "caf", "w64", "rf64"};
constexpr int64_t kMaxFramesRead = 1 << 18;  // bounds the time one input takes
constexpr std::size_t kBudget = 256u << 20;  // the pool's memory budget: far below -rss_limit_mb

void readAsDiskThread(const std::filesystem::path& file) {
  std::string error;
  auto reader = stream::AudioFileReader::open(file, error);
  if (!reader) return;
  const auto& info = reader->info();
  if (info.channels <= 0 || info.frames < 0) __builtin_trap();
  std::vector<float> left(8192), right(8192);
  int64_t total = 0;
  while (total < kMaxFramesRead) {
    const int64_t got = reader->readPlanar(left.data(), right.data(), 8192);
    if (got < 0 || got > 8192) __builtin_trap();
    if (got == 0) break;
    total += got;
  }
  if (reader->seek(info.frames / 2)) (void)reader->readPlanar(left.data(), right.data(), 4096);
  reader->adviseWillNeed(info.frames / 3, 4096);
}

void loadIntoPool(const std::filesystem::path& file, int64_t preloadFrames) {
  stream::SamplePool pool(stream::PoolOptions{preloadFrames, 4096, kBudget});
  const SampleData* sample = pool.acquire(file.string());
  if (!sample) {
    if (pool.messages().empty()) __builtin_trap();  // every failure is reported
    return;
  }
  if (sample->framesInRam < 0 || sample->framesInRam > sample->totalFrames) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size < 1) return -1;
  const std::string name = std::string("input.") + kExtensions[data[0] % std::size(kExtensions)];
  const auto file = fuzz::scratch().write(name, std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
  readAsDiskThread(file);
  loadIntoPool(file, 4096);
  loadIntoPool(file, -1);
  std::error_code ec;
  std::filesystem::remove(file, ec);
  return 0;
}
