#include "tools/DiskBench.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>

namespace spindle::tools {
namespace {

using Clock = std::chrono::steady_clock;
constexpr uint64_t kMiB = 1u << 20;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Owns the benchmark's private folder and its open files; removes both on destruction.
struct WorkFiles {
  std::filesystem::path dir;
  std::vector<int> fds;

  ~WorkFiles() {
    for (int fd : fds) close(fd);
    std::error_code ec;
    if (!dir.empty()) std::filesystem::remove_all(dir, ec);
  }
};

// Incompressible bytes, so no filesystem or disk can shortcut the writes.
void fillRandom(std::vector<char>& block, std::mt19937& rng) {
  for (size_t i = 0; i + 4 <= block.size(); i += 4) {
    const uint32_t word = rng();
    std::memcpy(block.data() + i, &word, 4);
  }
}

bool createFiles(const DiskBenchOptions& o, WorkFiles& work, std::mt19937& rng, DiskBenchResult& result) {
  std::vector<char> block(kMiB);
  const auto start = Clock::now();
  for (int i = 0; i < o.files; ++i) {
    const std::filesystem::path path = work.dir / ("stream" + std::to_string(i) + ".bin");
    const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
      result.error = "cannot create " + path.string() + ": " + std::strerror(errno);
      return false;
    }
    work.fds.push_back(fd);
    for (uint64_t written = 0; written < o.fileBytes; written += block.size()) {
      fillRandom(block, rng);
      if (write(fd, block.data(), block.size()) != static_cast<ssize_t>(block.size())) {
        result.error = "cannot write " + path.string() + ": " + std::strerror(errno) + " (disk full?)";
        return false;
      }
    }
    fsync(fd);
  }
  result.writeMiBPerSecond = static_cast<double>(o.fileBytes * static_cast<uint64_t>(o.files) / kMiB) / secondsSince(start);
  return true;
}

// fsync, then ask the kernel to drop the files' pages: the next reads come from the disk.
bool dropCache(const WorkFiles& work) {
  bool dropped = true;
  for (int fd : work.fds) {
    fsync(fd);
    dropped = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0 && dropped;
  }
  return dropped;
}

void seekTest(const DiskBenchOptions& o, const WorkFiles& work, std::mt19937& rng, DiskBenchResult& result) {
  std::uniform_int_distribution<uint64_t> offset(0, o.fileBytes - 2);
  std::uniform_int_distribution<size_t> file(0, work.fds.size() - 1);
  char two[2];
  int done = 0;
  const auto start = Clock::now();
  while (done < o.seeks && secondsSince(start) < o.secondsPerSize) {
    if (pread(work.fds[file(rng)], two, sizeof two, static_cast<off_t>(offset(rng))) < 0) break;
    ++done;
  }
  const double seconds = secondsSince(start);
  result.seeksPerSecond = done / std::max(seconds, 1e-9);
  result.meanSeekMs = done ? 1000.0 * seconds / done : 0;
}

// One pass: every file is streamed from its own random starting block, one read per file
// in turn (the head seeks between files after every read), until each has been read through
// once or the time is up.
ReadSizeResult streamPass(const DiskBenchOptions& o, const WorkFiles& work, uint64_t readSize, std::mt19937& rng,
                          std::vector<char>& buffer) {
  ReadSizeResult r;
  r.readSize = readSize;
  const uint64_t blocks = std::max<uint64_t>(o.fileBytes / readSize, 1);
  std::uniform_int_distribution<uint64_t> startBlock(0, blocks - 1);
  std::vector<uint64_t> position(work.fds.size());
  for (uint64_t& p : position) p = startBlock(rng) * readSize;
  const uint64_t total = blocks * readSize * work.fds.size();
  const auto start = Clock::now();
  while (r.bytes < total && secondsSince(start) < o.secondsPerSize) {
    for (size_t f = 0; f < work.fds.size(); ++f) {
      const auto before = Clock::now();
      const ssize_t n = pread(work.fds[f], buffer.data(), readSize, static_cast<off_t>(position[f]));
      r.worstReadMs = std::max(r.worstReadMs, 1000.0 * secondsSince(before));
      if (n <= 0) return r;
      r.bytes += static_cast<uint64_t>(n);
      ++r.reads;
      position[f] = (position[f] + readSize) % (blocks * readSize);
    }
  }
  r.seconds = secondsSince(start);
  r.mibPerSecond = static_cast<double>(r.bytes) / kMiB / std::max(r.seconds, 1e-9);
  r.meanReadMs = r.reads ? 1000.0 * r.seconds / static_cast<double>(r.reads) : 0;
  return r;
}

}  // namespace

DiskBenchResult runDiskBench(const DiskBenchOptions& o, const std::function<void(const std::string&)>& progress) {
  DiskBenchResult result;
  result.files = o.files;
  result.fileBytes = o.fileBytes;
  auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  WorkFiles work;
  std::string templ = (o.dir / "spindle-diskbench-XXXXXX").string();
  if (o.files < 1 || o.fileBytes < kMiB || !mkdtemp(templ.data())) {
    result.error = "cannot create a work folder in " + o.dir.string() + ": " + std::strerror(errno);
    return result;
  }
  work.dir = result.workDir = templ;
  std::mt19937 rng(o.seed);
  say("writing " + std::to_string(o.files) + " files of " + std::to_string(o.fileBytes / kMiB) + " MiB in " +
      work.dir.string());
  if (!createFiles(o, work, rng, result)) return result;
  say("seek test: random 2-byte reads across the files");
  result.cacheDropped = dropCache(work);
  seekTest(o, work, rng, result);
  std::vector<char> buffer(*std::max_element(o.readSizes.begin(), o.readSizes.end()));
  for (uint64_t size : o.readSizes) {
    say("streaming with " + std::to_string(size >> 10) + " KiB reads");
    result.cacheDropped = dropCache(work) && result.cacheDropped;
    result.sizes.push_back(streamPass(o, work, size, rng, buffer));
  }
  return result;
}

}  // namespace spindle::tools
