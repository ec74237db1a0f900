#include "gui/PianoKeyboard.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

#include "gui/Theme.h"

namespace spindle::gui {

namespace {

constexpr int kBandHeight = 7;  // the key-range band above the keys
constexpr double kBlackWidth = 0.62, kBlackHeight = 0.62;

// Computer keys in semitones from the base key: the home row plays white keys, the row
// above it the black keys between them.
struct ComputerKey {
  int qtKey;
  int semitone;
};
constexpr ComputerKey kComputerKeys[] = {
    {Qt::Key_A, 0},  {Qt::Key_W, 1},  {Qt::Key_S, 2},  {Qt::Key_E, 3},  {Qt::Key_D, 4},
    {Qt::Key_F, 5},  {Qt::Key_T, 6},  {Qt::Key_G, 7},  {Qt::Key_Y, 8},  {Qt::Key_H, 9},
    {Qt::Key_U, 10}, {Qt::Key_J, 11}, {Qt::Key_K, 12}, {Qt::Key_O, 13}, {Qt::Key_L, 14},
    {Qt::Key_P, 15}, {Qt::Key_Semicolon, 16},
};

}  // namespace

PianoKeyboard::PianoKeyboard(QWidget* parent) : QWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(false);
  setToolTip(tr("Click or drag to play. Keyboard: A W S E D F T G Y H U J K… plays from C%1; Z / X: octave down / up")
                 .arg(baseKey_ / 12 - 1));
}

bool PianoKeyboard::isBlack(int key) noexcept {
  const int n = key % 12;
  return n == 1 || n == 3 || n == 6 || n == 8 || n == 10;
}

int PianoKeyboard::keyForComputerKey(int qtKey, int baseKey) {
  for (const ComputerKey& k : kComputerKeys)
    if (k.qtKey == qtKey) {
      const int key = baseKey + k.semitone;
      return key >= 0 && key < 128 ? key : -1;
    }
  return -1;
}

void PianoKeyboard::setKeyMap(const KeyMap& map) {
  map_ = map;
  haveMap_ = !map.empty() || map.defaultKeyswitch >= 0;
  update();
}

void PianoKeyboard::setLit(const std::bitset<128>& keys) {
  if (keys == lit_) return;
  lit_ = keys;
  update();
}

void PianoKeyboard::setRange(int firstKey, int lastKey) {
  firstKey_ = std::clamp(firstKey, 0, 127);
  lastKey_ = std::clamp(lastKey, firstKey_, 127);
  update();
}

int PianoKeyboard::whiteIndex(int key) const {
  int count = 0;
  for (int k = firstKey_; k <= key; ++k)
    if (!isBlack(k)) ++count;
  return count - 1;
}

QRect PianoKeyboard::keysArea() const { return rect().adjusted(0, kBandHeight + 2, -1, -1); }

double PianoKeyboard::whiteWidth() const { return static_cast<double>(keysArea().width()) / whiteCount(); }

QRect PianoKeyboard::keyRect(int key) const {
  if (key < firstKey_ || key > lastKey_) return {};
  const QRect area = keysArea();
  const double ww = whiteWidth();
  const int idx = whiteIndex(key);
  if (!isBlack(key)) {
    const int x0 = area.left() + static_cast<int>(idx * ww), x1 = area.left() + static_cast<int>((idx + 1) * ww);
    return {x0, area.top(), x1 - x0, area.height()};
  }
  const double centre = area.left() + (idx + 1) * ww;
  const int w = static_cast<int>(ww * kBlackWidth);
  return {static_cast<int>(centre - w / 2.0), area.top(), w, static_cast<int>(area.height() * kBlackHeight)};
}

int PianoKeyboard::keyAt(const QPoint& point) const {
  for (int key = firstKey_; key <= lastKey_; ++key)
    if (isBlack(key) && keyRect(key).contains(point)) return key;
  for (int key = firstKey_; key <= lastKey_; ++key)
    if (!isBlack(key) && keyRect(key).contains(point)) return key;
  return -1;
}

