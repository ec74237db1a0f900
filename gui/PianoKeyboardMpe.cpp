// PianoKeyboard's MPE side (PianoKeyboard.h): keys played on member channels of their
// own, the mouse's bend and timbre gestures, and the member notes drawn over the keys.
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "core/MidiEvent.h"
#include "gui/PianoKeyboard.h"
#include "gui/Theme.h"

namespace spindle::gui {

namespace {

// The zone's default per-note bend range (MPE 1.0): the gesture's semitones are the
// note's as long as no controller set another range with RPN 0.
constexpr double kMemberRangeSemitones = static_cast<double>(engine::MpeLayout::kMemberRange) / 100.0;
const QColor kMarkColour{0xff, 0x9f, 0x43};

}  // namespace

void PianoKeyboard::setMpeChannels(MpeChannels channels) {
  if (channels.on() == mpe_.on() && (!channels.on() || (channels.first == mpe_.first && channels.last == mpe_.last))) return;
  releaseAll();  // the notes held here end on the channels they started on
  mpe_ = channels;
  nextMember_ = 0;
  update();
}

void PianoKeyboard::setNoteMarks(std::vector<NoteMark> marks) {
  if (marks.empty() && marks_.empty()) return;
  marks_ = std::move(marks);
  update();
}

int PianoKeyboard::freeMemberChannel() const {
  const int count = mpe_.last - mpe_.first + 1;
  for (int i = 0; i < count; ++i) {
    const int channel = mpe_.first + (nextMember_ + i) % count;
    if (std::find(memberOf_.begin(), memberOf_.end(), channel + 1) == memberOf_.end()) return channel;
  }
  return mpe_.first + nextMember_ % count;  // every member busy: the oldest turn again
}

int PianoKeyboard::timbreAt(const QRect& area, int y) {
  const double share = static_cast<double>(area.bottom() - y) / std::max(1, area.height() - 1);
  return std::clamp(static_cast<int>(std::lround(share * 127.0)), 0, 127);
}

// MPE 1.0: a note's expression is sent on its channel before its note-on. The mouse has
// no pressure: the note holds its velocity as its pressure, so an instrument that sounds
// by pressure sounds.
void PianoKeyboard::pressMember(int key, int timbre) {
  const int channel = freeMemberChannel();
  nextMember_ = (channel - mpe_.first + 1) % (mpe_.last - mpe_.first + 1);
  memberOf_[static_cast<std::size_t>(key)] = channel + 1;
  emit channelMessage(midi::kPitchBend | channel, 0, 64);
  emit channelMessage(midi::kControlChange | channel, engine::NoteExpression::kTimbreCc, timbre);
  emit channelMessage(midi::kChannelPressure | channel, velocity_, 0);
  emit channelMessage(midi::kNoteOn | channel, key, velocity_);
}

void PianoKeyboard::releaseMember(int key) {
  const int channel = memberOf_[static_cast<std::size_t>(key)] - 1;
  memberOf_[static_cast<std::size_t>(key)] = 0;
  emit channelMessage(midi::kNoteOff | channel, key, 0);
}

// Sideways from where the note started: its bend, a semitone per semitone of keys; up
// and down: its timbre.
void PianoKeyboard::slideMember(const QPoint& at) {
  const int channel = memberOf_[static_cast<std::size_t>(mouseKey_)] - 1;
  const double semitones = (at.x() - pressedAt_.x()) / (whiteWidth() * 7.0 / 12.0);
  const double unit = std::clamp(semitones / kMemberRangeSemitones, -1.0, 1.0);
  const int value = std::clamp(8192 + static_cast<int>(std::lround(unit * 8192.0)), 0, 16383);
  emit channelMessage(midi::kPitchBend | channel, value & 0x7F, value >> 7);
  emit channelMessage(midi::kControlChange | channel, engine::NoteExpression::kTimbreCc, timbreAt(keysArea(), at.y()));
}

QPointF PianoKeyboard::markPoint(const NoteMark& mark) const {
  const QRect key = keyRect(mark.key), area = keysArea();
  const double x = key.center().x() + 0.5 + static_cast<double>(mark.bendSemitones) * whiteWidth() * 7.0 / 12.0;
  const double y = area.top() + (1.0 - static_cast<double>(std::clamp(mark.timbre, 0.0f, 1.0f))) * (area.height() - 1);
  return {x, y};
}

void PianoKeyboard::paintNoteMarks(QPainter& painter) const {
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing);
  for (const NoteMark& mark : marks_) {
    if (keyRect(mark.key).isNull()) continue;  // outside the keys shown
    const QPointF dot = markPoint(mark);
    const QPointF start(keyRect(mark.key).center().x() + 0.5, dot.y());
    painter.setPen(QPen(kMarkColour, 2.0));
    painter.drawLine(start, dot);
    const double radius = 3.0 + 6.0 * static_cast<double>(std::clamp(mark.pressure, 0.0f, 1.0f));
    painter.setPen(QPen(theme::kWindow, 1.0));
    painter.setBrush(kMarkColour);
    painter.drawEllipse(dot, radius, radius);
  }
  painter.restore();
}

}  // namespace spindle::gui
