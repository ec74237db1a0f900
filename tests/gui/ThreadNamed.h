// The id of one of this process's threads, found by its name (shared by the library
// window's scale test and bench/library_gui.cpp, which both watch the index's scan thread).
#pragma once

#include <dirent.h>
#include <sys/types.h>

#include <fstream>
#include <string>

// The id of this process's thread named `name` (the index names its scan thread), or 0.
inline pid_t threadNamed(const std::string& name) {
  DIR* tasks = opendir("/proc/self/task");
  pid_t found = 0;
  while (dirent* d = tasks ? readdir(tasks) : nullptr) {
    std::string comm;
    std::ifstream(std::string("/proc/self/task/") + d->d_name + "/comm") >> comm;
    if (comm == name) found = static_cast<pid_t>(std::stoi(d->d_name));
  }
  if (tasks) closedir(tasks);
  return found;
}