QColor PianoKeyboard::keyColour(int key) const {
  const auto k = static_cast<std::size_t>(key);
  const bool black = isBlack(key);
  if (lit_[k] || down_[k]) return black ? theme::kAccent.darker(115) : theme::kAccent;
  if (map_.keyswitch[k]) return black ? theme::kKeyswitch.darker(150) : theme::kKeyswitch;
  if (haveMap_ && !map_.playable[k]) return black ? QColor(0x34, 0x38, 0x3f) : QColor(0x6a, 0x71, 0x7b);
  return black ? QColor(0x15, 0x17, 0x1b) : QColor(0xea, 0xec, 0xef);
}

void PianoKeyboard::paintKey(QPainter& painter, int key) const {
  const QRect r = keyRect(key);
  painter.setPen(QPen(theme::kWindow, 1));
  painter.setBrush(keyColour(key));
  painter.drawRect(isBlack(key) ? r : r.adjusted(0, 0, -1, 0));
  if (key == map_.defaultKeyswitch) {  // a dot on the keyswitch active before any is pressed
    painter.setBrush(theme::kWindow);
    const int d = std::max(4, r.width() / 4);
    painter.drawEllipse(QPoint(r.center().x(), r.bottom() - d - 2), d / 2, d / 2);
  }
}

void PianoKeyboard::paintRangeBand(QPainter& painter) const {
  painter.fillRect(QRect(0, 0, width(), kBandHeight), theme::kPanel);
  if (!haveMap_) return;
  const double ww = whiteWidth();
  for (int key = firstKey_; key <= lastKey_; ++key) {
    const auto k = static_cast<std::size_t>(key);
    if (!map_.playable[k] && !map_.keyswitch[k]) continue;
    const double centre = keysArea().left() + (whiteIndex(key) + (isBlack(key) ? 1.0 : 0.5)) * ww;
    const QRectF segment(centre - ww / 2.0, 1.0, ww + 0.5, kBandHeight - 2.0);
    painter.fillRect(segment, map_.keyswitch[k] ? theme::kKeyswitch : theme::kAccent.darker(110));
  }
}

void PianoKeyboard::paintLabels(QPainter& painter) const {
  QFont font = painter.font();
  font.setPixelSize(std::clamp(static_cast<int>(whiteWidth() * 0.45), 7, 11));
  painter.setFont(font);
  painter.setPen(QColor(0x4a, 0x50, 0x58));
  for (int key = firstKey_; key <= lastKey_; ++key) {
    if (key % 12 != 0) continue;
    const QRect r = keyRect(key).adjusted(0, 0, 0, -3);
    painter.drawText(r, Qt::AlignHCenter | Qt::AlignBottom, QStringLiteral("C%1").arg(key / 12 - 1));
  }
}

QString PianoKeyboard::keyName(int key) const {
  return key >= 0 && key < 128 ? QString::fromStdString(map_.names[static_cast<std::size_t>(key)]) : QString();
}

// Names run up the key from its bottom (white keys) or its tip (black keys), clipped to it.
void PianoKeyboard::paintKeyNames(QPainter& painter, bool black) const {
  QFont font = painter.font();
  font.setPixelSize(std::clamp(static_cast<int>(whiteWidth() * 0.7), 7, 10));
  painter.setFont(font);
  painter.setPen(black ? QColor(0xf0, 0xf0, 0xf0) : QColor(0x20, 0x22, 0x26));
  for (int key = firstKey_; key <= lastKey_; ++key) {
    if (isBlack(key) != black || map_.names[static_cast<std::size_t>(key)].empty()) continue;
    const QRect r = keyRect(key);
    const int bottom = black ? r.bottom() - 2 : r.bottom() - 16;  // above the C labels
    const int top = black ? r.top() + 2 : r.top() + static_cast<int>(r.height() * kBlackHeight) + 2;
    painter.save();
    painter.translate(r.center().x(), bottom);
    painter.rotate(-90);
    painter.drawText(QRect(0, -r.width() / 2, bottom - top, r.width()), Qt::AlignLeft | Qt::AlignVCenter,
                     painter.fontMetrics().elidedText(keyName(key), Qt::ElideRight, bottom - top));
    painter.restore();
  }
}

