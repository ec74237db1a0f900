#pragma once
// StreamRing: the per-voice buffer between the disk thread and the audio thread.
//
// One ring per active stream. Planar float frames, 1 or 2 channels, a power-of-two
// capacity in frames. Exactly one producer (the disk thread) and one consumer (the
// audio thread); method names say which side may call them. Nothing here allocates,
// locks or waits, except init() (maps pages, never on the audio thread).
//
// Geometry of one channel (C = capacity, G = limits::kGuardFrames):
//
//     position 0      G                                C           C + G
//     +---------------+--- ... ------------------------+-------------+
//     | head [0, G)   |                                | guard: copy |
//     |               |                                | of [0, G)   |
//     +---------------+--- ... ------------------------+-------------+
//                                  ^ readPointer()      \___________/
//                                  |<---- readContiguous() ------->|
//
// A frame with counter value n lives at position n & (C - 1). Whenever the producer
// commits frames at positions [0, G) it also copies them to [C, C + G), before it
// publishes them. So the consumer reads a span that starts near the end and runs up
// to G frames past the wrap as one contiguous array: no branch in the interpolator.
//
// What the consumer may read: frames [readPosition(), readPosition() + readable),
// nothing else. The guard never makes uncommitted frames readable; it only keeps a
// span of committed frames from splitting at the wrap. readContiguous() is the length
// of that span from readPointer(): min(readable, C - position + G). An interpolator's
// look-ahead must therefore be covered by committed frames (at a stream's end the
// disk thread commits writeSilence(G) after the last frame). Frames before
// readPointer() are gone (the producer may overwrite them): a consumer that needs
// history frames keeps them by consuming later, not by reading backwards.
//
// Counters are free-running 64-bit frame counts: readable = write - read, full when
// write - read == C. C divides 2^64, so positions stay continuous when a counter
// wraps; the constructor and reset() take a start index so tests can cross 2^64.
// write only moves back through retractWrite(), over frames the consumer will not read.
//
// Memory orders: the producer writes frames (and guard copies), then publishes them
// with a release store of write_; the consumer's acquire load of write_ makes them
// visible. Symmetrically the consumer's release store of read_ in consume() orders
// its reads of the consumed frames before the producer's acquire load of read_, after
// which the producer may overwrite them. Each side loads its own counter relaxed.
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>

#include "core/Limits.h"
#include "core/Realtime.h"
#include "rt/SpscFifo.h"

namespace spindle::rt {

namespace detail {
// Unmaps a ring's storage (StreamRing::init maps it).
struct PageDelete {
  std::size_t bytes = 0;
  void operator()(float* p) const noexcept { ::munmap(p, bytes); }
};
}  // namespace detail

class StreamRing {
 public:
  static constexpr int kMaxChannels = 2;
  static constexpr int64_t kGuardFrames = limits::kGuardFrames;

  // An empty ring with no storage; init() it before use.
  StreamRing() noexcept = default;
  // Allocates; see init().
  StreamRing(int channels, int64_t capacityFrames, uint64_t startIndex = 0);
  StreamRing(const StreamRing&) = delete;
  StreamRing& operator=(const StreamRing&) = delete;

  // ---- owner (control or disk thread, never the audio thread) ----
  // Allocates zeroed storage. channels: 1 or 2; capacityFrames: a power of two
  // >= kGuardFrames. Throws std::invalid_argument otherwise.
  void init(int channels, int64_t capacityFrames, uint64_t startIndex = 0);
  // Empties the ring for reuse (from a pool). Only while neither side touches it;
  // the frames are left as they are, and none of them is readable afterwards.
  void reset(uint64_t startIndex = 0) noexcept;

  // ---- any thread (fixed after init) ----
  int channels() const noexcept SPINDLE_REALTIME { return channels_; }
  int64_t capacity() const noexcept SPINDLE_REALTIME { return capacity_; }

