#pragma once
// Test doubles for the control layer: a ControlTarget that records every call (and
// answers loads at once, from the calling thread, like a very fast loader thread),
// and a ReplySink that keeps every reply.
#include <array>
#include <mutex>
#include <utility>
#include <string>
#include <vector>

#include "control/ControlCore.h"
#include "control/ControlTarget.h"
#include "control/OscMessage.h"
#include "control/ProblemLog.h"
#include "library/LibraryIndex.h"

namespace spindle::test {

// The remote hosts a master drives: one, "a", with what was asked of it; each call is
// recorded in `calls` (the target's), a call naming another host fails.
class RecordingHosts final : public control::HostControl {
 public:
  explicit RecordingHosts(std::vector<std::string>& calls) : calls_(calls) { host_.name = "a"; }
  control::HostSettings host_{"a", "127.0.0.1", 9952, {}, {}};

  std::vector<control::HostView> hosts() override {
    control::HostView view;
    view.name = host_.name;
    view.address = host_.address;
    view.port = host_.port;
    view.state = "connected";
    view.status = {{"voices", 3.0}, {"underruns", 0.0}};
    view.roundTripMs = 0.5;
    view.audioRoundTripFrames = 768.0;
    view.audioRoundTripMs = 16.0;
    view.signedControl = true;
    view.refusedReplies = 2;
    for (const auto& [part, asked] : host_.parts) view.parts.push_back({part, asked, "piano", 10, "", {}});
    return {view};
  }
  bool load(const std::string& host, int part, const std::string& path, std::string& error) override {
    return known(host, error) && record("host load " + host + " " + std::to_string(part) + " " + path) &&
           (host_.parts[part].library = path, true);
  }
  bool setVolume(const std::string& host, int part, float db, std::string& error) override {
    return known(host, error) && record("host volume " + host + " " + std::to_string(part) + " " + std::to_string(db));
  }
  bool setControl(const std::string& host, int part, int cc, int value, std::string& error) override {
    return known(host, error) && record("host cc " + host + " " + std::to_string(part) + " " + std::to_string(cc) +
                                        " " + std::to_string(value));
  }
  std::vector<control::HostSettings> settings() override { return {host_}; }
  void restore(const std::vector<control::HostSettings>& hosts) override {
    record("host restore " + std::to_string(hosts.size()));
  }

 private:
  bool known(const std::string& host, std::string& error) {
    if (host == host_.name) return true;
    error = "no host named '" + host + "'";
    return false;
  }
  bool record(std::string call) {
    calls_.push_back(std::move(call));
    return true;
  }
  std::vector<std::string>& calls_;
};

class RecordingTarget : public control::ControlTarget {
 public:
  std::vector<std::string> calls;  // "name arg arg ..."
  control::SessionState state;     // what sessionState() reports; set* calls update it
  bool accept = true;              // false: every command "finds its FIFO full"
  int polyphonyCeiling = 256;
  std::array<std::array<float, 2>, control::kParts> sends{};  // what partSends() reports
  control::TempoStatus tempoNow;   // what tempo() reports
  control::ProblemLog problemLog;  // what problems() reports; tests add to it

