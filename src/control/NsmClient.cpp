#include "control/NsmClient.h"

#include <lo/lo.h>
#include <netdb.h>
#include <poll.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

#include "control/ControlCore.h"

namespace spindle::control {

namespace {

constexpr int kApiMajor = 1, kApiMinor = 2;
constexpr int kErrGeneral = -1, kErrLaunch = -7;  // NSM error codes

std::string takeString(char* owned) {
  std::string out = owned ? owned : "";
  std::free(owned);
  return out;
}

std::optional<Peer> resolve(const std::string& url, std::string& error) {
  const std::string host = takeString(lo_url_get_hostname(url.c_str()));
  const std::string port = takeString(lo_url_get_port(url.c_str()));
  addrinfo hints{};
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  if (host.empty() || port.empty() || getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0 || !found) {
    error = "NSM_URL '" + url + "' does not name a reachable host and port";
    return std::nullopt;
  }
  Peer peer;
  std::copy_n(reinterpret_cast<const uint8_t*>(found->ai_addr), found->ai_addrlen, reinterpret_cast<uint8_t*>(&peer.address));
  peer.length = found->ai_addrlen;
  freeaddrinfo(found);
  return peer;
}

std::string text(const OscMessage& m, std::size_t k) { return k < m.args.size() ? m.args[k].text : std::string(); }

}  // namespace

NsmClient::NsmClient(NsmOptions options) : options_(std::move(options)) {}

NsmClient::~NsmClient() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<std::string> NsmClient::urlFromEnvironment() {
  const char* url = std::getenv("NSM_URL");
  if (!url || !*url) return std::nullopt;
  return std::string(url);
}

// Binds to the local address that routes to the server: connect() picks it, then an
// AF_UNSPEC connect() dissolves the association and keeps the binding, so replies from
// any local source address of the server still arrive.
bool NsmClient::connect(std::string& error) {
  const auto server = resolve(options_.url, error);
  if (!server || !dispatcher_.create(error)) return false;
  server_ = *server;
  fd_ = ::socket(server_.address.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  sockaddr unspec{};
  unspec.sa_family = AF_UNSPEC;
  if (fd_ < 0 || ::connect(fd_, reinterpret_cast<const sockaddr*>(&server_.address), server_.length) != 0 ||
      ::connect(fd_, &unspec, sizeof unspec) != 0) {
    error = "cannot open a socket to the NSM server at " + options_.url;
    return false;
  }
  return true;
}

bool NsmClient::announce(std::string& error) {
  send({"/nsm/server/announce",
        {OscValue::s(options_.appName), OscValue::s(options_.capabilities), OscValue::s(options_.executable),
         OscValue::i(kApiMajor), OscValue::i(kApiMinor), OscValue::i(::getpid())}});
  if (fd_ < 0) error = "not connected to NSM";
  return fd_ >= 0;
}

void NsmClient::send(const OscMessage& message) {
  const std::vector<uint8_t> packet = serialise(message);
  if (fd_ >= 0)
    ::sendto(fd_, packet.data(), packet.size(), MSG_DONTWAIT, reinterpret_cast<const sockaddr*>(&server_.address),
             server_.length);
}

bool NsmClient::receive(std::vector<OscMessage>& messages, int timeoutMs) {
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, timeoutMs) <= 0) return false;
  std::vector<uint8_t> packet(65536);
  for (;;) {
    const ssize_t size = ::recv(fd_, packet.data(), packet.size(), MSG_DONTWAIT);
    if (size <= 0) return true;
    std::string ignored;
    dispatcher_.dispatch(packet.data(), static_cast<std::size_t>(size),
                         [&](const OscMessage& m) { messages.push_back(m); }, ignored);
  }
}

std::optional<NsmOpen> NsmClient::waitForOpen(std::chrono::milliseconds timeout, std::string& error) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    std::vector<OscMessage> messages;
    receive(messages, 50);
    for (const OscMessage& m : messages) {
      if (m.path == "/reply" && text(m, 0) == "/nsm/server/announce") serverName_ = text(m, 2);
      if (m.path == "/error" && text(m, 0) == "/nsm/server/announce") {
        error = "the NSM server refused the announce: " + text(m, 2);
        return std::nullopt;
      }
      if (m.path == "/nsm/client/open" && m.typespec() == "sss") {
        pending_ = NsmOpen{text(m, 0), text(m, 1), text(m, 2)};
        return pending_;
      }
    }
  }
  error = "no /nsm/client/open from the NSM server at " + options_.url + " in time";
  return std::nullopt;
}

void NsmClient::beginSession(ControlCore& core) {
  core.setDirtyListener([this](bool dirty) { send({dirty ? "/nsm/client/is_dirty" : "/nsm/client/is_clean", {}}); });
  if (pending_) open(core, *pending_);
  pending_.reset();
}

void NsmClient::onReadable(ControlCore& core) {
  std::vector<OscMessage> messages;
  receive(messages, 0);
  for (const OscMessage& m : messages) handle(core, m);
}

void NsmClient::handle(ControlCore& core, const OscMessage& m) {
  if (m.path == "/nsm/client/open" && m.typespec() == "sss") open(core, NsmOpen{text(m, 0), text(m, 1), text(m, 2)});
  else if (m.path == "/nsm/client/save") save(core);
  else if (m.path == "/nsm/client/show_optional_gui" && options_.showGui) {
    options_.showGui(true);
    send({"/nsm/client/gui_is_shown", {}});
  } else if (m.path == "/nsm/client/hide_optional_gui" && options_.showGui) {
    options_.showGui(false);
    send({"/nsm/client/gui_is_hidden", {}});
  }
}

// A session without a file yet is a new one: it starts empty and saves there later.
void NsmClient::open(ControlCore& core, const NsmOpen& request) {
  sessionFile_ = sessionFile(request);
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(sessionFile_).parent_path(), ec);
  if (!std::filesystem::exists(sessionFile_, ec)) {
    send({"/reply", {OscValue::s("/nsm/client/open"), OscValue::s("new session")}});
    return;
  }
  std::string error;
  auto done = [this](bool ok, const std::string& message) {
    if (ok) send({"/reply", {OscValue::s("/nsm/client/open"), OscValue::s("opened " + message)}});
    else replyError("/nsm/client/open", kErrLaunch, message);
  };
  if (!core.loadSession(sessionFile_, Peer{}, done, error)) replyError("/nsm/client/open", kErrGeneral, error);
}

void NsmClient::save(ControlCore& core) {
  std::string error;
  if (sessionFile_.empty()) replyError("/nsm/client/save", kErrGeneral, "no session is open");
  else if (core.saveSession(sessionFile_, error)) send({"/reply", {OscValue::s("/nsm/client/save"), OscValue::s("saved")}});
  else replyError("/nsm/client/save", kErrGeneral, error);
}

void NsmClient::replyError(const std::string& path, int code, const std::string& message) {
  send({"/error", {OscValue::s(path), OscValue::i(code), OscValue::s(message)}});
}

}  // namespace spindle::control
