#pragma once
// FileCache: open AudioFileReaders the disk thread keeps between streams.
//
// Thread: the disk thread only (not synchronised). A stream checks a reader out for
// its whole life (each reader has its own position, so two streams of one file hold
// two readers) and checks it back in when it ends. Up to `limit` idle readers stay
// open, so a note played again soon does not reopen and re-parse its file; past the
// limit the least recently used idle reader is closed. Readers in use are bounded by
// the stream count, so open files never exceed streams + limit.
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

  // A reader for sample->path (position unspecified); nullptr with `error` set when
  // the file cannot be opened. Opened fresh when no idle reader of that sample exists.
  std::unique_ptr<AudioFileReader> checkOut(const SampleData* sample, std::string& error);
  void checkIn(const SampleData* sample, std::unique_ptr<AudioFileReader> reader);

  std::size_t idleCount() const noexcept { return idle_.size(); }
  uint64_t opens() const noexcept { return opens_; }
  uint64_t hits() const noexcept { return hits_; }

 private:
  struct Idle {
    const SampleData* sample = nullptr;
    std::unique_ptr<AudioFileReader> reader;
    uint64_t lastUse = 0;
  };
  std::size_t limit_;
  std::vector<Idle> idle_;
  uint64_t clock_ = 0, opens_ = 0, hits_ = 0;
};

}  // namespace spindle::stream
