#include "stream/DiskThread.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <utility>

#include "core/Limits.h"

namespace spindle::stream {

namespace {
constexpr int64_t kMaxIncrement = 32;  // engine::RenderScratch::kMaxIncrement
constexpr int64_t kSpanFrames = 4096;  // engine::RenderScratch::kSpanCapacity
constexpr int64_t kChunkFrames = 64;   // engine::RenderScratch::kChunkFrames

int64_t nextPowerOfTwo(int64_t v) noexcept {
  int64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}
}  // namespace

int64_t lowWaterFrames(int maxBlockFrames) noexcept {
  return std::max<int64_t>(kSpanFrames, int64_t{maxBlockFrames} * kMaxIncrement) + 2 * limits::kGuardFrames;
}

int64_t ringFramesFor(const DiskOptions& /*options*/, int maxBlockFrames) noexcept {
  return nextPowerOfTwo(lowWaterFrames(maxBlockFrames) + 4096);
}

// One chunk's span, its taps, and the frames a voice may skip between two chunks.
int64_t offlineRingFrames() noexcept {
  return nextPowerOfTwo(kChunkFrames * kMaxIncrement + 3 * limits::kGuardFrames);
}

int64_t offlineLowWaterFrames() noexcept { return offlineRingFrames() / 2; }

DiskThread::DiskThread(rt::StreamBank& bank, DiskOptions options)
    : bank_(bank),
      options_(std::move(options)),
      cache_(options_.cacheLimit, options_.exactCacheLimit),
      blocks_(options_.cacheBytes, (options_.threaded ? 1 : 2) * bank.size() + 2),  // pins: DiskStream.h
      streams_(static_cast<std::size_t>(bank.size())) {
  needy_.reserve(streams_.size());
  if (options_.threaded)
    thread_ = std::thread([this] { run(); });
  else
    bank_.serveOnWaitingThread(&DiskThread::serveRounds, &DiskThread::readFor, this);
}

DiskThread::~DiskThread() { stop(); }

void DiskThread::stop() {
  stopping_.store(true, std::memory_order_release);
  if (!options_.threaded) bank_.serveOnWaitingThread(nullptr, nullptr, nullptr);
  bank_.wake();
  if (thread_.joinable()) thread_.join();
}

void DiskThread::serveRounds(void* self) {
  auto& disk = *static_cast<DiskThread*>(self);
  while (!disk.stopping_.load(std::memory_order_acquire) && disk.round())
    disk.counters_.rounds.fetch_add(1, std::memory_order_relaxed);
}

// Orders first: the voice may have opened (or exited) its stream in this very block.
int DiskThread::readFor(void* self, uint32_t slot, int64_t first, int count, float* left, float* right) {
  auto& disk = *static_cast<DiskThread*>(self);
  disk.takeOrders();
  if (slot >= disk.streams_.size()) return 0;
  DiskStream& stream = disk.streams_[slot];
  const int64_t got = stream.read(first, count, left, right);
  disk.noteError(stream);
  return static_cast<int>(got);
}

void DiskThread::setPriority() {
  pthread_setname_np(pthread_self(), "disk");
  if (options_.fifoPriority <= 0) return;
  sched_param param{};
  param.sched_priority = std::clamp(options_.fifoPriority, sched_get_priority_min(SCHED_FIFO),
                                    sched_get_priority_max(SCHED_FIFO));
  realtime_.store(pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0, std::memory_order_release);
}

void DiskThread::run() {
  setPriority();
  while (!stopping_.load(std::memory_order_acquire)) {
    bank_.sleepUntilWoken();
    uint64_t serial = 0;
    bool busy = true;
    while (busy && !stopping_.load(std::memory_order_acquire)) {
      serial = bank_.readySerial();  // the quiet round below began after this load
      busy = round();
      if (busy) counters_.rounds.fetch_add(1, std::memory_order_relaxed);
    }
    bank_.settled(serial);
  }
}

// With no thread the voices read blocks themselves (readFor): a round only takes orders.
bool DiskThread::round() {
  const bool ordered = takeOrders();
  const bool served = options_.threaded && serveStreams();
  return ordered || served;
}

bool DiskThread::takeOrders() {
  bool any = false;
  rt::StreamOrder order;
  while (bank_.takeOrder(order)) {
    any = true;
    if (order.slot >= streams_.size()) continue;
    DiskStream& stream = streams_[order.slot];
    switch (order.type) {
      case rt::StreamOrderType::Open:
        stream.open(order, bank_.slot(order.slot), shared_);
        noteError(stream);
        break;
      case rt::StreamOrderType::Exit: stream.exit(order); break;
      case rt::StreamOrderType::Release:
        stream.close();
        bank_.giveBack(order.slot);
        break;
    }
  }
  return any;
}

// Emptiest ring first: the stream closest to an underrun gets the disk first.
bool DiskThread::serveStreams() {
  const int64_t lowWater = bank_.lowWaterFrames();
  const int64_t readFrames = options_.readFrames();
  needy_.clear();
  // One snapshot of each fill level: the audio thread keeps consuming while we sort.
  for (std::size_t i = 0; i < streams_.size(); ++i)
    if (streams_[i].needsService(lowWater)) needy_.emplace_back(streams_[i].readable(), static_cast<uint32_t>(i));
  std::sort(needy_.begin(), needy_.end());
  for (const auto& [level, i] : needy_) {
    streams_[i].fill(readFrames);
    noteError(streams_[i]);
  }
  return !needy_.empty();
}

void DiskThread::noteError(DiskStream& stream) {
  std::string error = stream.takeError();
  if (error.empty()) return;
  const std::lock_guard lock(errorsMutex_);
  if (error == lastError_) return;
  lastError_ = error;
  if (errors_.size() >= kMaxPendingErrors) errorsDropped_.fetch_add(1, std::memory_order_relaxed);
  else errors_.push_back(DiskError{stream.file(), std::move(error)});
}

std::vector<DiskError> DiskThread::takeErrors() {
  const std::lock_guard lock(errorsMutex_);
  return std::exchange(errors_, {});
}

}  // namespace spindle::stream
