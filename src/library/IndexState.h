#pragma once
// What an Index holds and shares between its scan thread and its callers. Private to
// src/library (LibraryIndex.cpp: the callers' side; ScanThread.cpp: the thread's).
//
// Threads: `mutex` guards `entries` and `options.roots`; the counters are atomics any
// thread reads. The scan thread alone runs scans, reads inotify and writes the cache
// file; callers only ask for a scan (scanWanted + a write to `wake`).
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "library/LibraryIndex.h"

namespace spindle::library::detail {

struct IndexState {
  Options options;
  mutable std::mutex mutex;
  std::map<std::string, Entry> entries;  // by path
  std::atomic<std::uint64_t> serial{0};
  std::atomic<std::uint64_t> loads{0};   // instruments read with the loader
  std::atomic<int> done{0}, total{0};
  std::atomic<bool> scanning{false};     // a scan is asked for or running
  std::atomic<bool> scanWanted{false}, cancel{false}, stop{false};
  int wake = -1;                         // eventfd: a scan is asked for, or stop
  std::mutex idleMutex;
  std::condition_variable idle;          // notified when a scan ends
  std::thread thread;

  void requestScan();
  void publish(Entry entry);             // adds or replaces one entry
};

// The scan thread's body (ScanThread.cpp).
void runScanThread(IndexState& state);
// The entries of the cache file, or none when it is missing or unreadable.
std::map<std::string, Entry> readCache(const std::filesystem::path& file);
void writeCache(const std::filesystem::path& file, const std::map<std::string, Entry>& entries);

}  // namespace spindle::library::detail
