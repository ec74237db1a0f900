#include "control/ControlCore.h"

#include <algorithm>
#include <cmath>

#include "control/OscApi.h"
#include "control/SessionFile.h"

namespace spindle::control {

namespace {

constexpr auto kDropReportInterval = std::chrono::seconds(1);
constexpr auto kIdle = std::chrono::milliseconds(200);

OscMessage errorMessage(const std::string& path, const std::string& reason) {
  return {"/spindle/error", {OscValue::s(path), OscValue::s(reason)}};
}

OscMessage problemMessage(const LoggedProblem& p) {
  return {"/spindle/problem", {OscValue::h(static_cast<int64_t>(p.serial)), OscValue::s(wireName(p.kind)),
                               OscValue::s(p.file), OscValue::s(p.message)}};
}

}  // namespace

ControlCore::ControlCore(ControlTarget& target, ReplySink& replies) : target_(target), replies_(replies) {}

void ControlCore::handle(const Peer& from, const OscMessage& message) {
  sender_ = from;
  currentPath_ = message.path;
  const OscEntry* entry = findEntry(message.path);
  if (!entry) {
    error(message.path.rfind("/spindle", 0) == 0 ? "unknown address (send /spindle/help for the list)"
                                                  : "unknown address: Spindle's addresses start with /spindle/");
    return;
  }
  if (auto why = check(*entry, message)) {
    error(*why);
    return;
  }
  ++handled_;
  OscCall call{*this, message};
  entry->handle(call);
}

void ControlCore::reportMalformed(const Peer& from, const std::string& reason) {
  sender_ = from;
  currentPath_.clear();
  error(reason);
}

Peer ControlCore::replyAddress(const Peer& from) const {
  const auto it = replyPorts_.find(from.host());
  if (it == replyPorts_.end()) return from;
  auto redirected = Peer::udp(it->first, it->second);
  if (!redirected) return from;
  redirected->sign = from.sign;
  redirected->signedBy = from.signedBy;
  redirected->signedFor = from.signedFor;
  return *redirected;
}

void ControlCore::reply(const OscMessage& message) { replyTo(sender_, message); }

void ControlCore::replyTo(const Peer& requester, const OscMessage& message) {
  if (requester.valid()) replies_.send(replyAddress(requester), message);
}

void ControlCore::error(const std::string& reason) { reply(errorMessage(currentPath_, reason)); }

// A refused command was dropped (its FIFO was full); the sender hears about drops at
// most once a second, so a flood does not turn into a flood of errors.
void ControlCore::commandResult(bool accepted, bool changesSession) {
  if (accepted) {
    if (changesSession) markDirty();
    return;
  }
  ++dropped_;
  const auto now = Clock::now();
  if (now - lastDropReport_ < kDropReportInterval) return;
  lastDropReport_ = now;
  error("command queue full: " + std::to_string(dropped_ - droppedReported_) + " command(s) dropped");
  droppedReported_ = dropped_;
}

void ControlCore::subscribe(double hz) {
  const Peer to = replyAddress(sender_);
  const auto interval = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / hz));
  auto it = std::find_if(subscriptions_.begin(), subscriptions_.end(), [&](const Subscription& s) { return s.to == to; });
  if (it == subscriptions_.end()) {
    if (subscriptions_.size() >= kMaxSubscribers) {
      error("too many subscribers (at most " + std::to_string(kMaxSubscribers) + ")");
      return;
    }
    it = subscriptions_.insert(subscriptions_.end(), Subscription{to, interval, Clock::now()});
  }
  it->interval = interval;
  it->next = Clock::now();
  if (wake_) wake_();
}

void ControlCore::unsubscribe() {
  const Peer to = replyAddress(sender_);
  const auto removed = std::erase_if(subscriptions_, [&](const Subscription& s) { return s.to == to; });
  if (removed == 0) error("not subscribed");
}

void ControlCore::setReplyPort(int port) {
  const std::string host = sender_.host();
  if (host.empty()) {
    error("reply_port needs a network sender");
    return;
  }
  if (port == 0) replyPorts_.erase(host);
  else replyPorts_[host] = port;
}

void ControlCore::forgetStream(int stream) {
  std::erase_if(subscriptions_, [&](const Subscription& s) { return s.to.stream == stream; });
  for (auto& [id, ticket] : tickets_)
    if (ticket.requester.stream == stream) ticket.requester = Peer{};
  for (auto& [id, session] : sessions_)
    if (session.requester.stream == stream) session.requester = Peer{};
}

