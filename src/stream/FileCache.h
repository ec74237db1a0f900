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
//
// Of the idle readers, at most `exactLimit` seek exactly (PCM, FLAC: AudioFileReader::
// seeksExactly). Reopening one costs an open and a header parse (about 7 us for FLAC,
// where it decodes 8192 frames in about 150 us) and the block cache puts it at a block
// by the byte offset it noted, while an idle FLAC reader holds about 130 KiB (libFLAC's
// state and one decoded FLAC frame). A Vorbis or Opus reader reopened decodes from
// frame 0 to its block again: those are kept up to `limit` (docs/benchmarks.md, "The
// dense FLAC piano").
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
  explicit FileCache(int limit) : FileCache(limit, limit) {}
  FileCache(int limit, int exactLimit) : limit_(clampLimit(limit)), exactLimit_(clampLimit(exactLimit)) {}

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
    bool exact = true;  // reader->seeksExactly()
  };
  static std::size_t clampLimit(int limit) noexcept { return limit < 0 ? 0 : static_cast<std::size_t>(limit); }
  // Closes the least recently used idle readers (only those that seek exactly when
  // `exactOnly`) until at most `keep` of them are left.
  void closeOldest(std::size_t keep, bool exactOnly);

  std::size_t limit_, exactLimit_;
  std::vector<Idle> idle_;
  uint64_t clock_ = 0, opens_ = 0, hits_ = 0;
};

}  // namespace spindle::stream