bool PianoKeyboard::event(QEvent* event) {
  if (event->type() != QEvent::ToolTip) return QWidget::event(event);
  const auto* help = static_cast<QHelpEvent*>(event);
  const int key = keyAt(help->pos());
  const QString name = keyName(key);
  if (name.isEmpty()) QToolTip::hideText();
  else QToolTip::showText(help->globalPos(), name, this);
  return true;
}

void PianoKeyboard::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), theme::kWindow);
  paintRangeBand(painter);
  for (int key = firstKey_; key <= lastKey_; ++key)
    if (!isBlack(key)) paintKey(painter, key);
  paintLabels(painter);
  paintKeyNames(painter, false);
  for (int key = firstKey_; key <= lastKey_; ++key)
    if (isBlack(key)) paintKey(painter, key);
  paintKeyNames(painter, true);
  paintNoteMarks(painter);
  if (hasFocus()) {
    painter.setPen(theme::kAccent.darker(150));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(rect().adjusted(0, 0, -1, -1));
  }
}

void PianoKeyboard::press(int key) {
  if (key < 0 || down_[static_cast<std::size_t>(key)]) return;
  down_.set(static_cast<std::size_t>(key));
  if (mpe_.on()) pressMember(key, 64);
  else emit noteOn(key, velocity_);
  update();
}

void PianoKeyboard::release(int key) {
  if (key < 0 || !down_[static_cast<std::size_t>(key)]) return;
  down_.reset(static_cast<std::size_t>(key));
  if (memberOf_[static_cast<std::size_t>(key)] > 0) releaseMember(key);
  else emit noteOff(key);
  update();
}

void PianoKeyboard::releaseAll() {
  for (int key = 0; key < 128; ++key) release(key);
  mouseKey_ = -1;
}

void PianoKeyboard::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  setFocus(Qt::MouseFocusReason);
  pressedAt_ = event->position().toPoint();
  mouseKey_ = keyAt(pressedAt_);
  if (mpe_.on() && mouseKey_ >= 0 && !down_[static_cast<std::size_t>(mouseKey_)]) {
    down_.set(static_cast<std::size_t>(mouseKey_));
    pressMember(mouseKey_, timbreAt(keysArea(), pressedAt_.y()));
    update();
    return;
  }
  press(mouseKey_);
}

void PianoKeyboard::mouseMoveEvent(QMouseEvent* event) {
  if (!(event->buttons() & Qt::LeftButton)) return;
  if (mpe_.on() && mouseKey_ >= 0 && memberOf_[static_cast<std::size_t>(mouseKey_)] > 0)
    return slideMember(event->position().toPoint());  // the note bends; no other key starts
  const int key = keyAt(event->position().toPoint());
  if (key == mouseKey_) return;
  release(mouseKey_);
  mouseKey_ = key;
  press(key);
}

void PianoKeyboard::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  release(mouseKey_);
  mouseKey_ = -1;
}

void PianoKeyboard::keyPressEvent(QKeyEvent* event) {
  if (event->isAutoRepeat()) return;
  if (event->key() == Qt::Key_Z || event->key() == Qt::Key_X) {
    releaseAll();
    baseKey_ = std::clamp(baseKey_ + (event->key() == Qt::Key_Z ? -12 : 12), 0, 108);
    return;
  }
  const int key = keyForComputerKey(event->key(), baseKey_);
  if (key < 0) return QWidget::keyPressEvent(event);
  press(key);
}

void PianoKeyboard::keyReleaseEvent(QKeyEvent* event) {
  if (event->isAutoRepeat()) return;
  const int key = keyForComputerKey(event->key(), baseKey_);
  if (key < 0) return QWidget::keyReleaseEvent(event);
  release(key);
}

void PianoKeyboard::focusOutEvent(QFocusEvent* event) {
  releaseAll();  // no note may hang because the key-up went to another window
  QWidget::focusOutEvent(event);
}

}  // namespace spindle::gui
