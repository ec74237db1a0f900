#include "tools/SystemRoot.h"

#include <grp.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "tools/Process.h"

namespace spindle::tools {
namespace {

uint64_t fromRlim(rlim_t value) {
  return value == RLIM_INFINITY ? Limit::kUnlimited : static_cast<uint64_t>(value);
}

Limit liveLimit(int resource) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0) return {};
  return {fromRlim(limit.rlim_cur), fromRlim(limit.rlim_max)};
}

std::string groupName(gid_t gid) {
  const group* entry = getgrgid(gid);
  return entry ? std::string(entry->gr_name) : std::to_string(gid);
}

UserInfo liveUser() {
  UserInfo user;
  user.uid = getuid();
  user.euid = geteuid();
  const char* login = getenv("USER");
  user.name = login && *login ? login : (user.uid == 0 ? "root" : std::to_string(user.uid));
  std::vector<gid_t> gids(static_cast<size_t>(std::max(getgroups(0, nullptr), 0)) + 1);
  const int count = getgroups(static_cast<int>(gids.size() - 1), gids.data());
  gids.resize(static_cast<size_t>(std::max(count, 0)));
  gids.push_back(getegid());
  for (gid_t gid : gids) {
    std::string name = groupName(gid);
    if (std::find(user.groups.begin(), user.groups.end(), name) == user.groups.end()) {
      user.groups.push_back(std::move(name));
    }
  }
  return user;
}

}  // namespace

SystemRoot SystemRoot::live() {
  SystemRoot system;
  utsname names{};
  if (::uname(&names) == 0) system.uname = {names.release, names.version, names.machine};
  system.rtprio = liveLimit(RLIMIT_RTPRIO);
  system.memlock = liveLimit(RLIMIT_MEMLOCK);
  system.user = liveUser();
  system.runCommand = captureOutput;
  return system;
}

SystemRoot SystemRoot::fixture(const std::filesystem::path& dir) {
  SystemRoot system;
  system.root = dir;
  system.uname = {"6.1.0-generic", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.0", "x86_64"};
  system.rtprio = {0, 0};
  system.memlock = {8u << 20, 8u << 20};
  system.runCommand = [](const std::vector<std::string>&) { return std::optional<std::string>(); };
  return system;
}

std::filesystem::path SystemRoot::path(std::string_view absolute) const {
  std::string_view relative = absolute;
  while (!relative.empty() && relative.front() == '/') relative.remove_prefix(1);
  return root / std::filesystem::path(relative);
}

std::optional<std::string> SystemRoot::readText(std::string_view absolute) const {
  std::ifstream in(path(absolute), std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

std::optional<std::string> SystemRoot::readLine(std::string_view absolute) const {
  std::optional<std::string> text = readText(absolute);
  if (!text) return std::nullopt;
  return text->substr(0, text->find('\n'));
}

std::vector<std::string> SystemRoot::list(std::string_view absoluteDir) const {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(path(absoluteDir), ec)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool SystemRoot::exists(std::string_view absolute) const {
  std::error_code ec;
  return std::filesystem::exists(path(absolute), ec);
}

bool SystemRoot::writable(std::string_view absolute) const {
  if (isLive()) return access(path(absolute).c_str(), W_OK) == 0;
  // A fixture: judge the file's mode bits for `user`, not for the test process.
  struct stat info {};
  if (stat(path(absolute).c_str(), &info) != 0) return false;
  if (user.euid == 0 || (info.st_mode & S_IWOTH)) return true;
  if ((info.st_mode & S_IWUSR) && info.st_uid == user.euid) return true;
  const std::string owner = groupName(info.st_gid);
  const bool inGroup = std::find(user.groups.begin(), user.groups.end(), owner) != user.groups.end();
  return (info.st_mode & S_IWGRP) && inGroup;
}

std::vector<std::string> splitWords(std::string_view text) {
  std::vector<std::string> words;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t start = text.find_first_not_of(" \t\n\r", pos);
    if (start == std::string_view::npos) break;
    const size_t end = std::min(text.find_first_of(" \t\n\r", start), text.size());
    words.emplace_back(text.substr(start, end - start));
    pos = end;
  }
  return words;
}

std::string trim(std::string_view text) {
  const size_t start = text.find_first_not_of(" \t\n\r");
  if (start == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(" \t\n\r");
  return std::string(text.substr(start, end - start + 1));
}

}  // namespace spindle::tools
