#pragma once
// NsmClient: Spindle under the New Session Manager (NSM_URL set in the environment).
//
//   main thread, before the backend starts:
//     connect() ─► announce() ─► waitForOpen(): /nsm/client/open gives the session
//     path and the client id, which becomes the JACK client name
//   control thread (OscServer polls fd()), once the engine runs:
//     the pending open ─► ControlCore::loadSession(path + ".spindle") ─► /reply when
//     every instrument has loaded (/error if one failed; a new session starts empty)
//     /nsm/client/save ─► ControlCore::saveSession ─► /reply or /error
//     dirty changes ─► /nsm/client/is_dirty, /nsm/client/is_clean
//     /nsm/client/show_optional_gui, hide: only when announced with :optional-gui:
//
// The socket is bound to the local address the kernel uses to reach the NSM server
// (loopback for a local one), never to every interface.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "control/OscDispatcher.h"
#include "control/Peer.h"

namespace spindle::control {

class ControlCore;

struct NsmOpen {
  std::string path;         // prefix: Spindle's session file is path + ".spindle"
  std::string displayName;
  std::string clientId;     // the JACK client name
};

struct NsmOptions {
  std::string url;                  // NSM_URL
  std::string appName = "Spindle";
  std::string executable = "spindle";
  std::string capabilities = ":dirty:";  // add "optional-gui:" in GUI mode
  std::function<void(bool show)> showGui;  // GUI mode: show or hide the window
};

class NsmClient {
 public:
  explicit NsmClient(NsmOptions options);
  ~NsmClient();
  NsmClient(const NsmClient&) = delete;
  NsmClient& operator=(const NsmClient&) = delete;

  static std::optional<std::string> urlFromEnvironment();  // NSM_URL, when set and not empty
  static std::string sessionFile(const NsmOpen& open) { return open.path + ".spindle"; }

  // ---- owner's thread, before the control thread starts ----
  [[nodiscard]] bool connect(std::string& error);
  [[nodiscard]] bool announce(std::string& error);
  // Waits for the server's answer to announce and then /nsm/client/open.
  std::optional<NsmOpen> waitForOpen(std::chrono::milliseconds timeout, std::string& error);
  const std::string& serverName() const noexcept { return serverName_; }

  // ---- control thread ----
  int fd() const noexcept { return fd_; }
  void onReadable(ControlCore& core);
  // Loads the open waitForOpen() left pending (called once when the control thread starts).
  void beginSession(ControlCore& core);

 private:
  bool receive(std::vector<OscMessage>& messages, int timeoutMs);
  void send(const OscMessage& message);
  void handle(ControlCore& core, const OscMessage& message);
  void open(ControlCore& core, const NsmOpen& request);
  void save(ControlCore& core);
  void replyError(const std::string& path, int code, const std::string& message);

  NsmOptions options_;
  int fd_ = -1;
  Peer server_;
  OscDispatcher dispatcher_;
  std::optional<NsmOpen> pending_;
  std::string serverName_;
  std::string sessionFile_;
};

}  // namespace spindle::control
