#pragma once
// The INET sockets a process owns and the local addresses they are bound to, from
// /proc/PID/fd and /proc/net/{udp,tcp,udp6,tcp6}: proof of what listens where.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace spindle::test {

struct BoundSocket {
  std::string protocol;  // udp, tcp, udp6, tcp6
  std::string address;   // as /proc prints it: 0100007F = 127.0.0.1, 00000000 = any
  int port = 0;
  bool loopback() const {
    return address == "0100007F" || address == "00000000000000000000000001000000";
  }
};

inline std::vector<BoundSocket> boundSockets(int pid) {
  std::set<std::string> inodes;
  const std::filesystem::path fdDir = "/proc/" + std::to_string(pid) + "/fd";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(fdDir, ec)) {
    const std::string target = std::filesystem::read_symlink(entry.path(), ec).string();
    if (target.rfind("socket:[", 0) == 0) inodes.insert(target.substr(8, target.size() - 9));
  }
  std::vector<BoundSocket> out;
  for (const char* protocol : {"udp", "tcp", "udp6", "tcp6"}) {
    std::ifstream table("/proc/" + std::to_string(pid) + "/net/" + protocol);
    std::string line;
    std::getline(table, line);  // header
    while (std::getline(table, line)) {
      std::istringstream in(line);
      std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
      in >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >> timeout >> inode;
      if (!inodes.count(inode)) continue;
      const auto colon = local.find(':');
      out.push_back({protocol, local.substr(0, colon), std::stoi(local.substr(colon + 1), nullptr, 16)});
    }
  }
  return out;
}

}  // namespace spindle::test
