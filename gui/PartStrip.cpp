#include "gui/PartStrip.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QPainter>
#include <QProgressBar>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QUrl>
#include <algorithm>
#include <cmath>

#include "gui/InstrumentFiles.h"
#include "gui/Theme.h"
#include "gui/TuningButton.h"

namespace spindle::gui {

// A horizontal bar: the part's level in dBFS, from kFloorDb (empty) to 0 dBFS (full),
// green up to -12 dB, amber up to -3 dB, red above (and when it clips).
class LevelMeter : public QWidget {
 public:
  static constexpr float kFloorDb = -60.0f;
  explicit LevelMeter(QWidget* parent) : QWidget(parent) { setFixedSize(64, 10); }
  void setLevel(float db) {
    db = std::clamp(db, kFloorDb, 0.0f);
    if (std::abs(db - db_) < 0.25f) return;
    db_ = db;
    update();
  }
  float level() const noexcept { return db_; }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    p.fillRect(rect(), theme::kWindow);
    const auto at = [this](float db) { return 1.0 - static_cast<double>(db / kFloorDb); };
    const int w = static_cast<int>((width() - 2) * at(db_));
    QLinearGradient g(1, 0, width() - 1, 0);
    g.setColorAt(0.0, theme::kGood.darker(120));
    g.setColorAt(at(-12.0f), theme::kGood);
    g.setColorAt(at(-6.0f), theme::kWarn);
    g.setColorAt(at(-3.0f), theme::kBad);
    p.fillRect(QRect(1, 1, w, height() - 2), g);
    p.setPen(theme::kBorder);
    p.drawRect(rect().adjusted(0, 0, -1, -1));
  }

 private:
  float db_ = kFloorDb;
};

PartStrip::PartStrip(int part, QWidget* parent) : QFrame(parent), part_(part) {
  setObjectName(QStringLiteral("PartStrip"));
  setAcceptDrops(true);
  buildControls();
  setInstrument({}, {});
  setLoading(false);
}

QToolButton* PartStrip::toggle(const QString& text, const QString& name, const QString& tip) {
  auto* button = new QToolButton(this);
  button->setText(text);
  button->setObjectName(name);
  button->setCheckable(true);
  button->setToolTip(tip);
  button->setFixedWidth(24);
  return button;
}

void PartStrip::buildControls() {
  number_ = new QLabel(QString::number(part_ + 1).rightJustified(2, ' '), this);
  number_->setObjectName(QStringLiteral("PartNumber"));
  number_->setFixedWidth(18);
  name_ = new QLabel(this);
  name_->setObjectName(QStringLiteral("Instrument"));
  name_->setMinimumWidth(150);
  load_ = new QToolButton(this);
  load_->setText(tr("Load…"));
  load_->setToolTip(tr("Load an instrument (SFZ, DecentSampler, Hydrogen kit) into this part, or drop one here"));
  progress_ = new QProgressBar(this);
  progress_->setFixedWidth(170);
  cancel_ = new QToolButton(this);
  cancel_->setText(QStringLiteral("✕"));
  cancel_->setToolTip(tr("Cancel loading"));
  tuning_ = new TuningButton(part_, this);
  buildMixer();
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(6, 2, 6, 2);
  row->setSpacing(6);
  row->addWidget(number_);
  row->addWidget(name_, 1);
  for (QWidget* w : std::initializer_list<QWidget*>{load_, progress_, cancel_, tuning_, volume_, volumeText_, pan_,
                                                    mute_, solo_, notes_, meter_})
    row->addWidget(w);
  connectControls();
}

void PartStrip::buildMixer() {
  volume_ = new QSlider(Qt::Horizontal, this);
  volume_->setRange(kVolumeMinDb, kVolumeMaxDb);
  volume_->setValue(0);
  volume_->setFixedWidth(90);
  volume_->setToolTip(tr("Part volume (dB)"));
  volumeText_ = new QLabel(QStringLiteral("  0 dB"), this);
  volumeText_->setObjectName(QStringLiteral("Value"));
  volumeText_->setFixedWidth(48);
  pan_ = new QSlider(Qt::Horizontal, this);
  pan_->setRange(-100, 100);
  pan_->setFixedWidth(54);
  pan_->setToolTip(tr("Pan"));
  mute_ = toggle(QStringLiteral("M"), QStringLiteral("Mute"), tr("Mute"));
  solo_ = toggle(QStringLiteral("S"), QStringLiteral("Solo"), tr("Solo"));
  notes_ = new QLabel(this);
  notes_->setObjectName(QStringLiteral("Value"));
  notes_->setFixedWidth(26);
  notes_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  notes_->setToolTip(tr("Voices sounding"));
  meter_ = new LevelMeter(this);
  meter_->setToolTip(tr("Output level (peak, dBFS; -60 to 0)"));
}

