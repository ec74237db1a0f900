#pragma once
// Watcher: inotify on every folder under the index's roots (IN_CREATE, IN_MOVED_TO,
// IN_MOVED_FROM, IN_DELETE, IN_CLOSE_WRITE); a folder made later is watched as soon as
// its creation is read. The index's scan thread polls fd() and calls drain(). Private
// to src/library. Thread: one (the scan thread).
#include <filesystem>
#include <map>
#include <vector>

namespace spindle::library::detail {

class Watcher {
 public:
  Watcher();
  ~Watcher();
  Watcher(const Watcher&) = delete;
  Watcher& operator=(const Watcher&) = delete;

  int fd() const { return fd_; }  // -1: inotify is not available
  // Watches `root` and every folder under it (those already watched stay as they are).
  void watchTree(const std::filesystem::path& root);
  // Reads the events waiting; true when any of them changed a watched folder.
  bool drain();

 private:
  void watchFolder(const std::filesystem::path& folder);

  int fd_ = -1;
  std::map<int, std::filesystem::path> folders_;  // watch descriptor -> folder
};

}  // namespace spindle::library::detail