  void load(uint64_t ticket, int part, const std::string& path, control::LoadListener& listener) override {
    record("load " + std::to_string(part) + " " + path);
    using Kind = control::LoadEvent::Kind;
    listener.onLoadEvent({Kind::Progress, ticket, part, 0.5f, {}, 0, 0});
    if (path.find("broken") != std::string::npos) {
      listener.onLoadEvent({Kind::Failed, ticket, part, 0.0f, "cannot parse " + path, 0, 0});
      return;
    }
    state.parts[static_cast<std::size_t>(part)].instrument = path;
    state.parts[static_cast<std::size_t>(part)].effectBypass = 0;  // a new instrument plays every effect
    listener.onLoadEvent({Kind::Done, ticket, part, 1.0f, "inst", 3, 0});
  }
  bool unload(int part) override {
    state.parts[static_cast<std::size_t>(part)].instrument.clear();
    return record("unload " + std::to_string(part));
  }
  bool sendMidi(uint8_t s, uint8_t d1, uint8_t d2) override {
    return record("midi " + std::to_string(s) + " " + std::to_string(d1) + " " + std::to_string(d2));
  }
  bool setPartVolume(int part, float db) override {
    state.parts[static_cast<std::size_t>(part)].volumeDb = db;
    return record("volume " + std::to_string(part) + " " + number(db));
  }
  bool setPartPan(int part, float pan) override {
    state.parts[static_cast<std::size_t>(part)].pan = pan;
    return record("pan " + std::to_string(part) + " " + number(pan));
  }
  bool setPartMute(int part, bool on) override {
    state.parts[static_cast<std::size_t>(part)].mute = on;
    return record("mute " + std::to_string(part) + " " + std::to_string(on));
  }
  bool setPartSolo(int part, bool on) override {
    state.parts[static_cast<std::size_t>(part)].solo = on;
    return record("solo " + std::to_string(part) + " " + std::to_string(on));
  }
  bool setPartTuning(int part, const std::string& scale, const std::string& keymap, std::string& error) override {
    if (scale.find("bad") != std::string::npos) {
      error = scale + ":3: bad pitch";
      return false;
    }
    state.parts[static_cast<std::size_t>(part)].scale = scale;
    state.parts[static_cast<std::size_t>(part)].keymap = keymap;
    return record("tuning " + std::to_string(part) + " " + scale + " " + keymap);
  }
  bool setPolyphony(int voices) override {
    state.settings.polyphony = voices;
    return record("polyphony " + std::to_string(voices));
  }
  bool setMpeZone(bool upper, int members) override {
    (upper ? state.settings.mpeUpper : state.settings.mpeLower) = members;
    return record(std::string("mpe ") + (upper ? "upper " : "lower ") + std::to_string(members));
  }
  bool setPreloadFrames(int frames) override {
    state.settings.preloadFrames = frames;
    return record("preload " + std::to_string(frames));
  }
  bool setQuality(int quality) override {
    state.settings.quality = quality;
    return record("quality " + std::to_string(quality));
  }
  bool panic() override { return record("panic"); }
  bool setEffect(EffectParam param, float value) override {
    state.effects.set(param, value);
    return record("effect " + std::string(effectParamInfo(param).name) + " " + formatEffectValue(param, value));
  }
  std::array<float, 2> partSends(int part) override { return sends[static_cast<std::size_t>(part)]; }
  bool setTempo(float bpm) override {
    state.settings.tempo = bpm;
    return record("tempo " + std::to_string(bpm));
  }
  control::TempoStatus tempo() override { return tempoNow; }
  // What partEffects() reports (without flags: those come from the state's parts).
  std::array<std::vector<PartEffectInfo>, control::kParts> effects;
  std::vector<PartEffectInfo> partEffects(int part) override {
    std::vector<PartEffectInfo> list = effects[static_cast<std::size_t>(part)];
    for (PartEffectInfo& e : list) e.bypassed = effectBypassed(state.parts[static_cast<std::size_t>(part)].effectBypass, e.index);
    return list;
  }
  bool setPartEffectBypass(int part, int index, bool on) override {
    uint64_t& mask = state.parts[static_cast<std::size_t>(part)].effectBypass;
    mask = withEffectBypass(mask, index, on);
    return record("bypass " + std::to_string(part) + " " + std::to_string(index) + " " + (on ? "1" : "0"));
  }
  int maxPolyphony() const override { return polyphonyCeiling; }
  control::ControlStatus status() override {
    control::ControlStatus s;
    s.voices = 7;
    s.backendXruns = 2;
    s.latencyLastMs = 5.5;
    s.memoryBytes = 1234567;
    s.netRoundTripFrames = 768;
    s.netRoundTripPeriods = 3;
    return s;
  }
  control::SessionState sessionState() override { return state; }
  const control::ProblemLog& problems() override { return problemLog; }
  std::vector<control::PartControl> partControls(int part) override { return controls[static_cast<std::size_t>(part)]; }
  std::array<std::vector<control::PartControl>, control::kParts> controls;  // what partControls() reports
  control::ConnectionState connectionState;  // what connections() reports
  control::ConnectionState connections() override { return connectionState; }
  void restoreConnections(const std::vector<control::ConnectionLink>& links) override {
    std::string call = "restore";
    for (const control::ConnectionLink& link : links) call += " " + link.port + "=" + link.peer;
    state.hasConnections = true;
    state.connections = links;
    record(call);
  }
  void setConnection(const control::ConnectionLink& link, bool on) override {
    record((on ? "connect " : "disconnect ") + link.port + " " + link.peer);
  }

  control::HostControl* hostControl() override { return &hosts; }
  // The real index, over no folder and never started: its replies list nothing.
  library::Index* libraryIndex() override { return &library; }

  std::string last() const { return calls.empty() ? std::string() : calls.back(); }
  RecordingHosts hosts{calls};
  library::Index library{library::Options{{}, {}, false}};

 private:
  bool record(std::string call) {
    calls.push_back(std::move(call));
    return accept;
  }
  static std::string number(float v) {
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
    return s;
  }
};

class RecordingSink final : public control::ReplySink {
 public:
  struct Sent {
    control::Peer to;
    control::OscMessage message;
  };
  void send(const control::Peer& to, const control::OscMessage& message) override {
    std::lock_guard lock(mutex);
    sent.push_back({to, message});
  }
  std::vector<Sent> take() {
    std::lock_guard lock(mutex);
    return std::exchange(sent, {});
  }
  std::mutex mutex;
  std::vector<Sent> sent;
};

inline control::Peer loopbackPeer(int port = 40000) { return *control::Peer::udp("127.0.0.1", port); }

}  // namespace spindle::test
