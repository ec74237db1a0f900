#include "library/Watcher.h"

#include <sys/inotify.h>
#include <unistd.h>

#include <array>
#include <cstring>

namespace spindle::library::detail {

namespace fs = std::filesystem;

namespace {

constexpr uint32_t kEvents = IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CLOSE_WRITE | IN_DELETE_SELF;

}  // namespace

Watcher::Watcher() : fd_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {}

Watcher::~Watcher() {
  if (fd_ >= 0) close(fd_);
}

void Watcher::watchFolder(const fs::path& folder) {
  const int wd = inotify_add_watch(fd_, folder.c_str(), kEvents | IN_ONLYDIR);
  if (wd >= 0) folders_[wd] = folder;
}

void Watcher::watchTree(const fs::path& root) {
  std::error_code ec;
  if (fd_ < 0 || !fs::is_directory(root, ec)) return;
  watchFolder(root);
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec))
    if (it->is_directory(ec)) watchFolder(it->path());
}

bool Watcher::drain() {
  if (fd_ < 0) return false;
  alignas(inotify_event) std::array<char, 16384> buffer;
  bool changed = false;
  for (;;) {
    const ssize_t got = read(fd_, buffer.data(), buffer.size());
    if (got <= 0) return changed;
    for (ssize_t at = 0; at < got;) {
      inotify_event event;
      std::memcpy(&event, buffer.data() + at, sizeof event);
      const auto folder = folders_.find(event.wd);
      const fs::path where = folder != folders_.end() ? folder->second : fs::path();
      if (event.mask & IN_IGNORED) folders_.erase(event.wd);
      else if (!where.empty()) changed = true;
      const bool newFolder = (event.mask & IN_ISDIR) && (event.mask & (IN_CREATE | IN_MOVED_TO));
      if (!where.empty() && newFolder && event.len) watchTree(where / (buffer.data() + at + sizeof(inotify_event)));
      at += static_cast<ssize_t>(sizeof(inotify_event) + event.len);
    }
  }
}

}  // namespace spindle::library::detail
