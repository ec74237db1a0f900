#include "tools/StreamStart.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <system_error>
#include <thread>

#include "core/Limits.h"
#include "rt/StreamBank.h"
#include "stream/DiskThread.h"
#include "stream/SamplePool.h"

namespace spindle::tools {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kPeriod = 256;
constexpr double kRate = 48000.0;

class Xorshift {
 public:
  explicit Xorshift(uint64_t seed) : state_(seed ? seed : 1) {}
  uint64_t next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1DULL;
  }
  int64_t below(int64_t n) { return static_cast<int64_t>(next() % static_cast<uint64_t>(std::max<int64_t>(n, 1))); }

 private:
  uint64_t state_;
};

// A canonical 44-byte WAV header and quiet 16-bit stereo noise.
bool writeNoiseWav(const std::filesystem::path& path, int64_t frames, Xorshift& rng) {
  std::ofstream out(path, std::ios::binary);
  const auto le = [&out](uint32_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.put(static_cast<char>((v >> (8 * i)) & 0xFF));
  };
  const auto data = static_cast<uint32_t>(frames * 4);
  out.write("RIFF", 4), le(36 + data, 4), out.write("WAVEfmt ", 8), le(16, 4), le(1, 2), le(2, 2);
  le(static_cast<uint32_t>(kRate), 4), le(static_cast<uint32_t>(kRate) * 4, 4), le(4, 2), le(16, 2);
  out.write("data", 4), le(data, 4);
  std::vector<int16_t> chunk(2 * 48000);
  for (int64_t done = 0; done < frames && out;) {
    const int64_t n = std::min<int64_t>(48000, frames - done);
    for (int64_t i = 0; i < 2 * n; ++i) chunk[static_cast<std::size_t>(i)] = static_cast<int16_t>(rng.next() % 2001) - 1000;
    out.write(reinterpret_cast<const char*>(chunk.data()), static_cast<std::streamsize>(4 * n));
    done += n;
  }
  return static_cast<bool>(out);
}

bool dropFromCache(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool dropped = ::fdatasync(fd) == 0 && ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
  ::close(fd);
  return dropped;
}

// The simulated audio thread's streams: background ones read on at a voice's pace;
// starting ones wait for their first run.
struct Stream {
  uint32_t slot = 0;
  const SampleData* sample = nullptr;
  int64_t first = 0, reach = 0;
  Clock::time_point opened;
};

class Rig {
 public:
  Rig(const std::vector<const SampleData*>& samples, const StreamStartOptions& o)
      : samples_(samples), rng_(o.seed), bank_(o.background + 4 * o.burst), disk_(bank_, diskOptions()) {}

  bool open(Stream& s) {
    const int slot = bank_.acquire();
    if (slot < 0) return false;
    s.slot = static_cast<uint32_t>(slot);
    s.sample = samples_[static_cast<std::size_t>(rng_.below(static_cast<int64_t>(samples_.size())))];
    // A cold position: a random block of the file's first 80 %.
    s.first = rng_.below(s.sample->totalFrames * 4 / 5 / 8192) * 8192;
    s.reach = s.first;
    s.opened = Clock::now();
    rt::StreamSlot& state = bank_.slot(s.slot);
    state.reach.store(s.reach, std::memory_order_relaxed);
    state.speed.store(1.0f, std::memory_order_relaxed);
    rt::StreamOrder order;
    order.type = rt::StreamOrderType::Open;
    order.slot = s.slot;
    order.sample = s.sample;
    order.firstFrame = s.first;
    order.lastFrame = s.sample->totalFrames - 1;
    bank_.post(order);
    return true;
  }
  void close(const Stream& s) {
    rt::StreamOrder order;
    order.type = rt::StreamOrderType::Release;
    order.slot = s.slot;
    bank_.post(order);
  }
  bool started(const Stream& s) {
    const rt::StreamRing& runs = bank_.slot(s.slot).runs;
    return runs.publishedPosition() != runs.readPosition() || bank_.slot(s.slot).complete.load();
  }
  // One period of a voice reading at its own pitch: false when it reached the file's end.
  bool play(Stream& s) {
    s.reach += kPeriod;
    rt::StreamSlot& state = bank_.slot(s.slot);
    state.reach.store(s.reach, std::memory_order_relaxed);
    uint64_t r = state.runs.readPosition();
    const uint64_t w = state.runs.publishedPosition();
    uint64_t consumed = 0;
    for (; r != w && state.runs.peek(r).end() <= s.reach; ++r) ++consumed;
    if (consumed > 0) {
      state.runs.consume(consumed);
      bank_.noteConsumed();
    }
    return s.reach < s.sample->totalFrames - kPeriod;
  }
  void endPeriod() { bank_.endBlock(kPeriod); }
  void settle() { bank_.waitUntilReady(); }

 private:
  static stream::DiskOptions diskOptions() {
    stream::DiskOptions options;
    options.readBytes = 32 * 1024;
    return options;
  }
  std::vector<const SampleData*> samples_;
  Xorshift rng_;
  rt::StreamBank bank_;
  stream::DiskThread disk_;
};

double percentileOf(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0.0;
  const auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size()))) - 1;
  return sorted[std::min(i, sorted.size() - 1)];
}

