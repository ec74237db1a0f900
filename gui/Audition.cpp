#include "gui/Audition.h"

#include <algorithm>

#include "gui/EngineLink.h"

namespace spindle::gui {

Audition::Audition(EngineLink& link, QObject* parent) : QObject(parent), link_(link) {
  connect(&timer_, &QTimer::timeout, this, &Audition::tick);
}

std::vector<int> Audition::phrase(int lo, int hi) {
  if (lo < 0 || hi < lo) lo = 0, hi = 127;
  const int root = std::clamp(60, lo, hi) == 60 ? 60 : lo + (hi - lo) / 2;
  std::vector<int> keys;
  for (const int step : {0, 4, 7, -5, -8}) {  // a triad upwards, or downwards at the range's top
    const int key = root + step;
    if (key >= lo && key <= hi && std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    if (keys.size() == 3) break;
  }
  for (int key = lo; key <= hi && keys.size() < 3; ++key)  // a narrow range: what it has
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  return keys;
}

void Audition::start(const QString& path, int preset) {
  stop();
  path_ = path;
  preset_ = preset;
  serial_ = link_.previewState().serial;
  link_.preview(path, preset);
  waiting_ = true;
  active_ = false;
  timer_.start(kPollMs);
}

void Audition::stop() {
  timer_.stop();
  if (sounding_ >= 0) link_.previewNote(std::exchange(sounding_, -1), 0);
  waiting_ = false;
  keys_.clear();
  next_ = 0;
}

void Audition::leave() {
  stop();
  active_ = false;
}

void Audition::key(int key, bool on) {
  if (active_) link_.previewNote(key, on ? kVelocity : 0);
}

void Audition::tick() {
  if (waiting_) {
    if (!ready()) return;
    waiting_ = false;
    timer_.start(kNoteMs);
  }
  step();
}

// The load asked for has ended: true when it plays (the phrase's keys are set).
bool Audition::ready() {
  const session::PreviewState state = link_.previewState();
  if (state.serial == serial_ || state.loading) return false;
  if (!state.error.empty()) {
    timer_.stop();
    waiting_ = false;
    emit failed(QString::fromStdString(state.error));
    return false;
  }
  if (QString::fromStdString(state.path) != path_ || state.preset != preset_) return false;  // an older one's
  keys_ = phrase(state.loKey, state.hiKey);
  next_ = 0;
  active_ = true;
  emit played(QString::fromStdString(state.name));
  return true;
}

// One step of the phrase: the sounding note ends, the next starts; after the last, stop.
void Audition::step() {
  if (sounding_ >= 0) link_.previewNote(std::exchange(sounding_, -1), 0);
  if (next_ >= keys_.size()) {
    timer_.stop();
    return;
  }
  sounding_ = keys_[next_++];
  link_.previewNote(sounding_, kVelocity);
}

}  // namespace spindle::gui
