#include "tools/Stress.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace spindle::tools {

bool parseStressList(const std::string& list, StressOptions& out, std::string& error) {
  std::istringstream words(list);
  for (std::string word; std::getline(words, word, ',');) {
    if (word == "disk") {
      out.disk = true;
    } else if (word == "cpu") {
      out.cpu = true;
    } else if (word == "proc") {
      out.proc = true;
    } else {
      error = "unknown stress '" + word + "' (disk, cpu, proc)";
      return false;
    }
  }
  return true;
}

namespace {

constexpr size_t kBlock = 1u << 20;

// Writes up to `bytes` in 1 MiB blocks (fewer if stopped or over budget), then fsyncs.
uint64_t writeFile(const std::filesystem::path& path, const std::vector<char>& block, uint64_t bytes,
                   uint64_t budget, const std::atomic<bool>& stop) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return 0;
  uint64_t written = 0;
  while (written < bytes && written < budget && !stop.load(std::memory_order_relaxed)) {
    const ssize_t n = write(fd, block.data(), block.size());
    if (n <= 0) break;
    written += static_cast<uint64_t>(n);
  }
  fsync(fd);
  close(fd);
  return written;
}

// Reads a file from disk (its cache dropped first) into `sink`; returns the bytes read.
uint64_t readCold(const std::filesystem::path& path, std::vector<char>& sink, const std::atomic<bool>& stop) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  uint64_t total = 0;
  ssize_t n = 0;
  while (!stop.load(std::memory_order_relaxed) && (n = read(fd, sink.data(), sink.size())) > 0) {
    total += static_cast<uint64_t>(n);
  }
  close(fd);
  return total;
}

// Copies src to dst the way cp does (read, write), then fsyncs; returns the bytes written.
uint64_t copyFile(const std::filesystem::path& src, const std::filesystem::path& dst, std::vector<char>& buffer,
                  uint64_t budget, const std::atomic<bool>& stop) {
  const int in = open(src.c_str(), O_RDONLY | O_CLOEXEC);
  const int out = open(dst.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  uint64_t copied = 0;
  ssize_t n = 0;
  while (in >= 0 && out >= 0 && copied < budget && !stop.load(std::memory_order_relaxed) &&
         (n = read(in, buffer.data(), buffer.size())) > 0) {
    if (write(out, buffer.data(), static_cast<size_t>(n)) != n) break;
    copied += static_cast<uint64_t>(n);
  }
  if (out >= 0) fsync(out);
  if (in >= 0) close(in);
  if (out >= 0) close(out);
  return copied;
}

}  // namespace

StressLoad::StressLoad(StressOptions options) : options_(std::move(options)) {}

StressLoad::~StressLoad() { stop(); }

void StressLoad::start() {
  stop_.store(false);
  if (options_.disk) {
    std::error_code ec;
    const std::filesystem::path parent =
        options_.tempParent.empty() ? std::filesystem::temp_directory_path(ec) : options_.tempParent;
    std::string templ = (parent / "spindle-stress-XXXXXX").string();
    if (mkdtemp(templ.data())) {
      dir_ = templ;
      threads_.emplace_back([this] { diskLoop(); });
    } else {
      diskError_ = "cannot create a folder in " + parent.string();
    }
  }
  if (options_.proc) threads_.emplace_back([this] { procLoop(); });
  if (options_.cpu) {
    const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < cpus; ++i) threads_.emplace_back([this] { cpuLoop(); });
  }
}

void StressLoad::stop() {
  stop_.store(true);
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
}

void StressLoad::diskLoop() {
  std::vector<char> block(kBlock, 'S');
  std::vector<char> buffer(kBlock);
  const std::filesystem::path written = dir_ / "written.bin", copy = dir_ / "copy.bin";
  while (!stop_.load(std::memory_order_relaxed)) {
    const uint64_t used = counters_.bytesWritten.load() + counters_.bytesCopied.load();
    if (used >= options_.diskLimitBytes) break;
    const uint64_t w = writeFile(written, block, options_.fileBytes, options_.diskLimitBytes - used, stop_);
    counters_.bytesWritten += w;
    const uint64_t left = options_.diskLimitBytes - std::min(options_.diskLimitBytes, used + w);
    counters_.bytesCopied += copyFile(written, copy, buffer, left, stop_);
    counters_.bytesRead += readCold(written, buffer, stop_) + readCold(copy, buffer, stop_);
    std::error_code ec;
    std::filesystem::remove(written, ec);
    std::filesystem::remove(copy, ec);
    if (w == 0) break;  // the disk is full or unwritable: stop trying
  }
}

namespace {

// Reads a /proc file whole; a process that ends while it is read makes the read fail
// (ESRCH), which libstdc++'s filebuf throws whatever the stream's exception mask: that
// file is then skipped.
void readProcFile(const std::string& path) {
  try {
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure&) {
  }
}

}  // namespace

void StressLoad::procLoop() {
  while (!stop_.load(std::memory_order_relaxed)) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
      const std::string name = entry.path().filename().string();
      if (name.empty() || name[0] < '0' || name[0] > '9') continue;
      for (const char* file : {"/stat", "/status", "/cmdline"}) {
        readProcFile(entry.path().string() + file);
        ++counters_.procFilesRead;
      }
    }
    for (const char* file : {"/proc/meminfo", "/proc/stat", "/proc/interrupts", "/proc/loadavg"}) {
      readProcFile(file);
      ++counters_.procFilesRead;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));  // top -d 0.01
  }
}

void StressLoad::cpuLoop() {
  volatile double sink = 0;  // keeps the arithmetic from being optimised away; one thread only
  while (!stop_.load(std::memory_order_relaxed)) {
    double x = 1.0;
    for (int i = 1; i < 100000; ++i) x = std::sqrt(x + i);
    sink = x;
    ++counters_.cpuLoops;
  }
  (void)sink;
}

std::vector<std::string> StressLoad::summary() const {
  std::vector<std::string> lines;
  constexpr uint64_t kMiB = 1u << 20;
  if (options_.disk) {
    lines.push_back(diskError_.empty()
                        ? "disk: wrote " + std::to_string(counters_.bytesWritten / kMiB) + " MiB, copied " +
                              std::to_string(counters_.bytesCopied / kMiB) + " MiB, read back " +
                              std::to_string(counters_.bytesRead / kMiB) + " MiB in " + dir_.string() + " (removed)"
                        : "disk: " + diskError_);
  }
  if (options_.proc) lines.push_back("proc: read " + std::to_string(counters_.procFilesRead) + " /proc files");
  if (options_.cpu) {
    lines.push_back("cpu: " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) +
                    " busy threads, " + std::to_string(counters_.cpuLoops) + " loops");
  }
  return lines;
}

}  // namespace spindle::tools
