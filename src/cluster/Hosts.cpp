#include "cluster/Hosts.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <unistd.h>

#include <array>
#include <cstring>

namespace spindle::cluster {

namespace {
constexpr int kPollMs = 50;
constexpr std::size_t kMaxDatagram = 65536;
}  // namespace

Hosts::~Hosts() { stop(); }

void Hosts::setSigning(control::Bytes secret, std::string identity) {
  std::lock_guard lock(mutex_);
  secret_ = std::move(secret);
  identity_ = std::move(identity);
}

void Hosts::setSampleRate(double rate) {
  std::lock_guard lock(mutex_);
  sampleRate_ = rate;
}

bool Hosts::add(const control::HostSettings& host, std::string& error) {
  if (!addEntry(host, error)) return false;
  std::lock_guard lock(startMutex_);
  return running_ || start(error);
}

bool Hosts::addEntry(const control::HostSettings& host, std::string& error) {
  std::lock_guard lock(mutex_);
  for (const auto& entry : entries_)
    if (entry->host->settings().name == host.name) {
      error = "host " + host.name + " is named twice";
      return false;
    }
  auto entry = std::make_unique<Entry>();
  if (!entry->socket.open(host.address, host.port, error)) return false;
  OscTransport* transport = &entry->socket;
  if (!secret_.empty()) {
    const std::string receiver = entry->socket.endpoint();
    entry->signer = std::make_unique<SignedTransport>(entry->socket, secret_, control::SignedRoute{identity_, receiver});
    entry->verifier.emplace(secret_, control::SignedRoute{receiver, identity_});
    transport = entry->signer.get();
  }
  entry->host = std::make_unique<RemoteHost>(host, *transport, timing_);
  entries_.push_back(std::move(entry));
  if (wake_[1] >= 0) [[maybe_unused]] const auto wrote = ::write(wake_[1], "h", 1);
  return true;
}

bool Hosts::empty() {
  std::lock_guard lock(mutex_);
  return entries_.empty();
}

bool Hosts::start(std::string& error) {
  if (!dispatcher_.create(error)) return false;
  if (::pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) {
    error = std::string("cannot make the hosts thread's pipe: ") + std::strerror(errno);
    return false;
  }
  running_ = true;
  thread_ = std::thread([this] { run(); });
  pthread_setname_np(thread_.native_handle(), "hosts");
  return true;
}

void Hosts::stop() {
  if (!running_.exchange(false)) return;
  [[maybe_unused]] const auto wrote = ::write(wake_[1], "q", 1);
  thread_.join();
  ::close(wake_[0]);
  ::close(wake_[1]);
  wake_[0] = wake_[1] = -1;
}

void Hosts::run() {
  std::vector<pollfd> fds;
  while (running_) {
    fds.assign(1, pollfd{wake_[0], POLLIN, 0});
    {
      std::lock_guard lock(mutex_);
      for (const auto& entry : entries_) fds.push_back(pollfd{entry->socket.fd(), POLLIN, 0});
    }
    ::poll(fds.data(), fds.size(), kPollMs);
    char drain[16];
    while (::read(wake_[0], drain, sizeof drain) > 0) {
    }
    std::lock_guard lock(mutex_);
    receiveAll();
    const auto now = Clock::now();
    for (const auto& entry : entries_) entry->host->tick(now);
  }
}

void Hosts::receiveAll() {
  static thread_local std::array<uint8_t, kMaxDatagram> buffer;
  for (const auto& entry : entries_) {
    while (const auto size = entry->socket.receive(buffer.data(), buffer.size())) {
      const auto now = Clock::now();
      ReplyVerifier::Packet packet{buffer.data(), *size};
      if (entry->verifier) {
        const auto verified = entry->verifier->admit(buffer.data(), *size, control::nowMicros());
        if (!verified) continue;
        packet = *verified;
      }
      std::string error;  // a packet that is not OSC is dropped
      dispatcher_.dispatch(packet.data, packet.size,
                           [&](const control::OscMessage& message) { entry->host->onMessage(message, now); }, error);
    }
  }
}

RemoteHost* Hosts::find(const std::string& name, std::string& error) {
  for (const auto& entry : entries_)
    if (entry->host->settings().name == name) return entry->host.get();
  error = "no host named '" + name + "'";
  if (entries_.empty()) error += " (the master has no hosts: --host NAME=ADDR[:PORT][@JACKCLIENT])";
  return nullptr;
}

std::vector<control::HostView> Hosts::hosts() {
  std::lock_guard lock(mutex_);
  std::vector<control::HostView> views;
  const auto now = Clock::now();
  for (const auto& entry : entries_) views.push_back(view(*entry, now));
  return views;
}

// The host's view, with what the hosts thread knows beside RemoteHost: the replies it
// refused, and the audio round trip the host reports in frames, in ms at the master's rate.
control::HostView Hosts::view(const Entry& entry, Clock::time_point now) const {
  control::HostView view = entry.host->view(now);
  view.jackClient = entry.host->settings().jackClient;
  view.signedControl = entry.verifier.has_value();
  if (entry.verifier) view.refusedReplies = entry.verifier->refusedTotal();
  const double frames = view.value("net_round_trip_frames");  // 0: the host is not a NetJACK2 slave
  const double rate = sampleRate_ > 0.0 ? sampleRate_ : view.value("sample_rate");
  if (frames <= 0.0) return view;
  view.audioRoundTripFrames = frames;
  if (rate > 0.0) view.audioRoundTripMs = frames * 1000.0 / rate;
  return view;
}

bool Hosts::load(const std::string& host, int part, const std::string& path, std::string& error) {
  std::lock_guard lock(mutex_);
  RemoteHost* remote = find(host, error);
  if (remote) remote->load(part, path);
  return remote != nullptr;
}

bool Hosts::setVolume(const std::string& host, int part, float db, std::string& error) {
  std::lock_guard lock(mutex_);
  RemoteHost* remote = find(host, error);
  if (remote) remote->setVolume(part, db);
  return remote != nullptr;
}

bool Hosts::setControl(const std::string& host, int part, int cc, int value, std::string& error) {
  std::lock_guard lock(mutex_);
  RemoteHost* remote = find(host, error);
  if (remote) remote->setControl(part, cc, value);
  return remote != nullptr;
}

std::vector<control::HostSettings> Hosts::settings() {
  std::lock_guard lock(mutex_);
  std::vector<control::HostSettings> all;
  for (const auto& entry : entries_) all.push_back(entry->host->settings());
  return all;
}

// A session's hosts: the known ones get its parts, the others are added (a host whose
// socket cannot open is left out; the rest of the session still applies).
void Hosts::restore(const std::vector<control::HostSettings>& hosts) {
  for (const control::HostSettings& host : hosts) {
    std::string error;
    {
      std::lock_guard lock(mutex_);
      if (RemoteHost* remote = find(host.name, error)) {
        remote->restore(host.parts);
        continue;
      }
    }
    if (!add(host, error)) continue;
  }
}

}  // namespace spindle::cluster
