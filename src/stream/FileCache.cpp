#include "stream/FileCache.h"

#include <algorithm>
#include <utility>

namespace spindle::stream {

std::unique_ptr<AudioFileReader> FileCache::checkOut(const SampleData* sample, std::string& error,
                                                     int64_t* position) {
  ++clock_;
  if (position) *position = -1;
  const auto it = std::find_if(idle_.begin(), idle_.end(), [sample](const Idle& i) { return i.sample == sample; });
  if (it != idle_.end()) {
    auto reader = std::move(it->reader);
    if (position) *position = it->position;
    idle_.erase(it);
    ++hits_;
    return reader;
  }
  if (!sample || !sample->path) {
    error = "the sample has no file to stream from";
    return nullptr;
  }
  ++opens_;
  auto reader = AudioFileReader::open(sample->path, error);
  if (reader) reader->adviseSequential();
  return reader;
}

void FileCache::checkIn(const SampleData* sample, std::unique_ptr<AudioFileReader> reader, int64_t position) {
  if (!reader) return;
  idle_.push_back(Idle{sample, std::move(reader), ++clock_, position});
  while (idle_.size() > limit_) {
    const auto oldest = std::min_element(idle_.begin(), idle_.end(),
                                         [](const Idle& a, const Idle& b) { return a.lastUse < b.lastUse; });
    idle_.erase(oldest);  // closes the file
  }
}

}  // namespace spindle::stream
