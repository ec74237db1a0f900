// A TUN device for spindle-netdelay: raw IP packets (no packet information header),
// non-blocking. The device exists while its descriptor is open and may be moved into
// another network namespace (`ip link set NAME netns NS`) with the descriptor still
// reading and writing it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace spindle::netdelay {

class Tun {
public:
  // Creates the device NAME; throws std::runtime_error naming it and the reason.
  explicit Tun(const std::string& name);
  ~Tun();
  Tun(const Tun&) = delete;
  Tun& operator=(const Tun&) = delete;

  int fd() const { return fd_; }
  const std::string& name() const { return name_; }
  // One packet into `packet` (sized to it); false when none is waiting.
  bool read(std::vector<uint8_t>& packet);
  // False when the device refused it (down, or its queue full).
  bool write(const std::vector<uint8_t>& packet);

private:
  std::string name_;
  int fd_ = -1;
  std::vector<uint8_t> buffer_ = std::vector<uint8_t>(65536);  // the largest packet
};

}  // namespace spindle::netdelay
