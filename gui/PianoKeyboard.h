#pragma once
// PianoKeyboard: an on-screen keyboard. Paints the loaded instrument's key ranges (keys
// no region plays are greyed out) and its keyswitches (amber, the default one marked),
// with their names (label_key, sw_label: written along the key, and as its tooltip),
// and lights held keys: the ones the engine reports held on the part (from any MIDI
// input: the JACK port, ALSA, a raw device, OSC, this keyboard) and the ones held here.
//
// Plays with the mouse (click, or drag across keys) and the computer keyboard:
//
//    W E   T Y U   O P          black keys      Z / X: octave down / up
//   A S D F G H J K L ;         white keys, C to E of the next octave
//
// MPE (gui/NoteMarks.h, PianoKeyboardMpe.cpp): when the selected part is the master of
// an MPE zone, each key pressed here plays on a member channel of its own, and the mouse
// shapes it as an MPE controller does: sliding sideways bends the note (a semitone per
// semitone of keyboard, the zone's default 48-semitone range), up and down sets its
// timbre (CC74: 127 at the top of the key, 0 at its bottom). The member notes that
// sound, from any MIDI input, are drawn over their keys: a dot at the bent pitch, as high
// as the timbre, as large as the pressure, joined to the key it started on.
//
// Thread: gui thread. It emits noteOn/noteOff (MPE: channelMessage); it never talks to
// the engine itself.
#include <QWidget>
#include <array>
#include <bitset>
#include <vector>

#include "gui/KeyMap.h"
#include "gui/NoteMarks.h"

namespace spindle::gui {

class PianoKeyboard : public QWidget {
  Q_OBJECT

 public:
  explicit PianoKeyboard(QWidget* parent = nullptr);

  void setKeyMap(const KeyMap& map);
  void setLit(const std::bitset<128>& keys);
  const std::bitset<128>& lit() const noexcept { return lit_; }
  void setRange(int firstKey, int lastKey);  // both white keys, e.g. 21 (A0) .. 108 (C8)
  void setVelocity(int velocity) { velocity_ = velocity; }
  int baseKey() const noexcept { return baseKey_; }  // the computer keyboard's "A"

  // MPE: the zone's member channels to play on (off: noteOn/noteOff on the part's own
  // channel), and the member notes sounding now, to draw.
  void setMpeChannels(MpeChannels channels);
  MpeChannels mpeChannels() const noexcept { return mpe_; }
  void setNoteMarks(std::vector<NoteMark> marks);
  const std::vector<NoteMark>& noteMarks() const noexcept { return marks_; }
  // Where a mark is drawn: its dot's centre.
  QPointF markPoint(const NoteMark& mark) const;

  QRect keyRect(int key) const;
  QString keyName(int key) const;  // label_key / sw_label of the loaded instrument; empty: none
  int keyAt(const QPoint& point) const;  // -1 outside the keys
  static bool isBlack(int key) noexcept;
  static int keyForComputerKey(int qtKey, int baseKey);  // -1 when not a note key

  QSize sizeHint() const override { return {900, 110}; }
  QSize minimumSizeHint() const override { return {300, 70}; }

 signals:
  void noteOn(int key, int velocity);
  void noteOff(int key);
  // MPE: a message on a member channel (note-on, note-off, pitch bend, CC74).
  void channelMessage(int status, int data1, int data2);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void keyReleaseEvent(QKeyEvent* event) override;
  void focusOutEvent(QFocusEvent* event) override;
  bool event(QEvent* event) override;  // tooltips: the key's name

 private:
  int whiteIndex(int key) const;  // white keys from firstKey_ to key
  int whiteCount() const { return whiteIndex(lastKey_) + 1; }
  double whiteWidth() const;
  QRect keysArea() const;
  QColor keyColour(int key) const;
  void paintKey(QPainter& painter, int key) const;
  void paintRangeBand(QPainter& painter) const;
  void paintLabels(QPainter& painter) const;
  void paintKeyNames(QPainter& painter, bool black) const;
  void press(int key);
  void release(int key);
  void releaseAll();
  // MPE (PianoKeyboardMpe.cpp)
  void pressMember(int key, int timbre);
  void releaseMember(int key);
  void slideMember(const QPoint& at);
  int freeMemberChannel() const;
  static int timbreAt(const QRect& area, int y);
  void paintNoteMarks(QPainter& painter) const;

  KeyMap map_;
  std::bitset<128> lit_;
  std::bitset<128> down_;  // held by this widget (mouse or computer keyboard)
  int firstKey_ = 21, lastKey_ = 108;
  int mouseKey_ = -1;
  int baseKey_ = 60;
  int velocity_ = 100;
  bool haveMap_ = false;
  MpeChannels mpe_;
  std::vector<NoteMark> marks_;
  std::array<int, 128> memberOf_{};  // MPE: the member channel + 1 each key held here plays on (0: none)
  int nextMember_ = 0;               // round robin over the member channels
  QPoint pressedAt_;                 // where the mouse's note started (its bend is 0 there)
};

}  // namespace spindle::gui