void PartStrip::connectControls() {
  connect(load_, &QToolButton::clicked, this, [this] { emit loadRequested(part_); });
  connect(cancel_, &QToolButton::clicked, this, [this] { emit cancelRequested(part_); });
  connect(volume_, &QSlider::valueChanged, this, [this](int db) {
    volumeText_->setText(QStringLiteral("%1 dB").arg(db, 3));
    emit volumeChanged(part_, static_cast<float>(db));
  });
  connect(pan_, &QSlider::valueChanged, this, [this](int pan) { emit panChanged(part_, static_cast<float>(pan) / 100.0f); });
  connect(mute_, &QToolButton::toggled, this, [this](bool on) { emit muteChanged(part_, on); });
  connect(solo_, &QToolButton::toggled, this, [this](bool on) { emit soloChanged(part_, on); });
}

void PartStrip::setInstrument(const QString& name, const QString& path) {
  name_->setText(name.isEmpty() ? tr("empty") : name);
  name_->setToolTip(path);
  name_->setProperty("empty", name.isEmpty());
  name_->style()->unpolish(name_);
  name_->style()->polish(name_);
}

QString PartStrip::instrumentText() const { return name_->property("empty").toBool() ? QString() : name_->text(); }

void PartStrip::setProgress(int filesDone, int filesTotal, double megabytes) {
  progress_->setRange(0, std::max(filesTotal, 1));
  progress_->setValue(filesTotal > 0 ? filesDone : 0);
  progress_->setFormat(filesTotal > 0 ? tr("%1 / %2 files · %3 MB").arg(filesDone).arg(filesTotal).arg(megabytes, 0, 'f', 1)
                                      : tr("reading .sfz…"));
}

void PartStrip::setLoading(bool loading) {
  loading_ = loading;
  progress_->setVisible(loading);
  cancel_->setVisible(loading);
  load_->setVisible(!loading);
}

void PartStrip::setLevel(float meterDb, int voices) {
  meter_->setLevel(meterDb);
  const QString text = voices > 0 ? QString::number(voices) : QStringLiteral("·");
  if (notes_->text() != text) notes_->setText(text);
}

float PartStrip::meterDb() const { return meter_->level(); }

QString PartStrip::voicesText() const { return notes_->text(); }

void PartStrip::showMixer(float volumeDb, float pan, bool mute, bool solo) {
  const QSignalBlocker blockVolume(volume_), blockPan(pan_), blockMute(mute_), blockSolo(solo_);
  volume_->setValue(static_cast<int>(std::lround(volumeDb)));
  volumeText_->setText(QStringLiteral("%1 dB").arg(volume_->value(), 3));
  pan_->setValue(static_cast<int>(std::lround(pan * 100.0f)));
  mute_->setChecked(mute);
  solo_->setChecked(solo);
}

void PartStrip::setSelected(bool selected) {
  setProperty("selected", selected);
  style()->unpolish(this);
  style()->polish(this);
}

void PartStrip::dragEnterEvent(QDragEnterEvent* event) {
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile() && isInstrumentPath(url.toLocalFile())) {
      event->acceptProposedAction();
      return;
    }
}

void PartStrip::dropEvent(QDropEvent* event) {
  for (const QUrl& url : event->mimeData()->urls()) {
    const QString file = url.toLocalFile();
    if (!isInstrumentPath(file)) continue;
    event->acceptProposedAction();
    const QString fragment = url.fragment();
    if (fragment.startsWith(QStringLiteral("preset="))) emit presetDropped(part_, file, fragment.mid(7).toInt());
    else emit fileDropped(part_, file);
    return;
  }
}

void PartStrip::mousePressEvent(QMouseEvent* event) {
  emit selectRequested(part_);
  QFrame::mousePressEvent(event);
}

}  // namespace spindle::gui