OscMessage ControlCore::statusMessage() {
  const ControlStatus s = target_.status();
  OscMessage m{"/spindle/status", {}};
  auto add = [&m](const char* name, OscValue value) {
    m.args.push_back(OscValue::s(name));
    m.args.push_back(std::move(value));
  };
  add("voices", OscValue::i(s.voices));
  add("peak_voices", OscValue::i(s.peakVoices));
  add("streams", OscValue::i(s.streams));
  add("xruns", OscValue::h(static_cast<int64_t>(s.backendXruns)));
  add("xruns_detected", OscValue::h(static_cast<int64_t>(s.detectedXruns)));
  add("overruns", OscValue::h(static_cast<int64_t>(s.overBudget)));
  add("underruns", OscValue::h(static_cast<int64_t>(s.streamUnderruns)));
  add("latency_last_ms", OscValue::f(s.latencyLastMs));
  add("latency_min_ms", OscValue::f(s.latencyMinMs));
  add("latency_max_ms", OscValue::f(s.latencyMaxMs));
  add("load_percent", OscValue::f(s.processLoad));
  add("ahead_min_ms", OscValue::f(s.aheadMinMs));
  add("memory_bytes", OscValue::h(static_cast<int64_t>(s.memoryBytes)));
  add("bytes_per_sample", OscValue::h(static_cast<int64_t>(s.bytesPerSample)));
  add("pinned_blocks", OscValue::h(s.pinnedBlocks));
  add("cache_budget_bytes", OscValue::h(static_cast<int64_t>(s.cacheBudgetBytes)));
  add("cache_hit_rate", OscValue::f(s.cacheHitRate));
  add("decoded_mb_s", OscValue::f(s.decodedMBps));
  add("cache_bytes", OscValue::h(static_cast<int64_t>(s.cacheBytes)));
  add("dropped", OscValue::h(static_cast<int64_t>(dropped_ + s.commandsDropped)));
  add("sample_rate", OscValue::f(s.sampleRate));
  for (std::size_t k = 0; k < kAuthRefusals; ++k)
    add((std::string("auth_") + wireName(static_cast<AuthRefusal>(k))).c_str(),
        OscValue::h(static_cast<int64_t>(refused(static_cast<AuthRefusal>(k)))));
  add("net_round_trip_frames", OscValue::i(s.netRoundTripFrames));
  add("net_round_trip_periods", OscValue::i(s.netRoundTripPeriods));
  add("mpe_lower", OscValue::i(s.mpeLower));
  add("mpe_upper", OscValue::i(s.mpeUpper));
  add("problems", OscValue::h(static_cast<int64_t>(target_.problems().total())));
  return m;
}

void ControlCore::replyProblems() {
  const ProblemLog& log = target_.problems();
  const std::vector<LoggedProblem> kept = log.since(0);
  const uint64_t total = log.total();  // after since(): counts every problem listed
  reply({"/spindle/problems",
         {OscValue::h(static_cast<int64_t>(total)), OscValue::i(static_cast<int64_t>(kept.size()))}});
  for (const LoggedProblem& p : kept) reply(problemMessage(p));
}

// Every subscriber hears of a problem once, on the first tick after it was logged (at
// most kIdle later: the log does not wake the control thread). Problems logged while
// nobody subscribed are not pushed later: /spindle/problems lists them.
void ControlCore::pushProblems() {
  const ProblemLog& log = target_.problems();
  if (log.total() == problemsPushed_) return;
  for (const LoggedProblem& p : log.since(problemsPushed_)) {
    for (const Subscription& s : subscriptions_) replies_.send(s.to, problemMessage(p));
    problemsPushed_ = p.serial;
  }
}

std::vector<OscMessage> ControlCore::connectionMessages() {
  const ConnectionState state = target_.connections();
  std::vector<OscMessage> messages;
  messages.push_back({"/spindle/connections",
                      {OscValue::s(state.server), OscValue::s(state.hint),
                       OscValue::i(static_cast<int64_t>(state.links.size())),
                       OscValue::i(static_cast<int64_t>(state.midiSources.size())),
                       OscValue::i(static_cast<int64_t>(state.inputs.size()))}});
  for (const ConnectionLink& link : state.links)
    messages.push_back({"/spindle/connection", {OscValue::s(link.port), OscValue::s(link.peer)}});
  for (const auto& [name, connected] : state.midiSources)
    messages.push_back({"/spindle/midi/source", {OscValue::s(name), OscValue::i(connected ? 1 : 0)}});
  for (const MidiInputState& input : state.inputs)
    messages.push_back({"/spindle/midi/input", {OscValue::s(input.name), OscValue::h(static_cast<int64_t>(input.events)),
                                                OscValue::i(input.channel)}});
  return messages;
}

// Subscribers hear of every change of the connections (a keyboard plugged in, a link
// made in a patchbay) on the next tick.
void ControlCore::pushConnections() {
  if (subscriptions_.empty()) return;
  const uint64_t serial = target_.connections().serial;
  if (serial == connectionsPushed_) return;
  connectionsPushed_ = serial;
  const std::vector<OscMessage> messages = connectionMessages();
  for (const Subscription& s : subscriptions_)
    for (const OscMessage& m : messages) replies_.send(s.to, m);
}

void ControlCore::markDirty() {
  if (dirty_) return;
  dirty_ = true;
  if (onDirty_) onDirty_(true);
}

void ControlCore::markClean() {
  if (!dirty_) return;
  dirty_ = false;
  if (onDirty_) onDirty_(false);
}

ControlCore::Clock::time_point ControlCore::tick(Clock::time_point now) {
  std::vector<LoadEvent> events;
  {
    std::lock_guard lock(eventsMutex_);
    events.swap(events_);
  }
  for (const LoadEvent& event : events) deliver(event);
  pushProblems();
  pushConnections();
  Clock::time_point next = now + kIdle;
  for (Subscription& s : subscriptions_) {
    if (s.next <= now) {
      replies_.send(s.to, statusMessage());
      s.next += s.interval;
      if (s.next <= now) s.next = now + s.interval;  // fell behind: do not burst
    }
    next = std::min(next, s.next);
  }
  return next;
}

void ControlCore::onLoadEvent(LoadEvent event) {
  {
    std::lock_guard lock(eventsMutex_);
    events_.push_back(std::move(event));
  }
  if (wake_) wake_();
}

}  // namespace spindle::control
