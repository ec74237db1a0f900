#include "gui/GuiControlTarget.h"

#include "gui/EngineLink.h"
#include "io/ProcessTimer.h"

namespace spindle::gui {

namespace {

control::ControlStatus statusOf(const EngineLink& link) {
  const HealthModel& health = link.health();
  const HealthInput& in = health.current();
  const io::LiveStatsSnapshot& live = in.live;
  control::ControlStatus s;
  s.voices = live.activeVoices;
  s.peakVoices = live.peakVoices;
  s.streams = static_cast<uint32_t>(in.disk.openStreams);
  s.backendXruns = live.backendXruns;
  s.detectedXruns = live.detectedXruns;
  s.overBudget = live.process.overBudget;
  s.streamUnderruns = live.streamUnderruns;
  if (live.latency.notes > 0) {
    s.latencyLastMs = health.ms(live.latency.lastFrames);
    s.latencyMinMs = health.ms(live.latency.minFrames);
    s.latencyMaxMs = health.ms(live.latency.maxFrames);
  }
  s.processLoad = live.process.percentile(0.99);
  s.aheadMinMs = in.disk.openStreams > 0 ? health.ms(in.disk.lowestAheadFrames) : -1.0;
  s.memoryBytes = in.preloadBytes;
  s.bytesPerSample = in.preloadSamples > 0 ? in.preloadBytes / in.preloadSamples : 0;
  s.pinnedBlocks = static_cast<int64_t>(in.disk.pinnedBlocks);
  s.cacheBudgetBytes = in.cacheBudgetBytes;
  s.cacheHitRate = health.cacheHitRate();
  s.decodedMBps = health.diskMegabytesPerSecond();
  s.cacheBytes = in.disk.cacheBytes;
  s.commandsDropped = link.engine().stats().commandsDropped + live.midiDropped;
  s.sampleRate = live.sampleRate;
  s.netRoundTripFrames = live.networkRoundTripFrames;
  s.netRoundTripPeriods = live.networkRoundTripFrames > 0 ? live.networkSlavePeriods + 1 : 0;
  return s;
}

}  // namespace

GuiControlTarget::GuiControlTarget(EngineLink& link, QSettings& store, QObject* parent)
    : QObject(parent), link_(link), store_(store), maxPolyphony_(link.engine().config().polyphony) {
  connect(&link_, &EngineLink::statsUpdated, this, &GuiControlTarget::refresh);
  connect(&link_, &EngineLink::loadProgress, this,
          [this](int part, int done, int total, double) { onProgress(part, done, total); });
  connect(&link_, &EngineLink::loadFinished, this, &GuiControlTarget::onFinished);
  refresh();
}

void GuiControlTarget::load(uint64_t ticket, int part, const std::string& path, control::LoadListener& listener) {
  const QString file = QString::fromStdString(path);
  onGuiThread([this, ticket, part, file, &listener] {
    link_.loadLibrary(part, file);  // reports a load it supersedes first, to that load's ticket
    tickets_[static_cast<std::size_t>(part)] = Ticket{ticket, &listener};
  });
}

bool GuiControlTarget::unload(int part) {
  return onGuiThread([this, part] { link_.unload(part); });
}

bool GuiControlTarget::sendMidi(uint8_t status, uint8_t data1, uint8_t data2) {
  const std::optional<uint64_t> frame = link_.live().clock().frameAt(io::monotonicNs());
  return onGuiThread([this, status, data1, data2, frame] { link_.sendMidi(status, data1, data2, frame); });
}

bool GuiControlTarget::setPartVolume(int part, float db) {
  return onGuiThread([this, part, db] { link_.setVolume(part, db); });
}

bool GuiControlTarget::setPartPan(int part, float pan) {
  return onGuiThread([this, part, pan] { link_.setPan(part, pan); });
}

// Read here, on the control thread, so a bad file's error goes back with the reply.
bool GuiControlTarget::setPartTuning(int part, const std::string& scale, const std::string& keymap,
                                     std::string& error) {
  error.clear();
  instrument::TuningResult result;
  instrument::TuningFileError fileError;
  if (!instrument::loadTuning({scale, keymap}, result, fileError)) {
    error = fileError.text();
    return false;
  }
  return onGuiThread([this, part, scale, keymap, result] {
    link_.applyTuning(part, QString::fromStdString(scale), QString::fromStdString(keymap), result);
  });
}

bool GuiControlTarget::setPartMute(int part, bool on) {
  return onGuiThread([this, part, on] { link_.setMute(part, on); });
}

bool GuiControlTarget::setPartSolo(int part, bool on) {
  return onGuiThread([this, part, on] { link_.setSolo(part, on); });
}

bool GuiControlTarget::setPolyphony(int voices) {
  return onGuiThread([this, voices] { link_.setPolyphony(voices); });
}

// The sample pool's preload is fixed when it is created: the new size is kept in the
// settings and applies from the next start.
bool GuiControlTarget::setPreloadFrames(int frames) {
  return onGuiThread([this, frames] {
    AppSettings s = loadSettings(store_);
    s.preloadFrames = frames;
    saveSettings(store_, s);
    refresh();
  });
}

bool GuiControlTarget::setQuality(int quality) {
  return onGuiThread([this, quality] { link_.setQuality(quality); });
}

bool GuiControlTarget::setEffect(EffectParam param, float value) {
  return onGuiThread([this, param, value] {
    link_.setEffect(param, value);
    refresh();
  });
}

// The engine's controller values may be read from any thread.
std::array<float, 2> GuiControlTarget::partSends(int part) {
  return {link_.engine().controllerValue(part, controllers::kReverbSend),
          link_.engine().controllerValue(part, controllers::kChorusSend)};
}

bool GuiControlTarget::setTempo(float bpm) {
  return onGuiThread([this, bpm] {
    link_.setTempo(bpm);
    refresh();
  });
}

// The engine's stats may be read from any thread.
control::TempoStatus GuiControlTarget::tempo() {
  const engine::EngineStats stats = link_.engine().stats();
  return {stats.tempo, engine::tempoSourceName(stats.tempoSource)};
}

bool GuiControlTarget::panic() {
  return onGuiThread([this] { link_.panic(); });
}

control::ControlStatus GuiControlTarget::status() {
  const std::lock_guard lock(mutex_);
  return status_;
}

control::SessionState GuiControlTarget::sessionState() {
  control::SessionState session;
  {
    const std::lock_guard lock(mutex_);
    session = session_;
  }
  connections_.addTo(session);
  if (hosts_) session.hosts = hosts_->settings();
  return session;
}

// The log is thread-safe and lives as long as the link, which outlives this target.
const control::ProblemLog& GuiControlTarget::problems() { return link_.problemLog(); }

std::vector<PartEffectInfo> GuiControlTarget::partEffects(int part) {
  const std::lock_guard lock(mutex_);
  return effects_[static_cast<std::size_t>(part)];
}

bool GuiControlTarget::setPartEffectBypass(int part, int index, bool on) {
  return onGuiThread([this, part, index, on] {
    link_.setEffectBypass(part, index, on);
    refresh();
  });
}

std::vector<control::PartControl> GuiControlTarget::partControls(int part) {
  const std::lock_guard lock(mutex_);
  return controls_[static_cast<std::size_t>(part)];
}

void GuiControlTarget::refresh() {
  control::SessionState session;
  std::array<std::vector<control::PartControl>, control::kParts> controls;
  std::array<std::vector<PartEffectInfo>, control::kParts> effects;
  for (int p = 0; p < control::kParts; ++p) {
    const PartInfo& info = link_.part(p);
    session.parts[static_cast<std::size_t>(p)] =
        control::PartSettings{info.sharedFrom >= 0 ? std::string() : info.path.toStdString(), info.volumeDb, info.pan,
                              info.mute, info.solo, info.scalePath.toStdString(), info.keymapPath.toStdString(),
                              link_.send(p, controllers::kReverbSend), link_.send(p, controllers::kChorusSend),
                              info.effectBypass};
    effects[static_cast<std::size_t>(p)] = link_.partEffects(p);
    for (std::size_t c = 0; c < info.controls.size(); ++c)
      controls[static_cast<std::size_t>(p)].push_back({info.controls[c].cc, info.controls[c].label, info.controlValues[c]});
  }
  session.settings.polyphony = link_.polyphony();
  session.settings.preloadFrames = loadSettings(store_).preloadFrames;
  session.settings.quality = link_.quality();
  session.settings.tempo = link_.tempo();
  session.effects = link_.effects();
  const control::ControlStatus status = statusOf(link_);
  const std::lock_guard lock(mutex_);
  session_ = std::move(session);
  status_ = status;
  controls_ = std::move(controls);
  effects_ = std::move(effects);
}

void GuiControlTarget::onProgress(int part, int filesDone, int filesTotal) {
  const auto& ticket = tickets_[static_cast<std::size_t>(part)];
  if (!ticket) return;
  control::LoadEvent event;
  event.kind = control::LoadEvent::Kind::Progress;
  event.ticket = ticket->ticket;
  event.part = part;
  event.progress = filesTotal > 0 ? static_cast<float>(filesDone) / static_cast<float>(filesTotal) : 0.0f;
  ticket->listener->onLoadEvent(std::move(event));
}

void GuiControlTarget::onFinished(int part, bool ok, const QString& name) {
  auto& ticket = tickets_[static_cast<std::size_t>(part)];
  if (!ticket) return;
  control::LoadEvent event;
  event.ticket = ticket->ticket;
  event.part = part;
  const PartInfo& info = link_.part(part);
  event.kind = ok ? control::LoadEvent::Kind::Done : control::LoadEvent::Kind::Failed;
  event.text = ok ? name.toStdString() : "not loaded (cancelled, or the file could not be read: see the problems list)";
  event.regions = ok ? info.regions : 0;
  event.missingSamples = ok ? info.missingSamples : 0;
  control::LoadListener* listener = ticket->listener;
  ticket.reset();
  refresh();  // before the event: what follows a load (a session's bypass flags) reads the new copies
  listener->onLoadEvent(std::move(event));
}

}  // namespace spindle::gui
