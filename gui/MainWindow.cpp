#include "gui/MainWindow.h"

#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMenu>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <utility>

#include "gui/Audition.h"
#include "gui/ConnectionsPanel.h"
#include "gui/ControlStrip.h"
#include "gui/EngineLink.h"
#include "gui/HealthPanel.h"
#include "gui/InstrumentFiles.h"
#include "gui/LibraryPanels.h"
#include "gui/PartStrip.h"
#include "gui/TuningButton.h"
#include "gui/PianoKeyboard.h"
#include "gui/SettingsDialog.h"
#include "gui/DiskPanel.h"
#include "gui/EffectsPanel.h"
#include "gui/SystemDialog.h"
#include "gui/Theme.h"
#include "library/LibraryIndex.h"

namespace spindle::gui {

MainWindow::MainWindow(EngineLink& link, QSettings& store, QWidget* parent)
    : QMainWindow(parent), link_(link), store_(store), recent_(store) {
  setWindowTitle(QStringLiteral("Spindle"));
  buildToolbar();
  setCentralWidget(buildParts());
  buildDocks();
  connectLink();
  selectPart(0);
  // As large as it was designed, but never larger than the screen (1366x768 laptops).
  const QScreen* screen = QGuiApplication::primaryScreen();
  resize(screen ? QSize(1480, 900).boundedTo(screen->availableGeometry().size()) : QSize(1480, 900));
}

void MainWindow::buildToolbar() {
  QToolBar* bar = addToolBar(tr("Main"));
  bar->setMovable(false);
  bar->addAction(tr("Load…"), this, [this] { chooseLibrary(selected_); });
  auto* recentButton = new QToolButton(bar);
  recentButton->setText(tr("Recent"));
  recentButton->setPopupMode(QToolButton::InstantPopup);
  recentMenu_ = new QMenu(recentButton);
  recentButton->setMenu(recentMenu_);
  connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
  bar->addWidget(recentButton);
  bar->addAction(tr("Settings…"), this, &MainWindow::editSettings);
  bar->addAction(tr("System check…"), this, &MainWindow::showSystemCheck)
      ->setToolTip(tr("Doctor's report and the latency test (spindle-doctor, spindle-latency)"));
  bar->addAction(tr("Panic"), this, [this] { link_.panic(); });
  auto* spacer = new QWidget(bar);
  spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  bar->addWidget(spacer);
  tempo_ = new QLabel(bar);
  tempo_->setObjectName(QStringLiteral("Value"));
  tempo_->setToolTip(tr("The tempo lobpm/hibpm and synced delays play at, and where it comes from: the JACK "
                        "transport, MIDI clocks, the set tempo (--tempo, OSC, a session), a song or the default"));
  bar->addWidget(tempo_);
  status_ = new QLabel(bar);
  status_->setObjectName(QStringLiteral("Value"));
  bar->addWidget(status_);
}

QWidget* MainWindow::buildParts() {
  auto* centre = new QWidget(this);
  auto* column = new QVBoxLayout(centre);
  column->setContentsMargins(6, 6, 6, 6);
  column->setSpacing(3);
  auto* list = new QWidget(centre);
  auto* strips = new QVBoxLayout(list);
  strips->setContentsMargins(0, 0, 0, 0);
  strips->setSpacing(3);
  for (int part = 0; part < limits::kChannels; ++part) {
    strips_[static_cast<std::size_t>(part)] = new PartStrip(part, list);
    strips->addWidget(strip(part));
    connectStrip(strip(part));
  }
  auto* scroll = new QScrollArea(centre);
  scroll->setWidget(list);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setMinimumHeight(4 * strip(0)->sizeHint().height());
  // The docks take their preferred widths first; this keeps every strip whole (meters).
  scroll->setMinimumWidth(list->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width());
  column->addWidget(scroll, 3);
  column->addWidget(buildControls(centre));
  column->addSpacing(4);
  column->addWidget(buildKeyboard(centre), 1);
  return centre;
}

// The selected part's labelled controls; they send their CC to that part.
QWidget* MainWindow::buildControls(QWidget* parent) {
  auto* box = new QWidget(parent);
  auto* column = new QVBoxLayout(box);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(2);
  controlsCaption_ = new QLabel(box);
  controlsCaption_->setObjectName(QStringLiteral("Caption"));
  controls_ = new ControlStrip(box);
  auto* scroll = new QScrollArea(box);
  scroll->setWidget(controls_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setMaximumHeight(88);  // four rows; more scroll
  column->addWidget(controlsCaption_);
  column->addWidget(scroll);
  connect(controls_, &ControlStrip::controlChanged, this, [this](int cc, int value) {
    link_.sendMidi(static_cast<uint8_t>(0xB0 | selected_), static_cast<uint8_t>(cc), static_cast<uint8_t>(value));
  });
  return box;
}

void MainWindow::buildDocks() {
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
  auto dock = [this](const QString& title, QWidget* content, Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(title);
    d->setWidget(content);
    d->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(area, d);
    return d;
  };
  health_ = new HealthPanel(link_.health(), this);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(health_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setMinimumWidth(health_->minimumWidth() + 16);
  QDockWidget* healthDock = dock(tr("Health"), scroll, Qt::RightDockWidgetArea);
  buildEffects(healthDock);
  QDockWidget* libraries = dock(tr("Libraries"), buildLibrary(), Qt::LeftDockWidgetArea);
  QDockWidget* connections = buildConnections(libraries);
  resizeDocks({libraries}, {260}, Qt::Horizontal);  // the part strips and the health panel whole
  resizeDocks({libraries, connections}, {330, 230}, Qt::Vertical);
  problemsPanel_ = new ProblemsPanel(problems_, this);
  QDockWidget* problemsDock = dock(tr("Problems"), problemsPanel_, Qt::BottomDockWidgetArea);
  resizeDocks({problemsDock}, {120}, Qt::Vertical);
}

// The shared reverb and chorus and the parts' sends: a tab behind the health panel.
void MainWindow::buildEffects(QDockWidget* beside) {
  effects_ = new EffectsPanel(link_, this);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(effects_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* dock = new QDockWidget(tr("Effects"), this);
  dock->setObjectName(QStringLiteral("Effects"));
  dock->setWidget(scroll);
  dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  tabifyDockWidget(beside, dock);
  beside->raise();
}

// Under the library browser: always in sight, so is what is missing (also in the
// status bar, which stays when the dock is moved away).
QDockWidget* MainWindow::buildConnections(QDockWidget* below) {
  connections_ = new ConnectionsPanel(link_, this);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(connections_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* dock = new QDockWidget(tr("Connections"), this);
  dock->setObjectName(QStringLiteral("Connections"));
  dock->setWidget(scroll);
  dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  splitDockWidget(below, dock, Qt::Vertical);
  connectionStatus_ = new QLabel(this);
  connectionStatus_->setObjectName(QStringLiteral("connectionStatus"));
  connectionStatus_->setStyleSheet(QStringLiteral("color: %1;").arg(theme::kWarn.name()));
  statusBar()->addPermanentWidget(connectionStatus_);
  const auto showHint = [this] { connectionStatus_->setText(QString::fromStdString(link_.connections().hint())); };
  showHint();
  connect(&link_, &EngineLink::connectionsChanged, this, showHint);
  connect(connections_, &ConnectionsPanel::midiSourceToggled, this, [this](const QString& source, bool on) {
    link_.setLink({"midi_in", source.toStdString()}, on);
  });
  return dock;
}

void MainWindow::connectStrip(PartStrip* s) {
  connect(s, &PartStrip::loadRequested, this, &MainWindow::chooseLibrary);
  connect(s, &PartStrip::fileDropped, this, &MainWindow::loadInto);
  connect(s, &PartStrip::presetDropped, this, &MainWindow::loadEntry);
  connect(s, &PartStrip::cancelRequested, &link_, &EngineLink::cancelLoad);
  connect(s, &PartStrip::volumeChanged, &link_, &EngineLink::setVolume);
  connect(s, &PartStrip::panChanged, &link_, &EngineLink::setPan);
  connect(s, &PartStrip::muteChanged, &link_, &EngineLink::setMute);
  connect(s, &PartStrip::soloChanged, &link_, &EngineLink::setSolo);
  connect(s, &PartStrip::selectRequested, this, [this](int part) {
    audition_->leave();  // the keyboard plays the part again
    selectPart(part);
  });
  TuningButton* tuning = s->tuningButton();
  connect(tuning, &TuningButton::scaleChosen, this,
          [this](int part, const QString& file) { setTuning(part, file, link_.part(part).keymapPath); });
  connect(tuning, &TuningButton::keymapChosen, this,
          [this](int part, const QString& file) { setTuning(part, link_.part(part).scalePath, file); });
  connect(tuning, &TuningButton::cleared, this, [this](int part) { setTuning(part, {}, {}); });
}

// A bad file leaves the part as it was and says why in the status bar.
void MainWindow::setTuning(int part, const QString& scale, const QString& keymap) {
  const QString error = link_.setTuning(part, scale, keymap);
  if (!error.isEmpty()) statusBar()->showMessage(tr("Part %1: %2").arg(part + 1).arg(error));
}

void MainWindow::connectLink() {
  connect(&link_, &EngineLink::loadProgress, this, [this](int part, int done, int total, double mb) {
    strip(part)->setLoading(true);
    strip(part)->setProgress(done, total, mb);
  });
  connect(&link_, &EngineLink::loadFinished, this, &MainWindow::onLoadFinished);
  connect(&link_, &EngineLink::problemsChanged, this,
          [this](int part) { problems_.setProblems(part, link_.problems(part)); });
  connect(&link_, &EngineLink::runtimeProblemsChanged, this,
          [this] { problems_.setRuntimeProblems(link_.runtimeProblems()); });
  connect(&link_, &EngineLink::statsUpdated, this, &MainWindow::onStats);
  connect(&link_, &EngineLink::partChanged, this, [this](int part) {
    const PartInfo& info = link_.part(part);
    strip(part)->setInstrument(info.name, info.path);
    strip(part)->showMixer(info.volumeDb, info.pan, info.mute, info.solo);
    strip(part)->tuningButton()->showTuning(info.scaleName, info.scalePath, info.keymapPath);
    if (part == selected_) selectPart(part);
  });
}

void MainWindow::loadInto(int part, const QString& sfzFile) {
  pendingPreset_[static_cast<std::size_t>(part)] = -1;
  recent_.add(sfzFile);
  selectPart(part);
  link_.loadLibrary(part, sfzFile);
  statusBar()->showMessage(tr("Loading %1 into part %2…").arg(QFileInfo(sfzFile).fileName()).arg(part + 1));
}

void MainWindow::chooseLibrary(int part) {
  const QStringList recent = recent_.list();
  const QString folder = loadSettings(store_).libraryFolder;
  const QString start = !recent.isEmpty() ? QFileInfo(recent.front()).absolutePath() : folder.isEmpty() ? QDir::homePath() : folder;
  const QString file = QFileDialog::getOpenFileName(this, tr("Load a library into part %1").arg(part + 1), start,
                                                    instrumentDialogFilter());
  if (!file.isEmpty()) loadInto(part, file);
}

void MainWindow::fillRecentMenu() {
  recentMenu_->clear();
  const QStringList recent = recent_.list();
  for (const QString& file : recent)
    recentMenu_->addAction(QFileInfo(file).fileName(), this, [this, file] { loadInto(selected_, file); })->setToolTip(file);
  if (recent.isEmpty()) recentMenu_->addAction(tr("(none yet)"))->setEnabled(false);
  recentMenu_->addSeparator();
  recentMenu_->addAction(tr("Clear the list"), this, [this] { recent_.clear(); });
}

void MainWindow::editSettings() {
  SettingsDialog dialog(loadSettings(store_), this);
  if (dialog.exec() != QDialog::Accepted) return;
  const AppSettings s = dialog.settings();
  saveSettings(store_, s);
  emit settingsChanged(s);
}

void MainWindow::showSystemCheck() {
  if (!system_) {
    const AppSettings s = loadSettings(store_);
    const QString folder = s.libraryFolder.isEmpty() ? QDir::homePath() : s.libraryFolder;
    system_ = new SystemDialog(tools::SystemRoot::live(), folder, s.preloadFrames, this);
    connect(system_->disk(), &DiskPanel::preloadChosen, this, [this](int frames) {
      AppSettings settings = loadSettings(store_);
      settings.preloadFrames = frames;
      saveSettings(store_, settings);
      emit settingsChanged(settings);
    });
  }
  system_->show();
  system_->raise();
  system_->activateWindow();
}

void MainWindow::selectPart(int part) {
  strip(selected_)->setSelected(false);
  selected_ = part;
  strip(part)->setSelected(true);
  keyboard_->setKeyMap(link_.part(part).keys);
  if (effects_) effects_->setPart(part);
  controls_->setControls(link_.part(part).controls, link_.part(part).controlValues);
  const QString name = link_.part(part).name;
  controlsCaption_->setText(tr("Controls → part %1%2").arg(part + 1).arg(name.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(name)));
  keyboardCaption_->setText(tr("Keyboard → part %1%2   ·   amber: keyswitches, grey: no region")
                                .arg(part + 1)
                                .arg(name.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(name)));
  mpeShown_ = -1;
  showKeyboard();
}

void MainWindow::setStatusLine(const QString& text) { status_->setText(text); }

QString MainWindow::tempoText() const { return tempo_->text(); }

void MainWindow::onLoadFinished(int part, bool ok, const QString& name) {
  const int preset = std::exchange(pendingPreset_[static_cast<std::size_t>(part)], -1);
  if (ok && preset >= 0) link_.selectPreset(part, preset);
  PartStrip* s = strip(part);
  s->setLoading(false);
  s->setInstrument(link_.part(part).name, link_.part(part).path);
  if (part == selected_) selectPart(part);
  const auto& problems = link_.problems(part);
  statusBar()->showMessage(ok ? tr("Part %1: %2 loaded (%3 problems)").arg(part + 1).arg(name).arg(problems.size())
                              : tr("Part %1: loading stopped").arg(part + 1),
                           8000);
}

void MainWindow::onStats() {
  health_->refresh();
  connections_->refresh();
  for (int part = 0; part < limits::kChannels; ++part)
    strip(part)->setLevel(link_.part(part).meterDb, link_.part(part).voices);
  showKeyboard();
  controls_->showValues(link_.part(selected_).controlValues);
  const engine::EngineStats stats = link_.engine().stats();
  tempo_->setText(tr("%1 BPM · %2 · ")
                      .arg(static_cast<double>(stats.tempo), 0, 'f', 1)
                      .arg(QString::fromLatin1(engine::tempoSourceName(stats.tempoSource))));
}

}  // namespace spindle::gui
