#pragma once
// MainWindow: the 16 part strips and the on-screen keyboard in the middle, the library
// browser and the connections at the left, the health panel at the right, the problems
// list below; what is not connected also in the status bar.
//
//   toolbar: Load… · Recent ▾ · Settings… · System check… · Panic   backend · rate · period
//   ┌ Libraries ┐┌ Parts 1..16 (scrolls) ───────────────┐┌ Health ───────┐
//   │ search,   ││ # name  Load/progress  vol pan M S ▮ ││ xruns, load,  │
//   │ index     │└──────────────────────────────────────┘│ disk, latency,│
//   ├ Connect.. ┤┌ controls (selected part's label_cc) ─┐│ memory, RT    │
//   │ MIDI in,  │┌ keyboard (selected part, key names) ─┐│               │
//   │           ││  caption              MPE zone: n ▴▾ ││               │
//   │ channels, ││                                      ││               │
//   │ outputs   │└──────────────────────────────────────┘│               │
//   ┌ Problems: file:line  message ──────────────────────┐│               │
//   status: messages                          no MIDI input connected      │
//
// The effects panel (reverb, chorus, the parts' sends) is a tab behind the health panel.
//
// The library browser (LibraryBrowser.h) lists what the library index finds (started
// with the window, on its own threads: the standard places and the user's folders); a
// click auditions an entry on the preview part (Audition.h), a double-click or a drag
// onto a strip loads it into a part (MainWindowLibrary.cpp).
//
// Fits a 1366x768 screen: the part list scrolls, the docks start narrow.
//
// Thread: gui thread. Every request goes to the EngineLink; every change it reports
// comes back through its signals.
#include <QMainWindow>
#include <array>
#include <memory>

#include "control/HostControl.h"
#include "core/Limits.h"
#include "gui/HostsPanel.h"
#include "gui/ProblemsModel.h"
#include "gui/Settings.h"

class QDockWidget;
class QLabel;
class QMenu;
class QSpinBox;

namespace spindle::library {
class Index;
}

namespace spindle::gui {

class Audition;
class ConnectionsPanel;
class ControlStrip;
class EffectsPanel;
class EngineLink;
class HealthPanel;
class HostsPanel;
class LibraryBrowser;
class PartStrip;
class PianoKeyboard;
class ProblemsPanel;
class SystemDialog;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  MainWindow(EngineLink& link, QSettings& store, QWidget* parent = nullptr);
  ~MainWindow() override;

  void loadInto(int part, const QString& sfzFile);
  // A SoundFont's preset (bank * 128 + program; -1: the file as loadInto), selected on
  // the part once the load has ended (MainWindowLibrary.cpp).
  void loadEntry(int part, const QString& file, int preset);
  void selectPart(int part);
  int selectedPart() const noexcept { return selected_; }
  void setStatusLine(const QString& text);  // backend, rate, period: shown in the toolbar
  QString tempoText() const;                 // the toolbar's tempo and its source, "96.5 BPM · set · "

  PartStrip* strip(int part) const { return strips_[static_cast<std::size_t>(part)]; }
  PianoKeyboard* keyboard() const noexcept { return keyboard_; }
  QSpinBox* mpeZone() const noexcept { return mpeZone_; }
  ControlStrip* controls() const noexcept { return controls_; }
  HealthPanel* health() const noexcept { return health_; }
  EffectsPanel* effects() const noexcept { return effects_; }
  ConnectionsPanel* connections() const noexcept { return connections_; }
  ProblemsModel& problems() noexcept { return problems_; }
  LibraryBrowser* browser() const noexcept { return browser_; }
  Audition* audition() const noexcept { return audition_; }
  library::Index& libraryIndex() noexcept { return *index_; }
  // The Hosts tab (beside Health, in front): the remote Spindles this one drives.
  void showHosts(control::HostControl& hosts, HostRoutes routes = {});  // MainWindowHosts.cpp
  // Shows the Hosts tab as soon as `hosts` holds one (at once, or when a session adds one
  // later); checked twice a second until then.
  void watchHosts(control::HostControl& hosts, HostRoutes routes = {});  // MainWindowHosts.cpp
  HostsPanel* hosts() const noexcept { return hosts_; }

 signals:
  // Settings the user accepted (already saved); the wiring applies what it can live.
  void settingsChanged(const AppSettings& settings);

 private:
  void buildToolbar();
  QWidget* buildParts();
  QWidget* buildControls(QWidget* parent);
  QWidget* buildKeyboard(QWidget* parent);  // MainWindowKeyboard.cpp
  void showKeyboard();                      // the selected part's keys, lit keys and MPE notes
  void buildDocks();
  QWidget* buildLibrary();  // MainWindowLibrary.cpp: the index, the browser, the audition
  void playKey(int key, int velocity);  // the on-screen keyboard: the selected part, or the preview
  QDockWidget* buildConnections(QDockWidget* below);
  void buildEffects(QDockWidget* beside);
  void connectLink();
  void connectStrip(PartStrip* strip);
  void setTuning(int part, const QString& scale, const QString& keymap);
  void chooseLibrary(int part);
  void fillRecentMenu();
  void editSettings();
  void showSystemCheck();
  void onLoadFinished(int part, bool ok, const QString& name);
  void onStats();

  EngineLink& link_;
  QSettings& store_;
  RecentLibraries recent_;
  ProblemsModel problems_;
  std::array<PartStrip*, limits::kChannels> strips_{};
  PianoKeyboard* keyboard_ = nullptr;
  QLabel* keyboardCaption_ = nullptr;
  QSpinBox* mpeZone_ = nullptr;  // the selected part's MPE zone: member channels (parts 1 and 16)
  int mpeShown_ = -1;            // the engine's zone as the box last showed it (-1: show it again)
  ControlStrip* controls_ = nullptr;
  QLabel* controlsCaption_ = nullptr;
  HealthPanel* health_ = nullptr;
  EffectsPanel* effects_ = nullptr;
  HostsPanel* hosts_ = nullptr;
  ConnectionsPanel* connections_ = nullptr;
  QLabel* connectionStatus_ = nullptr;  // the status bar's part: what is not connected
  ProblemsPanel* problemsPanel_ = nullptr;
  std::unique_ptr<library::Index> index_;
  LibraryBrowser* browser_ = nullptr;
  Audition* audition_ = nullptr;
  std::array<int, limits::kChannels> pendingPreset_{};  // per part: the preset its load selects, -1: none
  QMenu* recentMenu_ = nullptr;
  QLabel* tempo_ = nullptr;  // the engine's tempo and its source, in the toolbar
  QLabel* status_ = nullptr;
  SystemDialog* system_ = nullptr;  // made on first use, kept (a latency test may be running)
  int selected_ = 0;
};

}  // namespace spindle::gui
