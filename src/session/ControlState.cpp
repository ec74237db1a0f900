// Control, part three: tunings, the shared reverb and chorus, the tempo, the parts'
// instrument effects, and what OSC and a session file read (status, session state,
// labelled controls).
#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/Controllers.h"
#include "rt/StreamBank.h"
#include "session/Control.h"
#include "session/Tuning.h"
#include "stream/Streaming.h"

namespace spindle::session {

namespace {

double framesToMs(int64_t frames, double rate) { return rate > 0.0 ? 1000.0 * static_cast<double>(frames) / rate : -1.0; }

}  // namespace

// The files are read here, on the calling thread, so a bad one's error goes back with
// the answer; the table waits for the owner thread (the newest of a part wins).
bool Control::setPartTuning(int part, const std::string& scale, const std::string& keymap, std::string& error) {
  const std::optional<PartTuning> tuning = readTuning(scale, keymap, error);
  if (!tuning) return false;
  {
    std::lock_guard lock(mutex_);
    tunings_[static_cast<std::size_t>(part)] = tuning->tuning;
    ++tuningSerials_[static_cast<std::size_t>(part)];
    PartState& s = at(part);
    s.settings.scale = scale;
    s.settings.keymap = keymap;
    s.scaleName = tuning->scaleName;
    ++s.serial;
  }
  changed();
  return true;
}

// Clamped to the setting's range (whole numbers where it counts), as the engine glides to it.
bool Control::setEffect(EffectParam param, float value) {
  const EffectParamInfo& info = effectParamInfo(param);
  value = std::clamp(value, info.min, info.max);
  if (info.integer) value = std::round(value);
  engine::Command c = partCommand(engine::CommandType::SetEffect, 0);
  c.count = static_cast<int32_t>(param);
  c.value = value;
  return command(c, [&] { effects_.set(param, value); });
}

std::array<float, 2> Control::partSends(int part) {
  return {engine_.controllerValue(part, controllers::kReverbSend), engine_.controllerValue(part, controllers::kChorusSend)};
}

bool Control::setTempo(float bpm) {
  engine::Command c = partCommand(engine::CommandType::SetTempo, 0);
  c.value = bpm;
  return command(c, [&] { settings_.tempo = bpm; });
}

control::TempoStatus Control::tempo() {
  const engine::EngineStats stats = engine_.stats();
  return {stats.tempo, engine::tempoSourceName(stats.tempoSource)};
}

std::vector<PartEffectInfo> Control::partEffects(int part) {
  std::lock_guard lock(mutex_);
  const PartState& s = at(part);
  std::vector<PartEffectInfo> list = s.effects;
  for (PartEffectInfo& e : list) e.bypassed = effectBypassed(s.settings.effectBypass, e.index);
  return list;
}

// An index the part's instrument does not have is ignored (true: nothing to refuse).
bool Control::setPartEffectBypass(int part, int index, bool on) {
  {
    std::lock_guard lock(mutex_);
    const int count = static_cast<int>(at(part).effects.size());
    if (index < 0 || index >= count || index >= kBypassableEffects) return true;
  }
  engine::Command c = partCommand(engine::CommandType::SetPartEffectBypass, part);
  c.count = index;
  c.flag = on;
  return command(c, [&] {
    uint64_t& mask = at(part).settings.effectBypass;
    mask = withEffectBypass(mask, index, on);
    ++at(part).serial;
  });
}

// Values: the engine's published controller values (Engine::controllerValue), current
// for the labelled controllers of the program the part plays.
std::vector<control::PartControl> Control::partControls(int part) {
  std::vector<controllers::ControllerLabel> labels;
  {
    std::lock_guard lock(mutex_);
    labels = at(part).controls;
  }
  std::vector<control::PartControl> out;
  for (const controllers::ControllerLabel& l : labels) out.push_back({l.cc, l.label, engine_.controllerValue(part, l.cc)});
  return out;
}

control::SessionState Control::sessionState() {
  control::SessionState state;
  {
    std::lock_guard lock(mutex_);
    for (int p = 0; p < control::kParts; ++p) state.parts[static_cast<std::size_t>(p)] = at(p).settings;
    state.settings = settings_;
    state.effects = effects_;
  }
  addSends(state);
  connections_.addTo(state);
  if (hosts_) state.hosts = hosts_->settings();
  return state;
}

// The engine's CC91 and CC93 of every part, as /spindle/cc and the window set them.
void Control::addSends(control::SessionState& state) {
  for (int p = 0; p < control::kParts; ++p) {
    const std::array<float, 2> sends = partSends(p);
    control::PartSettings& part = state.parts[static_cast<std::size_t>(p)];
    part.reverbSend = static_cast<int>(std::lround(sends[0] * 127.0f));
    part.chorusSend = static_cast<int>(std::lround(sends[1] * 127.0f));
  }
}

control::ControlStatus Control::status() {
  const io::LiveStatsSnapshot s = live_.stats();
  control::ControlStatus out;
  out.voices = s.activeVoices;
  out.peakVoices = s.peakVoices;
  out.streams = static_cast<int32_t>(s.streams);
  out.backendXruns = s.backendXruns;
  out.detectedXruns = s.detectedXruns;
  out.overBudget = s.process.overBudget;
  out.streamUnderruns = s.streamUnderruns;
  if (s.latency.notes > 0) {
    out.latencyLastMs = framesToMs(s.latency.lastFrames, s.sampleRate);
    out.latencyMinMs = framesToMs(s.latency.minFrames, s.sampleRate);
    out.latencyMaxMs = framesToMs(s.latency.maxFrames, s.sampleRate);
  }
  out.processLoad = s.process.percentile(0.99);
  const auto [bytes, samples] = memory();
  out.memoryBytes = bytes;
  out.bytesPerSample = samples > 0 ? bytes / samples : 0;
  out.commandsDropped = refused_.load(std::memory_order_relaxed) + s.midiDropped + engine_.stats().commandsDropped;
  out.sampleRate = s.sampleRate;
  out.netRoundTripFrames = s.networkRoundTripFrames;
  out.netRoundTripPeriods = s.networkRoundTripFrames > 0 ? s.networkSlavePeriods + 1 : 0;
  const engine::EngineStats engineNow = engine_.stats();
  out.mpeLower = engineNow.mpeLower;
  out.mpeUpper = engineNow.mpeUpper;
  addDiskStatus(out);
  return out;
}

// The disk streams' share of the status: the stream closest to running dry, the block cache.
void Control::addDiskStatus(control::ControlStatus& out) {
  if (const rt::StreamBank* bank = engine_.config().streams) {
    const rt::StreamBank::Ahead ahead = bank->lowestAhead();
    out.aheadMinMs = ahead.open > 0 && out.sampleRate > 0.0 ? framesToMs(ahead.lowestFrames, out.sampleRate) : -1.0;
  }
  if (!streaming_ || !streaming_->disk()) return;
  out.cacheBudgetBytes = streaming_->cacheBytes();
  const stream::DiskCounters& counters = streaming_->disk()->counters();
  const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  const stream::CacheFigures cache = cacheRate_.sample(counters, now);
  out.cacheHitRate = cache.hitRate;
  out.decodedMBps = cache.decodedMBps;
  out.cacheBytes = cache.cacheBytes;
  out.pinnedBlocks = static_cast<int64_t>(counters.pinnedBlocks.load(std::memory_order_relaxed));
}

}  // namespace spindle::session
