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
  const bool exact = reader->seeksExactly();
  idle_.push_back(Idle{sample, std::move(reader), ++clock_, position, exact});
  closeOldest(exactLimit_, true);
  closeOldest(limit_, false);
}

void FileCache::closeOldest(std::size_t keep, bool exactOnly) {
  const auto counts = [exactOnly](const Idle& i) { return i.exact || !exactOnly; };
  while (static_cast<std::size_t>(std::count_if(idle_.begin(), idle_.end(), counts)) > keep) {
    auto oldest = idle_.end();
    for (auto it = idle_.begin(); it != idle_.end(); ++it)
      if (counts(*it) && (oldest == idle_.end() || it->lastUse < oldest->lastUse)) oldest = it;
    idle_.erase(oldest);  // closes the file
  }
}

}  // namespace spindle::stream
