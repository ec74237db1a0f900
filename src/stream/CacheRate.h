#pragma once
// CacheRate: the block cache's figures for the health panel and /spindle/status.
//
// Thread: whichever thread shows them (control or gui), one CacheRate each; it reads
// the disk thread's counters (relaxed atomics: a snapshot, exact enough for display)
// and keeps the previous snapshot to turn totals into rates.
//
//   hitRate      blocks found decoded / blocks asked for, 0..1, over the interval
//                since the last sample (the totals while none was asked for since);
//                -1 before the first block
//   decodedMBps  frames decoded per second over the interval, in MB of 16-bit stereo
//                (4 bytes a frame, the unit --read-size uses: comparable to a disk's)
//   cacheBytes   decoded blocks held now
#include <cstdint>

#include "stream/DiskStream.h"

namespace spindle::stream {

struct CacheFigures {
  double hitRate = -1.0;
  double decodedMBps = -1.0;
  uint64_t cacheBytes = 0;
};

class CacheRate {
 public:
  CacheFigures sample(const DiskCounters& counters, double nowSeconds) noexcept {
    const uint64_t hits = counters.blockHits.load(std::memory_order_relaxed);
    const uint64_t misses = counters.blockMisses.load(std::memory_order_relaxed);
    const uint64_t decoded = counters.framesDecoded.load(std::memory_order_relaxed);
    CacheFigures f;
    f.cacheBytes = counters.cacheBytes.load(std::memory_order_relaxed);
    const uint64_t asked = hits + misses - hits_ - misses_;
    if (asked > 0) f.hitRate = static_cast<double>(hits - hits_) / static_cast<double>(asked);
    else if (hits + misses > 0) f.hitRate = static_cast<double>(hits) / static_cast<double>(hits + misses);
    const double seconds = nowSeconds - seconds_;
    if (seconds_ > 0.0 && seconds > 0.0) f.decodedMBps = static_cast<double>(decoded - decoded_) * 4.0 / 1e6 / seconds;
    else f.decodedMBps = last_.decodedMBps;
    hits_ = hits, misses_ = misses, decoded_ = decoded, seconds_ = nowSeconds;
    last_ = f;
    return f;
  }

 private:
  uint64_t hits_ = 0, misses_ = 0, decoded_ = 0;
  double seconds_ = 0.0;
  CacheFigures last_;
};

}  // namespace spindle::stream
