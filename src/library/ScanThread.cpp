// The index's scan thread: scans when asked (start, rescan, a new root) and when the
// watched folders change, at the lowest CPU and I/O priority; writes the cache after
// each scan.
#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <sstream>

#include "library/EntryJson.h"
#include "library/IndexState.h"
#include "library/Scan.h"
#include "library/Watcher.h"

namespace spindle::library::detail {

namespace fs = std::filesystem;

namespace {

// Changes come in bursts (a copy, an unpacked archive): the scan waits for this much quiet.
constexpr int kSettleMs = 250;
constexpr int kMaxSettles = 4;  // a folder that never goes quiet is scanned every 1.25 s

void lowerPriority() {
  pthread_setname_np(pthread_self(), "library");
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  setpriority(PRIO_PROCESS, tid, 19);
  constexpr int kIoprioWhoProcess = 1, kIoprioClassIdle = 3, kIoprioClassShift = 13;
  syscall(SYS_ioprio_set, kIoprioWhoProcess, static_cast<int>(tid), kIoprioClassIdle << kIoprioClassShift);
}

bool unchanged(const IndexState& s, const Candidate& c) {
  std::lock_guard lock(s.mutex);
  const auto known = s.entries.find(c.path.string());
  return known != s.entries.end() && known->second.modified == c.modified && known->second.modifiedNs == c.modifiedNs &&
         known->second.bytes == c.bytes &&
         known->second.root == c.root.string();
}

// Every instrument under every root, each path once (the first root that holds it).
std::vector<Candidate> candidates(IndexState& s, Watcher* watcher) {
  std::vector<fs::path> roots;
  {
    std::lock_guard lock(s.mutex);
    roots = s.options.roots;
  }
  std::vector<Candidate> all;
  std::set<std::string> seen;
  for (const fs::path& root : roots) {
    if (watcher) watcher->watchTree(root);
    for (Candidate& c : findCandidates(root, s.cancel))
      if (seen.insert(c.path.string()).second) all.push_back(std::move(c));
  }
  return all;
}

// Drops the entries no longer found.
void forget(IndexState& s, const std::vector<Candidate>& found) {
  std::set<std::string> paths;
  for (const Candidate& c : found) paths.insert(c.path.string());
  std::lock_guard lock(s.mutex);
  const std::size_t before = s.entries.size();
  std::erase_if(s.entries, [&](const auto& item) { return !paths.count(item.first); });
  if (s.entries.size() != before) s.serial.fetch_add(1, std::memory_order_release);
}

// Reads what changed since the entries were made; a cancel (asked before it began, too)
// keeps what it found and forgets nothing.
void scan(IndexState& s, Watcher* watcher) {
  s.done.store(0);
  s.total.store(0);
  const std::vector<Candidate> found = candidates(s, watcher);
  s.total.store(static_cast<int>(found.size()));
  for (const Candidate& c : found) {
    if (s.cancel.load() || s.stop.load()) break;
    if (!unchanged(s, c)) {
      s.publish(describe(c));
      s.loads.fetch_add(1, std::memory_order_relaxed);
    }
    s.done.fetch_add(1);
  }
  if (!s.cancel.load() && !s.stop.load()) forget(s, found);
  std::map<std::string, Entry> copy;
  {
    std::lock_guard lock(s.mutex);
    copy = s.entries;
  }
  if (!s.options.cacheFile.empty()) writeCache(s.options.cacheFile, copy);
}

// Waits for a wake-up or a change; true when the watched folders changed.
bool waitForWork(IndexState& s, Watcher* watcher) {
  pollfd fds[2] = {{s.wake, POLLIN, 0}, {watcher ? watcher->fd() : -1, POLLIN, 0}};
  if (poll(fds, 2, -1) <= 0) return false;
  if (fds[0].revents & POLLIN) {
    std::uint64_t count = 0;
    [[maybe_unused]] const ssize_t got = read(s.wake, &count, sizeof count);
  }
  if (!watcher || !(fds[1].revents & POLLIN) || !watcher->drain()) return false;
  pollfd quiet{watcher->fd(), POLLIN, 0};
  for (int settles = 0; settles < kMaxSettles && poll(&quiet, 1, kSettleMs) > 0 && !s.stop.load(); ++settles)
    watcher->drain();
  return true;
}

void endScan(IndexState& s) {
  {
    std::lock_guard lock(s.idleMutex);
    s.scanning.store(s.scanWanted.load());
  }
  s.idle.notify_all();
}

}  // namespace

void runScanThread(IndexState& s) {
  lowerPriority();
  std::unique_ptr<Watcher> watcher = s.options.watch ? std::make_unique<Watcher>() : nullptr;
  while (!s.stop.load()) {
    if (s.scanWanted.exchange(false)) {
      scan(s, watcher.get());
      endScan(s);
      continue;
    }
    if (waitForWork(s, watcher.get()) && !s.stop.load()) {
      s.scanning.store(true);
      s.scanWanted.store(true);
    }
  }
  endScan(s);
}

std::map<std::string, Entry> readCache(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::map<std::string, Entry> out;
  if (const auto entries = fromJson(text.str()))
    for (const Entry& e : *entries) out[e.path] = e;
  return out;
}

void writeCache(const fs::path& file, const std::map<std::string, Entry>& entries) {
  std::vector<Entry> list;
  for (const auto& [path, entry] : entries) list.push_back(entry);
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  // Several Spindles may write at once: each its own file, renamed over the cache whole.
  const fs::path partial = file.string() + "." + std::to_string(getpid()) + ".partial";
  bool written = false;
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out << toJson(list);
    written = out.good();
  }
  if (written) fs::rename(partial, file, ec);
  if (!written || ec) fs::remove(partial, ec);
}

}  // namespace spindle::library::detail
