#include "gui/ConnectionsPanel.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

#include "core/Limits.h"
#include "gui/EngineLink.h"
#include "gui/Theme.h"

namespace spindle::gui {

namespace {

using theme::label;

// Port names can be long; the dock is narrow. The label clips, the tooltip has it all.
QLabel* portLabel(const QString& name, QWidget* parent) {
  QLabel* l = label(name, "Instrument", parent);
  l->setToolTip(name);
  l->setMinimumWidth(40);
  l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  return l;
}

// Only when it changes: a new style sheet re-polishes the label.
void colour(QLabel* l, const QColor& c) {
  const QString css = QStringLiteral("color: %1;").arg(c.name());
  if (l->styleSheet() != css) l->setStyleSheet(css);
}

// Out of the panel at once (findChild no longer sees it), freed once back in the event
// loop: a box in it may be the sender of the signal being handled.
void retire(QWidget* old) {
  old->hide();
  old->setParent(nullptr);
  old->deleteLater();
}

QGroupBox* group(const QString& title, QWidget* content, QWidget* parent) {
  auto* box = new QGroupBox(title, parent);
  auto* column = new QVBoxLayout(box);
  column->setContentsMargins(6, 4, 6, 4);
  column->addWidget(content);
  return box;
}

// "out_L → system:playback_1" per link of the port, or that it has none.
QString audioLine(const io::ConnectionReport& report, const char* port) {
  QStringList peers;
  for (const io::PortLink& link : report.links)
    if (link.port == port) peers << QString::fromStdString(link.peer);
  return QStringLiteral("%1 → %2").arg(QLatin1String(port), peers.isEmpty() ? QObject::tr("not connected") : peers.join(", "));
}

}  // namespace

ActivityLight::ActivityLight(QWidget* parent) : QWidget(parent) { setFixedSize(12, 12); }

void ActivityLight::setLit(bool lit) {
  if (lit == lit_) return;
  lit_ = lit;
  update();
}

void ActivityLight::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.setPen(lit_ ? theme::kGood.lighter(130) : theme::kDim.darker(150));
  p.setBrush(lit_ ? theme::kGood : theme::kBorder);
  p.drawEllipse(QRectF(rect()).adjusted(1.5, 1.5, -1.5, -1.5));
}

ConnectionsPanel::ConnectionsPanel(const EngineLink& link, QWidget* parent) : QWidget(parent), link_(link) {
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(4);
  hint_ = label({}, "Hint", this);
  hint_->setObjectName(QStringLiteral("connectionHint"));
  hint_->setWordWrap(true);
  hint_->setContentsMargins(4, 2, 4, 0);
  column->addWidget(hint_);
  column->addWidget(group(tr("MIDI inputs"), buildInputs(), this));
  column->addWidget(group(tr("Parts and channels"), buildParts(), this));
  column->addWidget(group(tr("Audio output"), buildAudio(), this));
  column->addStretch(1);
  connect(&link_, &EngineLink::connectionsChanged, this, &ConnectionsPanel::rebuildConnections);
  connect(&link_, &EngineLink::partChanged, this, &ConnectionsPanel::rebuildParts);
  rebuildConnections();
  rebuildParts();
}

// Row 0 the server's midi_in, row 1 its sources, then the rows addInput() appends.
QWidget* ConnectionsPanel::buildInputs() {
  auto* box = new QWidget(this);
  inputs_ = new QGridLayout(box);
  inputs_->setContentsMargins(0, 0, 0, 0);
  inputs_->setHorizontalSpacing(6);
  inputs_->setVerticalSpacing(2);
  inputs_->setColumnStretch(1, 1);
  midiIn_ = addRow(QStringLiteral("midi_in"), 0, 0);
  return box;
}

QWidget* ConnectionsPanel::buildParts() {
  auto* box = new QWidget(this);
  partsBox_ = new QVBoxLayout(box);
  partsBox_->setContentsMargins(0, 0, 0, 0);
  partsBox_->setSpacing(2);
  box->setToolTip(tr("Every MIDI input plays part k with its messages on channel k."));
  return box;
}

QWidget* ConnectionsPanel::buildAudio() {
  audio_ = label({}, "Value", this);
  audio_->setObjectName(QStringLiteral("audioOutput"));
  audio_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  return audio_;
}

QLabel* ConnectionsPanel::addRow(const QString& key, int activity, int row) {
  QWidget* box = inputs_->parentWidget();
  InputRow input;
  input.activity = activity;
  input.light = new ActivityLight(box);
  input.light->setObjectName(QStringLiteral("light:") + key);
  QLabel* name = label({}, "Instrument", box);
  name->setObjectName(QStringLiteral("input:") + key);
  name->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  input.channel = label(QStringLiteral("ch –"), "Value", box);
  input.channel->setObjectName(QStringLiteral("channel:") + key);
  input.channel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  colour(input.channel, theme::kDim);
  inputs_->addWidget(input.light, row, 0, Qt::AlignVCenter);
  inputs_->addWidget(name, row, 1);
  inputs_->addWidget(input.channel, row, 2);
  rows_.push_back(input);
  return name;
}

void ConnectionsPanel::addInput(const QString& key, int activity, const QString& title, const QString& detail) {
  QLabel* name = addRow(key, activity, inputs_->rowCount());
  name->setText(detail.isEmpty() ? title
                                 : QStringLiteral("%1 <span style=\"color:%2\">%3</span>")
                                       .arg(title, theme::kDim.name(), detail.toHtmlEscaped()));
  name->setToolTip(detail);
}

