#pragma once
// Test helpers for the tools: temporary trees, running executables, a dummy JACK server.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace spindle::test {

// A fresh folder under the system temporary folder, removed with everything in it.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    std::string templ = (std::filesystem::temp_directory_path() / ("spindle-" + tag + "-XXXXXX")).string();
    if (!mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
    path_ = templ;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // Writes `text` at `relative` (leading '/' allowed), creating folders.
  std::filesystem::path write(const std::string& relative, const std::string& text, mode_t mode = 0644) const {
    const std::filesystem::path file = path_ / std::filesystem::path(relative).relative_path();
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    chmod(file.c_str(), mode);
    return file;
  }

 private:
  std::filesystem::path path_;
};

inline std::string readAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Starts argv with stdout and stderr going to `log`; returns the pid (or -1).
inline pid_t spawnLogged(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

// Waits up to `timeout` for pid; true when it exited (its status in `status`).
inline bool waitFor(pid_t pid, std::chrono::milliseconds timeout, int& status) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < end) {
    if (waitpid(pid, &status, WNOHANG) == pid) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

struct RunResult {
  int exitCode = -1;
  std::string out;  // stdout and stderr together
};

// Runs argv to completion (at most `timeout`, then it is killed), capturing its output.
inline RunResult runTool(const std::vector<std::string>& argv, const std::filesystem::path& logDir,
                         std::chrono::seconds timeout = std::chrono::seconds(120)) {
  const std::filesystem::path log = logDir / "tool-output.txt";
  RunResult result;
  const pid_t pid = spawnLogged(argv, log);
  if (pid < 0) return result;
  int status = 0;
  if (!waitFor(pid, timeout, status)) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  } else if (WIFEXITED(status)) {
    result.exitCode = WEXITSTATUS(status);
  }
  result.out = readAll(log);
  return result;
}

// A dummy-backend jackd under its own server name, stopped by PID: SIGTERM, SIGTERM again
// (jackd may ignore the first while it starts up or shuts down), then SIGKILL.
class DummyJackServer {
 public:
  DummyJackServer(std::string name, const std::filesystem::path& logDir) : name_(std::move(name)) {
    pid_ = spawnLogged({"jackd", "-n", name_, "-R", "-P", "70", "-d", "dummy", "-r", "48000", "-p", "256"},
                       logDir / "jackd.log");
    if (pid_ > 0) {
      const pid_t waiter = spawnLogged({"jack_wait", "-s", name_, "-w", "-t", "10"}, logDir / "jack_wait.log");
      int status = 0;
      if (waiter > 0 && !waitFor(waiter, std::chrono::seconds(15), status)) {
        kill(waiter, SIGKILL);
        waitpid(waiter, &status, 0);
      }
    }
  }
  ~DummyJackServer() {
    if (pid_ <= 0) return;
    int status = 0;
    for (int signal : {SIGTERM, SIGTERM, SIGKILL}) {
      kill(pid_, signal);
      if (waitFor(pid_, std::chrono::seconds(3), status)) return;
    }
    waitpid(pid_, &status, 0);
  }
  DummyJackServer(const DummyJackServer&) = delete;
  DummyJackServer& operator=(const DummyJackServer&) = delete;

  // True while jackd runs; reaps it (and forgets its pid) when it has exited.
  bool running() {
    int status = 0;
    if (pid_ > 0 && waitpid(pid_, &status, WNOHANG) == pid_) pid_ = -1;
    return pid_ > 0;
  }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  pid_t pid_ = -1;
};

}  // namespace spindle::test
