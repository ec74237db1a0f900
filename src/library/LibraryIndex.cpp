// Index: the callers' side (any non-audio thread). The scan itself: ScanThread.cpp.
#include "library/LibraryIndex.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <utility>

#include "library/IndexState.h"

namespace spindle::library {

namespace fs = std::filesystem;

namespace detail {

void IndexState::requestScan() {
  {
    std::lock_guard lock(idleMutex);
    cancel.store(false);
    scanning.store(true);
    scanWanted.store(true);
  }
  const std::uint64_t one = 1;
  [[maybe_unused]] const ssize_t put = write(wake, &one, sizeof one);
}

void IndexState::publish(Entry entry) {
  std::lock_guard lock(mutex);
  const std::string path = entry.path;
  entries[path] = std::move(entry);
  serial.fetch_add(1, std::memory_order_release);
}

}  // namespace detail

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool contains(const std::string& text, const std::string& lowered) { return lower(text).find(lowered) != std::string::npos; }

bool matches(const Entry& e, const std::string& lowered) {
  if (contains(e.name, lowered) || contains(e.format, lowered) || contains(e.root, lowered) ||
      contains(fs::path(e.path).parent_path().filename().string(), lowered))
    return true;
  for (const std::string& control : e.controls)
    if (contains(control, lowered)) return true;
  for (const Preset& preset : e.presets)
    if (contains(preset.name, lowered)) return true;
  return false;
}

// Name order (case-insensitive), then path; each name lowered once, not per comparison
// (the window fetches thousands of entries while a scan runs).
void sortEntries(std::vector<Entry>& entries) {
  std::vector<std::pair<std::string, std::size_t>> keys;
  keys.reserve(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) keys.emplace_back(lower(entries[i].name), i);
  std::sort(keys.begin(), keys.end(), [&](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : entries[a.second].path < entries[b.second].path;
  });
  std::vector<Entry> sorted;
  sorted.reserve(entries.size());
  for (const auto& key : keys) sorted.push_back(std::move(entries[key.second]));
  entries = std::move(sorted);
}

}  // namespace

Index::Index(Options options) : state_(std::make_unique<detail::IndexState>()) {
  state_->options = std::move(options);
  state_->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

Index::~Index() {
  if (state_->thread.joinable()) {
    state_->stop.store(true);
    state_->cancel.store(true);
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t put = write(state_->wake, &one, sizeof one);
    state_->thread.join();
  }
  if (state_->wake >= 0) close(state_->wake);
}

void Index::start() {
  if (state_->thread.joinable()) return;
  if (!state_->options.cacheFile.empty()) {
    std::map<std::string, Entry> cached = detail::readCache(state_->options.cacheFile);
    std::lock_guard lock(state_->mutex);
    state_->entries = std::move(cached);
    state_->serial.fetch_add(1, std::memory_order_release);
  }
  state_->requestScan();
  state_->thread = std::thread([s = state_.get()] { detail::runScanThread(*s); });
}

void Index::rescan() { state_->requestScan(); }

void Index::cancel() { state_->cancel.store(true); }

std::vector<Entry> Index::entries() const {
  std::vector<Entry> out;
  {
    std::lock_guard lock(state_->mutex);
    out.reserve(state_->entries.size());
    for (const auto& [path, entry] : state_->entries) out.push_back(entry);
  }
  sortEntries(out);
  return out;
}

std::vector<Entry> Index::search(const std::string& text) const {
  const std::string lowered = lower(text);
  std::vector<Entry> out = entries();
  std::erase_if(out, [&](const Entry& e) { return !matches(e, lowered); });
  return out;
}

std::uint64_t Index::serial() const { return state_->serial.load(std::memory_order_acquire); }

Progress Index::progress() const { return {state_->done.load(), state_->total.load(), state_->scanning.load()}; }

void Index::addRoot(const fs::path& folder) {
  {
    std::lock_guard lock(state_->mutex);
    const fs::path normal = fs::absolute(folder).lexically_normal();
    auto& roots = state_->options.roots;
    if (std::find(roots.begin(), roots.end(), normal) == roots.end()) roots.push_back(normal);
  }
  if (state_->thread.joinable()) state_->requestScan();
}

bool Index::waitIdle(std::chrono::milliseconds timeout) {
  std::unique_lock lock(state_->idleMutex);
  return state_->idle.wait_for(lock, timeout, [&] { return !state_->scanning.load(); });
}

std::uint64_t Index::loads() const { return state_->loads.load(std::memory_order_relaxed); }

std::vector<fs::path> Index::roots() const {
  std::lock_guard lock(state_->mutex);
  return state_->options.roots;
}

}  // namespace spindle::library