// The hint, the server's name on the midi_in row, its sources and the outputs' links.
void ConnectionsPanel::rebuildConnections() {
  const io::ConnectionReport& report = link_.connections();
  const QString hint = QString::fromStdString(report.hint());
  hint_->setText(hint.isEmpty() ? tr("MIDI input and outputs connected") : hint);
  colour(hint_, hint.isEmpty() ? theme::kGood : theme::kWarn);
  midiIn_->setText(report.server.empty() ? tr("midi_in") : tr("midi_in · %1").arg(QString::fromStdString(report.server)));
  QWidget* sources = buildSources(report);
  if (sources_) {
    inputs_->replaceWidget(sources_, sources);
    retire(sources_);
  } else {
    inputs_->addWidget(sources, 1, 1, 1, 2);
  }
  sources_ = sources;
  audio_->setText(report.server.empty() ? tr("not connected to a sound server")
                                        : audioLine(report, "out_L") + '\n' + audioLine(report, "out_R"));
  colour(audio_, report.audioConnected() ? theme::kText : theme::kWarn);
}

// Hardware sources with their "feeds Spindle" box (on a line of its own: port names are
// long, the dock narrow), then the other ports feeding midi_in.
QWidget* ConnectionsPanel::buildSources(const io::ConnectionReport& report) {
  auto* box = new QWidget(inputs_->parentWidget());
  box->setObjectName(QStringLiteral("midiSources"));
  auto* grid = new QGridLayout(box);
  grid->setContentsMargins(12, 0, 0, 2);
  grid->setVerticalSpacing(0);
  int row = 0;
  for (const io::MidiSource& source : report.midiSources) {
    const QString name = QString::fromStdString(source.name);
    QLabel* port = portLabel(name, box);
    port->setObjectName(QStringLiteral("source:") + name);
    grid->addWidget(port, row++, 0);
    if (source.hardware) {
      auto* feeds = new QCheckBox(tr("feeds Spindle"), box);
      feeds->setObjectName(QStringLiteral("feeds:") + name);
      feeds->setChecked(source.connected);
      feeds->setToolTip(tr("Connected to midi_in; cleared, it stays disconnected until it is plugged in again"));
      connect(feeds, &QCheckBox::toggled, this, [this, name](bool on) { emit midiSourceToggled(name, on); });
      grid->addWidget(feeds, row++, 0);
    } else {
      port->setText(tr("%1 (software)").arg(name));
    }
  }
  if (row == 0)
    grid->addWidget(label(report.server.empty() ? tr("not connected to a sound server") : tr("no MIDI source on the server"),
                          "Caption", box), 0, 0);
  return box;
}

// One row per part with its own instrument; the parts a SoundFont is shared with
// (EngineLink::shareSoundFont) as one range.
void ConnectionsPanel::rebuildParts() {
  auto* box = new QWidget(partsBox_->parentWidget());
  box->setObjectName(QStringLiteral("parts"));
  auto* grid = new QGridLayout(box);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setVerticalSpacing(0);
  grid->setColumnStretch(1, 1);
  int row = 0;
  for (int part = 0; part < limits::kChannels; ++part) {
    const PartInfo& info = link_.part(part);
    if (info.name.isEmpty()) continue;
    int last = part;
    while (info.sharedFrom >= 0 && last + 1 < limits::kChannels && link_.part(last + 1).sharedFrom == info.sharedFrom) ++last;
    const QString channels = last == part ? QString::number(part + 1) : QStringLiteral("%1–%2").arg(part + 1).arg(last + 1);
    grid->addWidget(label(tr("ch %1 → part %1").arg(channels), "Caption", box), row, 0);
    QLabel* name = portLabel(info.sharedFrom >= 0 ? tr("%1 (shared)").arg(info.name) : info.name, box);
    name->setObjectName(QStringLiteral("part:%1").arg(part + 1));
    grid->addWidget(name, row++, 1);
    part = last;
  }
  if (row == 0) grid->addWidget(label(tr("no instrument loaded"), "Caption", box), 0, 0, 1, 2);
  if (parts_) {
    partsBox_->replaceWidget(parts_, box);
    retire(parts_);
  } else {
    partsBox_->insertWidget(0, box);
  }
  parts_ = box;
}

void ConnectionsPanel::refresh() {
  const double now = link_.now();
  for (InputRow& row : rows_) refreshRow(row, now);
}

// Lit for kLitSeconds after the input's count rose; the channel is the last message's,
// amber while that channel's part has no instrument (a load turns it back at once).
void ConnectionsPanel::refreshRow(InputRow& row, double now) {
  const io::InputActivity& in = link_.health().current().live.inputs[static_cast<std::size_t>(row.activity)];
  if (in.events != row.seen) {
    row.seen = in.events;
    row.litUntil = now + kLitSeconds;
  }
  row.light->setLit(now < row.litUntil);
  if (row.seen == 0) return;
  const int channel = in.lastChannel & 0x0F;
  const bool empty = link_.part(channel).name.isEmpty();
  const QString text = tr("ch %1").arg(channel + 1);
  const QString tip = tr("Channel messages: %1, the last on channel %2").arg(in.events).arg(channel + 1) +
                      (empty ? tr("\npart %1 has no instrument: nothing plays it").arg(channel + 1) : QString());
  if (row.channel->text() != text) row.channel->setText(text);
  if (row.channel->toolTip() != tip) row.channel->setToolTip(tip);
  colour(row.channel, empty ? theme::kWarn : theme::kText);
}

}  // namespace spindle::gui
