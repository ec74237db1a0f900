// ControlCore, part two: instrument loads (tickets) and session files.
#include <filesystem>

#include "control/ControlCore.h"
#include "control/SessionFile.h"
#include "core/Controllers.h"
#include "core/MidiEvent.h"

namespace spindle::control {

uint64_t ControlCore::startLoad(const Peer& requester, int part, const std::string& path, uint64_t session) {
  const uint64_t ticket = nextTicket_++;
  tickets_[ticket] = Ticket{requester, part, path, session};
  target_.load(ticket, part, path, *this);
  return ticket;
}

// Checks what can be checked at once (the file exists), then loads in the background.
void ControlCore::beginLoad(int part, const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    error("no such file: " + path);
    return;
  }
  startLoad(sender_, part, std::filesystem::absolute(path, ec).lexically_normal().string(), 0);
}

void ControlCore::deliver(const LoadEvent& event) {
  const auto it = tickets_.find(event.ticket);
  if (it == tickets_.end()) return;
  const Peer requester = it->second.requester;
  const int wirePart = event.part + 1;
  switch (event.kind) {
    case LoadEvent::Kind::Progress:
      replyTo(requester,
              {"/spindle/load/progress", {OscValue::i(wirePart), OscValue::f(static_cast<double>(event.progress))}});
      return;
    case LoadEvent::Kind::Done:
      replyTo(requester, {"/spindle/load/done", {OscValue::i(wirePart), OscValue::s(event.text),
                                                 OscValue::i(event.regions), OscValue::i(event.missingSamples)}});
      if (it->second.session == 0) markDirty();  // a session's own loads leave it clean
      break;
    case LoadEvent::Kind::Failed:
      replyTo(requester, {"/spindle/error", {OscValue::s("/spindle/load"),
                                             OscValue::s("part " + std::to_string(wirePart) + ": " + event.text)}});
      break;
  }
  finishTicket(event.ticket, event);
}

void ControlCore::finishTicket(uint64_t ticket, const LoadEvent& event) {
  const uint64_t session = tickets_[ticket].session;
  const std::string path = tickets_[ticket].path;
  tickets_.erase(ticket);
  const auto it = sessions_.find(session);
  if (it == sessions_.end()) return;
  if (event.kind == LoadEvent::Kind::Failed) it->second.failures.push_back(path + ": " + event.text);
  if (event.kind == LoadEvent::Kind::Done) {
    const PartSettings& settings = it->second.parts[static_cast<std::size_t>(event.part)];
    if (!applySends(event.part, settings) || !applyBypass(event.part, settings)) ++dropped_;
  }
  it->second.tickets.erase(ticket);
  if (it->second.tickets.empty()) finishSession(session);
}

void ControlCore::finishSession(uint64_t session) {
  PendingSession pending = std::move(sessions_[session]);
  sessions_.erase(session);
  std::string message = pending.file;
  for (const std::string& failure : pending.failures) message += "; " + failure;
  // A session just loaded equals its file: clean, unless an instrument failed.
  if (pending.failures.empty()) markClean();
  if (pending.done) pending.done(pending.failures.empty(), message);
}

bool ControlCore::saveSession(const std::string& file, std::string& error) {
  if (!writeSessionFile(file, target_.sessionState(), error)) return false;
  markClean();
  return true;
}

void ControlCore::applySettings(const SessionState& state) {
  bool ok = target_.setPolyphony(std::min(state.settings.polyphony, target_.maxPolyphony()));
  ok = target_.setPreloadFrames(state.settings.preloadFrames) && ok;
  ok = target_.setQuality(state.settings.quality) && ok;
  if (state.settings.tempo > 0.0f) ok = target_.setTempo(state.settings.tempo) && ok;
  ok = target_.setMpeZone(false, state.settings.mpeLower) && ok;
  ok = target_.setMpeZone(true, state.settings.mpeUpper) && ok;
  for (int k = 0; k < kParts; ++k) {
    const PartSettings& p = state.parts[static_cast<std::size_t>(k)];
    ok = target_.setPartVolume(k, p.volumeDb) && ok;
    ok = target_.setPartPan(k, p.pan) && ok;
    ok = target_.setPartMute(k, p.mute) && ok;
    ok = target_.setPartSolo(k, p.solo) && ok;
    ok = applySends(k, p) && ok;
    if (p.instrument.empty()) ok = target_.unload(k) && ok;
  }
  for (const auto& info : kEffectParamTable) ok = target_.setEffect(info.id, state.effects.get(info.id)) && ok;
  if (state.hasConnections) target_.restoreConnections(state.connections);
  if (HostControl* hosts = target_.hostControl(); hosts && !state.hosts.empty()) hosts->restore(state.hosts);
  if (!ok) ++dropped_;
}

// Every part's scale and keymap (12-TET where the session names none); a bad file is a
// failure of the session's load, named with its file and line.
void ControlCore::applyTunings(const SessionState& state, std::vector<std::string>& failures) {
  bool ok = true;
  for (int k = 0; k < kParts; ++k) {
    const PartSettings& p = state.parts[static_cast<std::size_t>(k)];
    std::string error;
    if (target_.setPartTuning(k, p.scale, p.keymap, error)) continue;
    if (error.empty()) ok = false;
    else failures.push_back("part " + std::to_string(k + 1) + ": " + error);
  }
  if (!ok) ++dropped_;
}

bool ControlCore::loadSession(const std::string& file, const Peer& requester, SessionDone done, std::string& error) {
  const auto state = readSessionFile(file, error);
  if (!state) return false;
  applySettings(*state);
  const uint64_t session = nextTicket_++;
  sessions_[session] = PendingSession{requester, file, {}, {}, std::move(done), state->parts};
  applyTunings(*state, sessions_[session].failures);
  for (int k = 0; k < kParts; ++k) {
    const std::string& instrument = state->parts[static_cast<std::size_t>(k)].instrument;
    if (!instrument.empty()) sessions_[session].tickets.insert(startLoad(Peer{}, k, instrument, session));
  }
  if (sessions_[session].tickets.empty()) finishSession(session);
  return true;
}

}  // namespace spindle::control

namespace spindle::control {

// Again after the part's load: the instrument's set_cc may have moved CC91 or CC93.
bool ControlCore::applySends(int part, const PartSettings& settings) {
  const auto status = static_cast<uint8_t>(midi::kControlChange | part);
  return target_.sendMidi(status, controllers::kReverbSend, static_cast<uint8_t>(settings.reverbSend)) &&
         target_.sendMidi(status, controllers::kChorusSend, static_cast<uint8_t>(settings.chorusSend));
}

// The flags of the effects the loaded instrument has; a flag past its effects (the file
// changed since the session was saved) is left out.
bool ControlCore::applyBypass(int part, const PartSettings& settings) {
  bool ok = true;
  const auto count = static_cast<int>(target_.partEffects(part).size());
  for (int i = 0; i < count; ++i)
    if (effectBypassed(settings.effectBypass, i)) ok = target_.setPartEffectBypass(part, i, true) && ok;
  return ok;
}

}  // namespace spindle::control