  // ---- producer: the disk thread ----
  int64_t writableFrames() const noexcept SPINDLE_REALTIME;
  // Frames writable at writePointer() without wrapping: min(writable, C - position).
  int64_t writeContiguous() const noexcept SPINDLE_REALTIME;
  // Where the next frame of `channel` goes. Mono: channel 1 aliases channel 0.
  float* writePointer(int channel) noexcept SPINDLE_REALTIME;
  // Publishes `frames` (<= writableFrames()) frames written at writePointer(),
  // copying those at positions [0, G) into the guard first.
  void commitWrite(int64_t frames) noexcept SPINDLE_REALTIME;
  // Copies min(frames, writableFrames()) planar frames (src[channel]), across the
  // wrap, and commits them. Returns the number of frames written.
  int64_t write(const float* const* src, int64_t frames) noexcept SPINDLE_REALTIME;
  // The same for interleaved frames with channels() values each (libsndfile's layout).
  int64_t writeInterleaved(const float* src, int64_t frames) noexcept SPINDLE_REALTIME;
  // Commits min(frames, writableFrames()) zero frames (padding after a stream's end).
  int64_t writeSilence(int64_t frames) noexcept SPINDLE_REALTIME;
  // Takes back the last `frames` (<= readableFrames()) committed frames: the next
  // write goes where the first of them was. Only for frames the consumer has agreed
  // not to read or consume until a later release/acquire hand-over tells it what
  // replaced them (a loop exit: rt/StreamBank.h).
  void retractWrite(int64_t frames) noexcept SPINDLE_REALTIME;
  // Counter of the next frame to write (start index + frames committed - retracted).
  uint64_t writePosition() const noexcept SPINDLE_REALTIME;

  // ---- consumer: the audio thread ----
  int64_t readableFrames() const noexcept SPINDLE_REALTIME;
  // Frames readable as one array from readPointer(): min(readable, C - position + G).
  int64_t readContiguous() const noexcept SPINDLE_REALTIME;
  // The frame at readPosition() of `channel`. Mono: channel 1 aliases channel 0.
  const float* readPointer(int channel) const noexcept SPINDLE_REALTIME;
  // Releases `frames` (<= readableFrames()) frames to the producer.
  void consume(int64_t frames) noexcept SPINDLE_REALTIME;
  // Counter of the next frame to read (start index + frames consumed).
  uint64_t readPosition() const noexcept SPINDLE_REALTIME;

 private:
  int64_t position(uint64_t counter) const noexcept SPINDLE_REALTIME {
    return static_cast<int64_t>(counter & mask_);
  }
  void mirrorHead(int64_t first, int64_t last) noexcept SPINDLE_REALTIME;

  // Fixed after init(): read by both threads, written by neither while in use.
  // Anonymous pages: zero until written and backed only once touched, so a bank of
  // rings costs RAM for the rings in use (a live session's mlockall(MCL_FUTURE) backs
  // them all at init instead, off the audio thread).
  std::unique_ptr<float[], detail::PageDelete> storage_;
  float* base_[kMaxChannels] = {nullptr, nullptr};
  int channels_ = 0;
  int64_t capacity_ = 0;
  uint64_t mask_ = 0;