// Background streams every period, a burst every burstPeriods, starts polled every
// half millisecond; for options.seconds, then until the last starts arrive (1 s at most).
std::vector<double> measure(Rig& rig, const StreamStartOptions& o) {
  std::vector<Stream> background(static_cast<std::size_t>(o.background)), starting;
  for (Stream& s : background) rig.open(s);
  std::vector<double> starts;
  const auto period = std::chrono::nanoseconds(static_cast<int64_t>(1e9 * kPeriod / kRate));
  const auto begin = Clock::now(), stopAt = begin + std::chrono::milliseconds(static_cast<int64_t>(o.seconds * 1000));
  auto nextPeriod = begin;
  for (int64_t p = 0; Clock::now() < stopAt + std::chrono::seconds(1); ++p) {
    const bool bursting = Clock::now() < stopAt;
    for (Stream& s : background)
      if (!rig.play(s)) rig.close(s), rig.open(s);
    if (bursting && p % o.burstPeriods == o.burstPeriods - 1)
      for (int i = 0; i < o.burst; ++i)
        if (Stream s; rig.open(s)) starting.push_back(s);
    rig.endPeriod();
    for (nextPeriod += period; Clock::now() < nextPeriod;) {
      for (auto it = starting.begin(); it != starting.end();) {
        if (!rig.started(*it)) {
          ++it;
          continue;
        }
        starts.push_back(std::chrono::duration<double, std::milli>(Clock::now() - it->opened).count());
        rig.close(*it);
        it = starting.erase(it);
      }
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    if (!bursting && starting.empty()) break;
  }
  for (const Stream& s : background) rig.close(s);
  for (const Stream& s : starting) rig.close(s);
  rig.settle();
  return starts;
}

// The test files in `work`, written and dropped from the page cache; the error, if any.
std::string writeFiles(const std::filesystem::path& work, const StreamStartOptions& o,
                       std::vector<std::filesystem::path>& paths, bool& cacheDropped) {
  Xorshift rng(o.seed);
  for (int f = 0; f < o.files; ++f) {
    paths.push_back(work / ("s" + std::to_string(f) + ".wav"));
    if (!writeNoiseWav(paths.back(), static_cast<int64_t>(o.fileSeconds * kRate), rng))
      return "cannot write " + paths.back().string();
  }
  for (const auto& p : paths) cacheDropped = dropFromCache(p) && cacheDropped;
  return {};
}

// Loads the files with no preload (every frame streams) and measures the starts.
std::string measureFiles(const std::vector<std::filesystem::path>& paths, const StreamStartOptions& o,
                         std::vector<double>& starts) {
  stream::SamplePool pool(stream::PoolOptions{0, 0, 0});
  std::vector<const SampleData*> samples;
  for (const auto& p : paths)
    if (const SampleData* s = pool.acquire(p.string())) samples.push_back(s);
  if (samples.size() != paths.size()) return "cannot read back the files written";
  Rig rig(samples, o);
  starts = measure(rig, o);
  return {};
}

}  // namespace

StreamStartOptions quickStreamStart(StreamStartOptions options) {
  options.files = 16;
  options.fileSeconds = 10.0;
  options.seconds = 4.0;
  return options;
}

int64_t preloadForStart(double worstMs) noexcept {
  const double frames = 2.0 * (worstMs / 1000.0 * kRate + kPeriod);
  return std::max<int64_t>(2048, static_cast<int64_t>(std::ceil(frames / 1024.0)) * 1024);
}

StreamStartResult runStreamStart(const StreamStartOptions& o, const std::function<void(const std::string&)>& progress) {
  StreamStartResult result;
  std::error_code ec;
  const std::filesystem::path work = o.dir / ("spindle-streamstart-" + std::to_string(::getpid()));
  std::filesystem::create_directories(work, ec);
  if (ec) {
    result.error = "cannot make " + work.string() + ": " + ec.message();
    return result;
  }
  if (progress) progress("stream starts: writing " + std::to_string(o.files) + " files of " +
                         std::to_string(static_cast<int>(o.fileSeconds)) + " s in " + work.string());
  std::vector<std::filesystem::path> paths;
  result.error = writeFiles(work, o, paths, result.cacheDropped);
  if (result.error.empty()) {
    if (progress) progress("stream starts: " + std::to_string(o.background) + " streams reading, " +
                           std::to_string(o.burst) + " started at once every " + std::to_string(o.burstPeriods) +
                           " periods, for " + std::to_string(static_cast<int>(o.seconds)) + " s");
    result.error = measureFiles(paths, o, result.startsMs);
  }
  std::filesystem::remove_all(work, ec);
  std::sort(result.startsMs.begin(), result.startsMs.end());
  if (result.error.empty() && result.startsMs.empty()) result.error = "no stream started";
  if (!result.error.empty()) return result;
  result.medianMs = percentileOf(result.startsMs, 0.5);
  result.p99Ms = percentileOf(result.startsMs, 0.99);
  result.worstMs = result.startsMs.back();
  result.preloadFrames = preloadForStart(result.worstMs);
  return result;
}

}  // namespace spindle::tools
