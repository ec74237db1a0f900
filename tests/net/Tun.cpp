#include "Tun.h"

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace spindle::netdelay {

Tun::Tun(const std::string& name) : name_(name) {
  if (name.empty() || name.size() >= IFNAMSIZ)
    throw std::runtime_error("TUN name '" + name + "': 1 to 15 characters");
  fd_ = ::open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error("/dev/net/tun: " + std::string(std::strerror(errno)));
  ifreq request{};
  std::strncpy(request.ifr_name, name.c_str(), IFNAMSIZ - 1);
  request.ifr_flags = IFF_TUN | IFF_NO_PI;
  if (::ioctl(fd_, TUNSETIFF, &request) < 0) {
    const std::string reason = std::strerror(errno);
    ::close(fd_);
    throw std::runtime_error("TUN " + name + ": " + reason);
  }
}

Tun::~Tun() { ::close(fd_); }

bool Tun::read(std::vector<uint8_t>& packet) {
  const ssize_t n = ::read(fd_, buffer_.data(), buffer_.size());
  if (n <= 0) return false;
  packet.assign(buffer_.begin(), buffer_.begin() + n);
  return true;
}

bool Tun::write(const std::vector<uint8_t>& packet) {
  return ::write(fd_, packet.data(), packet.size()) == static_cast<ssize_t>(packet.size());
}

}  // namespace spindle::netdelay
