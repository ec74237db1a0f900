#pragma once
// SystemRoot: where spindle-doctor looks at the machine.
//
// Every check reads files through a root prefix (/proc, /sys, /boot, /etc/security, /dev
// live under it) and takes uname, resource limits, the user's groups and helper-program
// output from plain data members. SystemRoot::live() describes this machine; tests build
// SystemRoot::fixture(dir) over a tree they write and set the members they need.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spindle::tools {

struct UnameInfo {
  std::string release;  // uname -r, e.g. "6.8.0-31-lowlatency"
  std::string version;  // uname -v, e.g. "#1 SMP PREEMPT_DYNAMIC ..."
  std::string machine;  // uname -m
};

// A resource limit; kUnlimited stands for RLIM_INFINITY.
struct Limit {
  static constexpr uint64_t kUnlimited = UINT64_MAX;
  uint64_t soft = 0;
  uint64_t hard = 0;
};

struct UserInfo {
  uid_t uid = 1000;   // real user
  uid_t euid = 1000;  // effective user: 0 may apply runtime changes
  std::string name = "user";
  std::vector<std::string> groups;  // names of every group the process belongs to
};

// Runs a helper program (argv) and returns its output, or nothing when unavailable.
using CommandRunner = std::function<std::optional<std::string>(const std::vector<std::string>&)>;

struct SystemRoot {
  std::filesystem::path root = "/";
  UnameInfo uname;
  Limit rtprio;   // RLIMIT_RTPRIO (priority)
  Limit memlock;  // RLIMIT_MEMLOCK (bytes)
  UserInfo user;
  CommandRunner runCommand;

  // This machine: root "/", uname(2), getrlimit(2), getgroups(2), helper programs from PATH.
  static SystemRoot live();
  // A tree under `dir`: generic values, an unprivileged user, no helper programs.
  static SystemRoot fixture(const std::filesystem::path& dir);

  bool isLive() const { return root == "/"; }
  // `absolute` ("/proc/cmdline") under the root prefix.
  std::filesystem::path path(std::string_view absolute) const;
  // Whole text file; nothing when missing or unreadable.
  std::optional<std::string> readText(std::string_view absolute) const;
  // First line without its newline.
  std::optional<std::string> readLine(std::string_view absolute) const;
  // Entry names of a folder, sorted; empty when missing.
  std::vector<std::string> list(std::string_view absoluteDir) const;
  bool exists(std::string_view absolute) const;
  // Whether `user` may write it: access(W_OK) when live, the file's mode bits, owner and
  // group judged against `user` in a fixture (tests run as root, so access() would not do).
  bool writable(std::string_view absolute) const;
};

// Splits on blanks (space, tab, newline).
std::vector<std::string> splitWords(std::string_view text);
std::string trim(std::string_view text);

}  // namespace spindle::tools
