#pragma once
// ControlCore: what Spindle does with an OSC message once it is decoded, with no
// sockets: validation against the OscApi table, the ControlTarget calls, replies,
// load tickets, subscriptions, reply ports, overflow counting, sessions and the
// dirty flag. OscServer feeds it from the network; tests feed it directly.
//
// Threads: the control thread calls everything except onLoadEvent(), which any thread
// may call (the loader thread): events are queued under a mutex and the `wake`
// callback tells the control thread to call tick().
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "control/ControlTarget.h"
#include "control/OscAuth.h"
#include "control/OscMessage.h"
#include "control/Peer.h"

namespace spindle::control {

class ReplySink {
 public:
  virtual void send(const Peer& to, const OscMessage& message) = 0;  // control thread

 protected:
  ~ReplySink() = default;
};

inline constexpr double kMaxSubscribeHz = 30.0;
inline constexpr std::size_t kMaxSubscribers = 32;
inline constexpr int kRefusalRepliesPerSecond = 20;

class ControlCore;
// "3 signed accepted; refused: 1 unsigned, 0 bad_mac, 0 replayed, 0 stale" (any thread).
std::string authReport(const ControlCore& core);

class ControlCore final : public LoadListener {
 public:
  using Clock = std::chrono::steady_clock;
  // Called when a session load started by loadSession() has finished (ok, message).
  using SessionDone = std::function<void(bool ok, const std::string& message)>;

  ControlCore(ControlTarget& target, ReplySink& replies);

  // ---- control thread ----
  void handle(const Peer& from, const OscMessage& message);
  void reportMalformed(const Peer& from, const std::string& reason);
  // Delivers queued load events, pushes new problems (target().problems()) to every
  // subscriber at once and the status when due; returns when the next push is due.
  Clock::time_point tick(Clock::time_point now);
  void forgetStream(int stream);  // a TCP connection closed: drop its subscriptions
  void setWake(std::function<void()> wake) { wake_ = std::move(wake); }
  void setDirtyListener(std::function<void(bool dirty)> listener) { onDirty_ = std::move(listener); }

  // ---- services for the OscApi handlers (control thread, during handle()) ----
  ControlTarget& target() noexcept { return target_; }
  const Peer& sender() const noexcept { return sender_; }
  void reply(const OscMessage& message);  // to the current sender's reply address
  void replyTo(const Peer& requester, const OscMessage& message);
  void error(const std::string& reason);  // /spindle/error <current path> <reason>
  void commandResult(bool accepted, bool changesSession);
  void subscribe(double hz);
  void unsubscribe();
  void setReplyPort(int port);
  void beginLoad(int part, const std::string& path);
  OscMessage statusMessage();
  void replyProblems();  // /spindle/problems: the count, then every kept problem
  std::vector<OscMessage> connectionMessages();  // /spindle/connections, then each link and source

  // ---- sessions (control thread) ----
  bool saveSession(const std::string& file, std::string& error);
  // Parses and applies `file`; `done` runs once every instrument has loaded or failed.
  bool loadSession(const std::string& file, const Peer& requester, SessionDone done, std::string& error);
  bool dirty() const noexcept { return dirty_; }
  void markDirty();
  void markClean();

  // ---- authentication (control thread; the OSC server's OscGate decides) ----
  void setAuthMode(std::string mode) { authMode_ = std::move(mode); }
  // A packet the gate refused: counted per reason; the peer hears /spindle/error
  // <reason> at most kRefusalRepliesPerSecond times a second (a flood gets no echo).
  void refuse(const Peer& from, AuthRefusal why, const std::string& reason);
  void countVerified() noexcept { verified_.fetch_add(1, std::memory_order_relaxed); }
  // Any thread (the headless stats read them from main).
  uint64_t verified() const noexcept { return verified_.load(std::memory_order_relaxed); }
  uint64_t refused(AuthRefusal why) const noexcept {
    return refusals_[static_cast<std::size_t>(why)].load(std::memory_order_relaxed);
  }
  OscMessage authMessage() const;  // /spindle/auth: the mode, verified, then each refusal count

  uint64_t dropped() const noexcept { return dropped_; }
  uint64_t handled() const noexcept { return handled_; }

  void onLoadEvent(LoadEvent event) override;  // any thread

 private:
  struct Ticket {
    Peer requester;
    int part = 0;
    std::string path;
    uint64_t session = 0;  // the session load it belongs to, 0: none
  };
  struct PendingSession {
    Peer requester;
    std::string file;
    std::set<uint64_t> tickets;
    std::vector<std::string> failures;
    SessionDone done;
    std::array<PartSettings, kParts> parts{};  // the file's, for what follows each part's load
  };
  struct Subscription {
    Peer to;
    Clock::duration interval{};
    Clock::time_point next{};
  };

  Peer replyAddress(const Peer& from) const;
  void deliver(const LoadEvent& event);
  void finishTicket(uint64_t ticket, const LoadEvent& event);
  void finishSession(uint64_t session);
  uint64_t startLoad(const Peer& requester, int part, const std::string& path, uint64_t session);
  void applySettings(const SessionState& state);
  void applyTunings(const SessionState& state, std::vector<std::string>& failures);
  // The part's sends, and its bypass flags once its instrument has loaded (SessionPartEffects.h).
  bool applySends(int part, const PartSettings& settings);
  bool applyBypass(int part, const PartSettings& settings);
  void pushProblems();
  void pushConnections();

  ControlTarget& target_;
  ReplySink& replies_;
  Peer sender_;
  std::string currentPath_;
  std::map<std::string, int> replyPorts_;  // sender host -> UDP port for its replies
  std::vector<Subscription> subscriptions_;
  std::map<uint64_t, Ticket> tickets_;
  std::map<uint64_t, PendingSession> sessions_;
  uint64_t nextTicket_ = 1;
  uint64_t problemsPushed_ = 0;  // serial of the newest problem pushed to the subscribers
  uint64_t connectionsPushed_ = 0;  // serial of the connections last pushed
  uint64_t dropped_ = 0, handled_ = 0, droppedReported_ = 0;
  Clock::time_point lastDropReport_{};
  bool dirty_ = false;
  std::string authMode_ = "open";
  std::atomic<uint64_t> verified_{0};  // written on the control thread only
  std::array<std::atomic<uint64_t>, kAuthRefusals> refusals_{};
  Clock::time_point refusalWindow_{};
  int refusalReplies_ = 0;  // in the current one-second window
  std::function<void(bool)> onDirty_;
  std::function<void()> wake_;

  std::mutex eventsMutex_;  // guards events_ (loader thread -> control thread)
  std::vector<LoadEvent> events_;
};

}  // namespace spindle::control