  alignas(kCacheLine) std::atomic<uint64_t> write_{0};
  alignas(kCacheLine) std::atomic<uint64_t> read_{0};
};

// ------------------------------------------------------------------------------------
// Implementation

inline StreamRing::StreamRing(int channels, int64_t capacityFrames, uint64_t startIndex) {
  init(channels, capacityFrames, startIndex);
}

inline void StreamRing::init(int channels, int64_t capacityFrames, uint64_t startIndex) {
  if (channels < 1 || channels > kMaxChannels)
    throw std::invalid_argument("StreamRing: channels must be 1 or 2");
  if (capacityFrames < kGuardFrames || (capacityFrames & (capacityFrames - 1)) != 0)
    throw std::invalid_argument("StreamRing: capacity must be a power of two >= kGuardFrames");
  // Each channel starts on a cache line: stride rounded up to 16 floats.
  constexpr int64_t kLineFloats = static_cast<int64_t>(kCacheLine / sizeof(float));
  const int64_t stride = (capacityFrames + kGuardFrames + kLineFloats - 1) / kLineFloats * kLineFloats;
  const auto count = static_cast<std::size_t>(stride * channels);
  const std::size_t bytes = count * sizeof(float);
  void* pages = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (pages == MAP_FAILED) throw std::bad_alloc();
  storage_ = std::unique_ptr<float[], detail::PageDelete>(static_cast<float*>(pages), detail::PageDelete{bytes});
  base_[0] = storage_.get();
  base_[1] = channels == 2 ? storage_.get() + stride : storage_.get();
  channels_ = channels;
  capacity_ = capacityFrames;
  mask_ = static_cast<uint64_t>(capacityFrames - 1);
  reset(startIndex);
}

inline void StreamRing::reset(uint64_t startIndex) noexcept {
  // The owner's later hand-over of the ring to the two threads (a FIFO, a thread
  // start) orders these stores before their first use.
  write_.store(startIndex, std::memory_order_relaxed);
  read_.store(startIndex, std::memory_order_relaxed);
}

inline int64_t StreamRing::writableFrames() const noexcept {
  const uint64_t w = write_.load(std::memory_order_relaxed);
  return capacity_ - static_cast<int64_t>(w - read_.load(std::memory_order_acquire));
}

inline int64_t StreamRing::writeContiguous() const noexcept {
  const int64_t toEnd = capacity_ - position(write_.load(std::memory_order_relaxed));
  return std::min(writableFrames(), toEnd);
}

inline float* StreamRing::writePointer(int channel) noexcept {
  return base_[channel] + position(write_.load(std::memory_order_relaxed));
}

inline void StreamRing::mirrorHead(int64_t first, int64_t last) noexcept {
  // Positions [first, last) were just written; copy their part inside [0, G).
  last = std::min(last, kGuardFrames);
  if (first >= last) return;
  const auto bytes = static_cast<std::size_t>(last - first) * sizeof(float);
  for (int c = 0; c < channels_; ++c) std::memcpy(base_[c] + capacity_ + first, base_[c] + first, bytes);
}

inline void StreamRing::commitWrite(int64_t frames) noexcept {
  const uint64_t w = write_.load(std::memory_order_relaxed);
  const int64_t pos = position(w);
  mirrorHead(pos, pos + frames);                     // the part before the wrap
  mirrorHead(0, pos + frames - capacity_);           // the part after it, if any
  write_.store(w + static_cast<uint64_t>(frames), std::memory_order_release);
}

inline int64_t StreamRing::write(const float* const* src, int64_t frames) noexcept {
  frames = std::min(frames, writableFrames());
  const int64_t pos = position(write_.load(std::memory_order_relaxed));
  const int64_t first = std::min(frames, capacity_ - pos);
  for (int c = 0; c < channels_; ++c) {
    std::memcpy(base_[c] + pos, src[c], static_cast<std::size_t>(first) * sizeof(float));
    std::memcpy(base_[c], src[c] + first, static_cast<std::size_t>(frames - first) * sizeof(float));
  }
  commitWrite(frames);
  return frames;
}

inline int64_t StreamRing::writeInterleaved(const float* src, int64_t frames) noexcept {
  frames = std::min(frames, writableFrames());
  const int64_t pos = position(write_.load(std::memory_order_relaxed));
  for (int c = 0; c < channels_; ++c) {
    float* const dst = base_[c];
    const float* s = src + c;
    for (int64_t i = 0; i < frames; ++i, s += channels_) dst[(pos + i) & static_cast<int64_t>(mask_)] = *s;
  }
  commitWrite(frames);
  return frames;
}

inline int64_t StreamRing::writeSilence(int64_t frames) noexcept {
  frames = std::min(frames, writableFrames());
  const int64_t pos = position(write_.load(std::memory_order_relaxed));
  const int64_t first = std::min(frames, capacity_ - pos);
  for (int c = 0; c < channels_; ++c) {
    std::fill_n(base_[c] + pos, first, 0.0f);
    std::fill_n(base_[c], frames - first, 0.0f);
  }
  commitWrite(frames);
  return frames;
}

inline void StreamRing::retractWrite(int64_t frames) noexcept {
  // The consumer reads nothing at or past the new write position before the hand-over
  // that follows, so the lower counter orders nothing of its own; release as commits are.
  const uint64_t w = write_.load(std::memory_order_relaxed);
  write_.store(w - static_cast<uint64_t>(frames), std::memory_order_release);
}

inline uint64_t StreamRing::writePosition() const noexcept {
  return write_.load(std::memory_order_relaxed);
}

inline int64_t StreamRing::readableFrames() const noexcept {
  const uint64_t r = read_.load(std::memory_order_relaxed);
  return static_cast<int64_t>(write_.load(std::memory_order_acquire) - r);
}

inline int64_t StreamRing::readContiguous() const noexcept {
  const int64_t toGuardEnd = capacity_ + kGuardFrames - position(read_.load(std::memory_order_relaxed));
  return std::min(readableFrames(), toGuardEnd);
}

inline const float* StreamRing::readPointer(int channel) const noexcept {
  return base_[channel] + position(read_.load(std::memory_order_relaxed));
}

inline void StreamRing::consume(int64_t frames) noexcept {
  const uint64_t r = read_.load(std::memory_order_relaxed);
  read_.store(r + static_cast<uint64_t>(frames), std::memory_order_release);
}

inline uint64_t StreamRing::readPosition() const noexcept {
  return read_.load(std::memory_order_relaxed);
}

}  // namespace spindle::rt
