#include "control/OscServer.h"

#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>
#include <algorithm>

#include "control/NsmClient.h"

namespace spindle::control {


OscServer::OscServer(ControlTarget& target, OscServerOptions options)
    : options_(std::move(options)), core_(target, *this), gate_(options_.auth) {
  core_.setAuthMode(gate_.mode());
}

OscServer::~OscServer() {
  stop();
  for (Stream& s : streams_) ::close(s.fd);
  for (int fd : {udp_, tcp_, wakeFd_})
    if (fd >= 0) ::close(fd);
}

bool OscServer::start(std::string& error) {
  if (options_.port != 0 && !oscExposureAllowed(options_.bindAddress, gate_.hasSecret(), options_.insecure, error))
    return false;
  if (!dispatcher_.create(error)) return false;
  wakeFd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wakeFd_ < 0) {
    error = "eventfd failed";
    return false;
  }
  if (options_.port != 0 && !bindSockets(error)) return false;
  core_.setWake([this] { wake(); });
  running_.store(true, std::memory_order_release);
  thread_ = std::thread([this] { run(); });
  pthread_setname_np(thread_.native_handle(), "control");
  return true;
}

// UDP first (port -1: the kernel picks one), then TCP on the same number.
bool OscServer::bindSockets(std::string& error) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    udp_ = bindSocket(options_.bindAddress, options_.port < 0 ? 0 : options_.port, SOCK_DGRAM, error);
    if (udp_ < 0) return false;
    boundPort_ = localPort(udp_);
    tcp_ = bindSocket(options_.bindAddress, boundPort_, SOCK_STREAM, error);
    if (tcp_ >= 0) return true;
    ::close(udp_);
    udp_ = -1;
    if (options_.port >= 0) return false;
  }
  return false;
}

std::optional<OscServerOptions> oscServerOptions(int port, const std::string& bindAddress, const std::string& secretFile,
                                                 bool requireSigned, bool insecure, std::string& error) {
  OscServerOptions options{port, bindAddress, {}, insecure};
  options.auth.requireSigned = requireSigned;
  if (requireSigned && secretFile.empty()) {
    error = "--osc-require-signed needs --osc-secret-file";
    return std::nullopt;
  }
  if (secretFile.empty()) return options;
  auto secret = readSecretFile(secretFile, error);
  if (!secret) return std::nullopt;
  options.auth.secret = std::move(*secret);
  return options;
}

void OscServer::stop() {
  if (!running_.exchange(false)) return;
  wake();
  if (thread_.joinable()) thread_.join();
}

void OscServer::wake() noexcept {
  const uint64_t one = 1;
  if (wakeFd_ >= 0) [[maybe_unused]] auto ignored = ::write(wakeFd_, &one, sizeof one);
}

void OscServer::run() {
  using Clock = ControlCore::Clock;
  if (nsm_) nsm_->beginSession(core_);
  auto next = core_.tick(Clock::now());
  while (running_.load(std::memory_order_acquire)) {
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next - Clock::now()).count();
    pollOnce(static_cast<int>(std::clamp<long long>(wait, 0, 200)));
    next = core_.tick(Clock::now());
  }
}

void OscServer::pollOnce(int timeoutMs) {
  std::vector<pollfd> fds = {{wakeFd_, POLLIN, 0}, {udp_, POLLIN, 0}, {tcp_, POLLIN, 0},
                             {nsm_ ? nsm_->fd() : -1, POLLIN, 0}};
  for (const Stream& s : streams_) fds.push_back({s.fd, POLLIN, 0});
  if (::poll(fds.data(), fds.size(), timeoutMs) <= 0) return;
  if (fds[0].revents) {
    uint64_t count = 0;
    [[maybe_unused]] auto ignored = ::read(wakeFd_, &count, sizeof count);
  }
  if (fds[1].revents) readUdp();
  if (fds[2].revents) acceptTcp();
  if (fds[3].revents) nsm_->onReadable(core_);
  // Streams from the back, so closing one does not shift those still to visit.
  for (std::size_t k = fds.size(); k-- > 4;)
    if (fds[k].revents && !readStream(streams_[k - 4])) closeStream(k - 4);
}

// At most 256 datagrams per wakeup, so a flood cannot starve ticks and TCP clients.
void OscServer::readUdp() {
  for (int n = 0; n < 256; ++n) {
    Peer from;
    const ssize_t size = receiveDatagram(udp_, receive_, from, boundPort_);
    if (size < 0) return;
    dispatch(from, receive_.data(), static_cast<std::size_t>(size));
  }
}

void OscServer::dispatch(const Peer& from, uint8_t* data, std::size_t size) {
  packets_.fetch_add(1, std::memory_order_relaxed);
  const OscGate::Verdict verdict = gate_.admit(from, data, size, nowMicros());
  if (verdict.refused) return core_.refuse(from, *verdict.refused, verdict.reason);
  Peer sender = from;
  sender.sign = verdict.verified;
  sender.signedBy = verdict.route.sender;
  sender.signedFor = verdict.route.receiver;
  if (verdict.verified) core_.countVerified();
  std::string error;
  if (!dispatcher_.dispatch(verdict.data, verdict.size, [&](const OscMessage& m) { core_.handle(sender, m); }, error))
    core_.reportMalformed(sender, error);
}

}  // namespace spindle::control
