#include "stream/DiskThread.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <utility>

#include "core/Limits.h"

namespace spindle::stream {

int64_t liveAheadFrames(int64_t blockFrames, int periodFrames, float speed) noexcept {
  const double pace = std::clamp(static_cast<double>(speed), 1.0 / 16.0, static_cast<double>(rt::StreamBank::kMaxIncrement));
  const auto periods = static_cast<int64_t>(kAheadPeriods * std::max(periodFrames, 1) * pace);
  return std::max(blockFrames, periods) + 2 * limits::kGuardFrames;
}

// Live: the block the voice reads, the next one (a block's read-ahead) and one where a
// run straddles. Waiting: demandFrames(256 frames) spans up to three 4096-frame blocks
// (24-bit or float stereo) past the one the voice reads.
int minCacheBlocks(int streams, bool waiting) noexcept { return (waiting ? 4 : 3) * std::max(streams, 0) + 2; }

DiskThread::DiskThread(rt::StreamBank& bank, DiskOptions options)
    : bank_(bank),
      options_(std::move(options)),
      cache_(options_.cacheLimit, options_.exactCacheLimit),
      blocks_(options_.cacheBytes,
              minCacheBlocks(options_.pinningStreams > 0 ? options_.pinningStreams : bank.size(), !options_.threaded)),
      streams_(static_cast<std::size_t>(bank.size())) {
  needy_.reserve(streams_.size());
  if (options_.threaded)
    thread_ = std::thread([this] { run(); });
  else
    bank_.serveOnWaitingThread(&DiskThread::serveRounds, this);
}

DiskThread::~DiskThread() { stop(); }

void DiskThread::stop() {
  stopping_.store(true, std::memory_order_release);
  if (!options_.threaded) bank_.serveOnWaitingThread(nullptr, nullptr);
  bank_.wake();
  if (thread_.joinable()) thread_.join();
}

void DiskThread::serveRounds(void* self) {
  auto& disk = *static_cast<DiskThread*>(self);
  while (!disk.stopping_.load(std::memory_order_acquire) && disk.round())
    disk.counters_.rounds.fetch_add(1, std::memory_order_relaxed);
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

bool DiskThread::round() {
  const bool ordered = takeOrders();
  const bool served = serveStreams();
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

// Every open stream gives back what its voice consumed; those short of their target
// get runs, the one closest to running dry first. True when a run was pushed.
bool DiskThread::serveStreams() {
  const int period = bank_.periodFrames();
  const int64_t demand = bank_.demand();
  needy_.clear();
  for (std::size_t i = 0; i < streams_.size(); ++i) {
    DiskStream& stream = streams_[i];
    if (!stream.isOpen()) continue;
    stream.release();
    const int64_t target = targetFor(stream, period, demand);
    if (!stream.wants(target)) continue;
    const double pace = static_cast<double>(std::max(stream.speed(), 1.0f / 16.0f));
    const double left = static_cast<double>(stream.pushedEnd() - stream.reach()) / pace;
    needy_.push_back(Needy{left, static_cast<uint32_t>(i), target});
  }
  std::sort(needy_.begin(), needy_.end(), [](const Needy& a, const Needy& b) { return a.framesLeft < b.framesLeft; });
  int pushed = 0;
  for (const Needy& n : needy_) {
    pushed += streams_[n.slot].push(n.target);
    noteError(streams_[n.slot]);
  }
  return pushed > 0;
}

// The live read-ahead past the voice's reach, or what a waiting render asks when more;
// from the stream's first frame while the voice still plays its preload, so a new
// stream's first block is decoded at once, not when the preload is nearly done.
int64_t DiskThread::targetFor(const DiskStream& stream, int period, int64_t demand) const noexcept {
  const int64_t from = std::max(stream.reach(), stream.firstFrame());
  return from + std::max(liveAheadFrames(stream.blockFrames(), period, stream.speed()), demand);
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
