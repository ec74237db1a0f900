// EngineLink: the window's commands to the session's Control, and its copies of what
// the session holds (sync). What poll() reads besides: EngineLinkPoll.cpp.
#include "gui/EngineLink.h"

#include <algorithm>
#include <chrono>

namespace spindle::gui {

EngineLink::EngineLink(session::Control& control, const RealtimeStatus& realtime, QObject* parent)
    : QObject(parent), control_(control), realtime_(realtime) {
  partSerials_.fill(~uint64_t{0});  // every part read once
  connect(&timer_, &QTimer::timeout, this, &EngineLink::poll);
  control_.setLoadObserver(&loads_);
  // A change from another thread (OSC, the loader) is shown as soon as the gui thread
  // runs its events; one queued call at a time.
  control_.setChangeListener([this] {
    if (syncQueued_.exchange(true)) return;
    QMetaObject::invokeMethod(
        this,
        [this] {
          syncQueued_ = false;
          sync();
        },
        Qt::QueuedConnection);
  });
  sync();
}

EngineLink::~EngineLink() {
  control_.setChangeListener({});
  control_.setLoadObserver(nullptr);
}

double EngineLink::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The gui thread owns the engine's command side: what it asked goes to the engine now.
void EngineLink::commanded() {
  control_.pump();
  sync();
}

void EngineLink::loadLibrary(int part, const QString& sfzFile) {
  control_.load(0, part, sfzFile.toStdString(), loads_);
  emit loadProgress(part, 0, 0, 0.0);
}

// Loading, as far as the window knows: queued or running, or ended and not yet announced.
bool EngineLink::loading(int part) const {
  return control_.loading(part) || loads_.started(part) > finishedLoads_[index(part)];
}

void EngineLink::unload(int part) {
  if (control_.unload(part)) commanded();
}

void EngineLink::setPolyphony(int voices) {
  if (control_.setPolyphony(voices)) commanded();
}

void EngineLink::setQuality(int quality) {
  if (control_.setQuality(quality)) commanded();
}

void EngineLink::setTempo(float bpm) {
  if (control_.setTempo(bpm)) commanded();
}

void EngineLink::setMpeZone(bool upper, int members) {
  if (control_.setMpeZone(upper, members)) commanded();
}

void EngineLink::setVolume(int part, float db) {
  if (control_.setPartVolume(part, db)) commanded();
}

void EngineLink::setPan(int part, float pan) {
  if (control_.setPartPan(part, pan)) commanded();
}

void EngineLink::setMute(int part, bool on) {
  if (control_.setPartMute(part, on)) commanded();
}

void EngineLink::setSolo(int part, bool on) {
  if (control_.setPartSolo(part, on)) commanded();
}

void EngineLink::panic() {
  if (control_.panic()) commanded();
  for (PartInfo& p : parts_) p.heldHere.reset();
}

// Through the window's MIDI input, which OSC shares (Control::sendMidiAt).
bool EngineLink::sendMidi(uint8_t status, uint8_t data1, uint8_t data2, std::optional<uint64_t> frame) {
  if (!control_.sendMidiAt(status, data1, data2, frame)) return false;
  trackHeld(MidiEvent{0, status, static_cast<uint8_t>(data1 & 0x7F), static_cast<uint8_t>(data2 & 0x7F)});
  return true;
}

// Notes through this input (the keyboard) are known exactly, note-off included.
void EngineLink::trackHeld(const MidiEvent& message) {
  std::bitset<128>& held = parts_[static_cast<std::size_t>(message.channel())].heldHere;
  const bool allOff = message.type() == midi::kControlChange &&
                      (message.data1 == midi::kCcAllNotesOff || message.data1 == midi::kCcAllSoundOff);
  if (allOff) held.reset();
  else if (message.type() == midi::kNoteOn && message.data2 > 0) held.set(message.data1);
  else if (message.type() == midi::kNoteOn || message.type() == midi::kNoteOff) held.reset(message.data1);
}

void EngineLink::noteOn(int part, int key, int velocity) {
  if (key < 0 || key > 127) return;
  sendMidi(static_cast<uint8_t>(midi::kNoteOn | part), static_cast<uint8_t>(key),
           static_cast<uint8_t>(std::clamp(velocity, 1, 127)));
}

void EngineLink::noteOff(int part, int key) {
  if (key < 0 || key > 127) return;
  sendMidi(static_cast<uint8_t>(midi::kNoteOff | part), static_cast<uint8_t>(key), 0);
}

// The session's state as the window shows it; each change announced once.
void EngineLink::sync() {
  for (int part = 0; part < limits::kChannels; ++part)
    if (syncPart(part)) emit partChanged(part);
  settings_ = control_.settings();
  const EffectValues effects = control_.effects();
  if (effects == effects_) return;
  effects_ = effects;
  emit effectsChanged();
}

// The part's copy, when the session's part changed since it was made.
bool EngineLink::syncPart(int part) {
  const uint64_t serial = control_.partSerial(part);
  if (serial == partSerials_[index(part)]) return false;
  const session::PartState s = control_.part(part);
  partSerials_[index(part)] = s.serial;
  PartInfo& info = parts_[index(part)];
  if (s.program != info.program) {
    info.keys = s.program ? keyMapOf(*s.program) : KeyMap{};
    info.controlValues = s.controlDefaults;  // the engine's values once it plays the program
  }
  info.program = s.program;
  info.name = QString::fromStdString(s.name);
  info.path = QString::fromStdString(s.path);
  info.volumeDb = s.settings.volumeDb, info.pan = s.settings.pan;
  info.mute = s.settings.mute, info.solo = s.settings.solo;
  info.regions = s.regions, info.missingSamples = s.missingSamples;
  info.controls = s.controls;
  info.controlValues.resize(info.controls.size(), 0.0f);
  info.keyLabels = s.keyLabels;
  info.scalePath = QString::fromStdString(s.settings.scale);
  info.keymapPath = QString::fromStdString(s.settings.keymap);
  info.scaleName = QString::fromStdString(s.scaleName);
  info.sharedFrom = s.sharedFrom;
  info.effects = s.effects;
  info.effectBypass = s.settings.effectBypass;
  problems_[index(part)] = s.problems;  // announced when a load ends (finishLoad)
  return true;
}

}  // namespace spindle::gui
