#pragma once
// FileCache: open AudioFileReaders the disk thread keeps between streams.
//
// Thread: the disk thread only (not synchronised). The block cache checks a reader
// out to decode one block and back in right after, with the frame it stopped at, so
// decoding the next block of the same file needs no seek. A stream opening checks
// one out and in again to find out that its file opens. Up to `limit` idle readers
// stay open, so a note played again soon does not reopen and re-parse its file; past
// the limit the least recently used idle reader is closed. At most one reader is out
// at a time, so open files never exceed limit + 1.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/SampleData.h"
#include "stream/AudioFile.h"

namespace spindle::stream {

class FileCache {
 public:
  explicit FileCache(int limit) : limit_(limit < 0 ? 0 : static_cast<std::size_t>(limit)) {}

  // A reader for sample->path; nullptr with `error` set when the file cannot be
  // opened. Opened fresh when no idle reader of that sample exists. `position` (when
  // not null) receives the frame the reader decodes next: -1 when unknown.
  std::unique_ptr<AudioFileReader> checkOut(const SampleData* sample, std::string& error,
                                            int64_t* position = nullptr);
  // `position`: the frame the reader decodes next, -1 when unknown.
  void checkIn(const SampleData* sample, std::unique_ptr<AudioFileReader> reader, int64_t position = -1);

  std::size_t idleCount() const noexcept { return idle_.size(); }
  uint64_t opens() const noexcept { return opens_; }
  uint64_t hits() const noexcept { return hits_; }

 private:
  struct Idle {
    const SampleData* sample = nullptr;
    std::unique_ptr<AudioFileReader> reader;
    uint64_t lastUse = 0;
    int64_t position = -1;
  };
  std::size_t limit_;
  std::vector<Idle> idle_;
  uint64_t clock_ = 0, opens_ = 0, hits_ = 0;
};

}  // namespace spindle::stream
