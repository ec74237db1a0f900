// The library index: the instruments installed in the standard places (XDG data folders,
// Hydrogen's and DecentSampler's folders) and the folders the user adds, found on a
// background (loader-priority) thread, kept in a cache file and followed with inotify.
// Plain C++20, no Qt: the headless program and the window share it.
//
// Threads: every public method may be called from any non-audio thread; entries() and
// search() return copies. Never call any of it from the audio thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace spindle::library {

struct Preset { int bank = 0, program = 0; std::string name; };        // a SoundFont's preset
struct Entry {
  std::string name;            // the instrument's name (file stem, preset file's title, kit name)
  std::string format;          // "sfz", "sf2", "dspreset", "dslibrary", "h2drumkit", "hydrogen", "multisample", ...
  std::string path;            // absolute path as Spindle's loaders take it (an archive's path for archives)
  std::string root;            // the indexed folder it was found under
  std::uint64_t bytes = 0;     // size on disk (the file, or the kit/preset folder's files)
  int regions = 0, samples = 0, loKey = -1, hiKey = -1;
  std::vector<std::string> controls;   // labelled controls (SFZ label_cc, DecentSampler knobs)
  std::string picture;         // absolute path of the picture a preset or kit carries; empty when none
  std::vector<Preset> presets; // a SoundFont's presets (bank:program, name), in that order; empty for others
  std::string error;           // empty when it loads cleanly; else the loader's error (file, line)
  std::int64_t modified = 0;   // mtime, seconds
  std::int64_t modifiedNs = 0; // mtime's nanoseconds within `modified` (the cache's key, with path and bytes)
};
struct Progress { int done = 0, total = 0; bool scanning = false; };
struct Options {
  std::vector<std::filesystem::path> roots;   // standardRoots() plus the user's folders
  std::filesystem::path cacheFile;            // defaultCacheFile()
  bool watch = true;                          // follow changes (inotify)
};
std::vector<std::filesystem::path> standardRoots();   // from HOME, XDG_DATA_HOME, XDG_DATA_DIRS and the fixed places
std::filesystem::path defaultCacheFile();             // $XDG_CACHE_HOME/spindle/library.json (or ~/.cache/...)
// The user's folders, kept in spindle.conf ($XDG_CONFIG_HOME/spindle, else ~/.config/spindle)
// under [library] as QSettings writes an array (folders\1\path=..., folders\size=N): the
// window and the headless program read and write the same list.
std::filesystem::path userSettingsPath();
std::vector<std::filesystem::path> userFolders();
bool saveUserFolders(const std::vector<std::filesystem::path>& folders);  // false: not written
std::vector<std::filesystem::path> defaultRoots();    // standardRoots() and userFolders(), each once
namespace detail {
struct IndexState;  // LibraryIndex.cpp, ScanThread.cpp
}
class Index {
 public:
  explicit Index(Options options);
  ~Index();                                   // stops the scan and watch threads
  void start();                               // reads the cache (entries at once), then scans in the background
  void rescan();                              // scans again, in the background
  void cancel();                              // stops the scan in progress; what was found stays
  std::vector<Entry> entries() const;         // a copy of what is known now (thread-safe)
  std::vector<Entry> search(const std::string& text) const;  // case-insensitive match on name, format, folder, controls, preset names
  std::uint64_t serial() const;               // goes up each time entries() changes
  Progress progress() const;
  void addRoot(const std::filesystem::path& folder);         // a user folder: kept in Options and scanned

  // Waits until no scan is asked for or running; false when `timeout` passed first.
  bool waitIdle(std::chrono::milliseconds timeout);
  std::uint64_t loads() const;                // instruments read with the loader so far (not from the cache)
  std::vector<std::filesystem::path> roots() const;

  Index(const Index&) = delete;
  Index& operator=(const Index&) = delete;

 private:
  std::unique_ptr<detail::IndexState> state_;
};

}  // namespace spindle::library
