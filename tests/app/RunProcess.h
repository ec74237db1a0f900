#pragma once
// Runs a command line through the shell and captures its exit status and output.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace spindle::test {

struct ProcessResult {
  int exitCode = -1;
  std::string out, err;
};

// Single-quotes an argument for /bin/sh.
inline std::string shellQuote(const std::string& arg) {
  std::string quoted = "'";
  for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

inline std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs `args` (args[0] = the program) with stdout and stderr captured in files under `dir`.
inline ProcessResult runProcess(const std::vector<std::string>& args, const std::filesystem::path& dir) {
  std::string command;
  for (const std::string& arg : args) command += shellQuote(arg) + " ";
  command += ">" + shellQuote((dir / "stdout.txt").string()) + " 2>" + shellQuote((dir / "stderr.txt").string());
  const int status = std::system(command.c_str());
  ProcessResult result;
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = readText(dir / "stdout.txt");
  result.err = readText(dir / "stderr.txt");
  return result;
}

}  // namespace spindle::test
