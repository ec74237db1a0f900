#include "gui/GuiSession.h"

#include <QApplication>
#include <QMessageBox>
#include <QStatusBar>
#include <QTimer>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>

#include "control/OscAuth.h"
#include "control/OscServer.h"
#include "gui/ConnectionsPanel.h"
#include "gui/EngineLink.h"
#include "gui/MainWindow.h"
#include "gui/RunSettings.h"
#include "gui/Settings.h"
#include "gui/Theme.h"
#include "io/RealtimeSetup.h"
#include "session/Session.h"

namespace spindle::gui {

namespace {

constexpr int kSuperviseMs = 500;

// SIGINT/SIGTERM only set this flag; the supervising timer sees it and quits the event
// loop, so the session shuts down in order, as when the window is closed.
volatile std::sig_atomic_t gQuitRequested = 0;
extern "C" void onQuitSignal(int) { gQuitRequested = 1; }

void installQuitHandlers() {
  struct sigaction action {};
  action.sa_handler = onQuitSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

void warn(const std::string& text) { std::fprintf(stderr, "spindle: %s\n", text.c_str()); }

}  // namespace

class GuiSession::Impl {
 public:
  Impl(const app::GuiLaunch& launch, QSettings& store)
      : launch_(launch), store_(store), saved_(loadSettings(store)), settings_(effectiveSettings(saved_, launch)) {}
  bool start();
  void stop();
  MainWindow& window() { return *window_; }

 private:
  session::SessionOptions sessionOptions() const;
  bool connect();
  void startWindow();
  void startOsc();
  void startHosts();
  void showInputs();
  void applySettings(const AppSettings& s);
  void reportConnections();
  void keepPreload();
  void supervise();

  const app::GuiLaunch& launch_;
  QSettings& store_;
  AppSettings saved_;     // as saved when last read or accepted: a change of it applies live
  AppSettings settings_;  // this run's: the saved ones, the command line over them
  bool memoryLocked_ = false;
  std::unique_ptr<session::Session> session_;
  std::unique_ptr<EngineLink> link_;
  std::unique_ptr<MainWindow> window_;
  QTimer superviseTimer_;
  bool stopped_ = false;
  uint64_t problemsLogged_ = 0;  // serial of the newest problem printed to stderr
  int preload_ = 0;              // the session's preload as last saved to the settings
};

session::SessionOptions GuiSession::Impl::sessionOptions() const {
  session::SessionOptions options;
  options.server = settings_.backend.toStdString();
  options.backend.clientName = settings_.clientName.toStdString();
  options.polyphony = settings_.polyphony;
  options.quality = settings_.quality;
  options.effects = launch_.effects;
  options.tempo = launch_.tempo;
  options.mpeLower = launch_.mpeLower;
  options.mpeUpper = launch_.mpeUpper;
  options.streaming = streamingOptions(settings_);
  options.connections = connectionPolicy(settings_, launch_);
  options.midiDevice = launch_.midiDevice;
  options.alsaSeq = launch_.alsaSeq;
  options.controlInputName = "keyboard";
  return options;
}

// The session's server choice; while the server is down a dialog offers Retry.
bool GuiSession::Impl::connect() {
  return session_->connect([this](const std::string& error) {
    const auto answer = QMessageBox::warning(
        nullptr, QObject::tr("Spindle"),
        QObject::tr("Cannot connect to the %1 server:\n%2\n\nStart the server, then retry.")
            .arg(settings_.backend, QString::fromStdString(error)),
        QMessageBox::Retry | QMessageBox::Abort, QMessageBox::Retry);
    return answer == QMessageBox::Retry;
  });
}

void GuiSession::Impl::startWindow() {
  io::AudioBackend& backend = session_->backend();
  link_ = std::make_unique<EngineLink>(session_->control(), RealtimeStatus{backend.kind(), 0, memoryLocked_, false});
  // Every problem reaches the log too: the disk's errors and the samples a load left out.
  QObject::connect(link_.get(), &EngineLink::runtimeProblemsChanged, link_.get(), [this] {
    for (const control::LoggedProblem& p : link_->problemLog().since(problemsLogged_)) {
      warn(p.message);
      problemsLogged_ = p.serial;
    }
  });
  window_ = std::make_unique<MainWindow>(*link_, store_);
  window_->setStatusLine(QStringLiteral("%1 · %2 Hz · %3 frames · %4")
                             .arg(QString::fromLatin1(backend.kind()))
                             .arg(backend.sampleRate(), 0, 'f', 0)
                             .arg(backend.periodFrames())
                             .arg(settings_.clientName));
  QObject::connect(window_.get(), &MainWindow::settingsChanged, link_.get(),
                   [this](const AppSettings& s) { applySettings(s); });
  link_->startPolling();
}

// The remote Spindles (--host, a session's [host] sections) and their tab; a host that
// cannot be reached is named and the others still start. With the cluster secret,
// control to them is signed.
void GuiSession::Impl::startHosts() {
  const std::string secretFile = settings_.oscSecretFile.toStdString();
  std::string secretError;
  std::optional<control::Bytes> secret;
  if (!secretFile.empty() && !(secret = control::readSecretFile(secretFile, secretError)))
    warn("hosts: unsigned control: " + secretError);
  std::vector<std::string> errors;
  session_->startHosts(secret.value_or(control::Bytes{}), control::senderIdentity({}, settings_.clientName.toStdString()),
                       launch_.hosts, errors);
  for (const std::string& error : errors) warn(error);
  // --host's at once, a session's when it adds them
  window_->watchHosts(session_->hosts(), [this] { return session_->control().connections().hostRoutes; });
}

void GuiSession::Impl::startOsc() {
  if (settings_.oscPort <= 0) return;
  std::string error;
  auto options = control::oscServerOptions(settings_.oscPort, settings_.oscBind.toStdString(),
                                           settings_.oscSecretFile.toStdString(), settings_.oscRequireSigned,
                                           settings_.oscInsecure, error);
  if (options && session_->startOsc(std::move(*options), nullptr, error)) return;
  warn("OSC server not started: " + error);
  window_->statusBar()->showMessage(QObject::tr("OSC server not started: %1").arg(QString::fromStdString(error)));
}

// The connections panel's rows for the inputs this run started, after the server's
// midi_in, in the order the LiveProcessor numbers them.
void GuiSession::Impl::showInputs() {
  ConnectionsPanel* panel = window_->connections();
  const QString client = settings_.clientName;
  const QString notOpen = QObject::tr(" (not open)");
  if (!launch_.midiDevice.empty())
    panel->addInput(QStringLiteral("device"), 1 + session::kDeviceMidiInput, QObject::tr("MIDI device"),
                    QString::fromStdString(launch_.midiDevice) + (session_->midiDeviceOpen() ? QString() : notOpen));
  if (launch_.alsaSeq)
    panel->addInput(QStringLiteral("alsaSeq"), 1 + session::kAlsaSeqMidiInput, QObject::tr("ALSA sequencer"),
                    client + QStringLiteral(":midi_in") + (session_->alsaSeqOpen() ? QString() : notOpen));
  panel->addInput(QStringLiteral("keyboard"), 1 + session::kControlMidiInput,
                  session_->osc() ? QObject::tr("Keyboard · OSC") : QObject::tr("Keyboard"), {});
}

// Quality and polyphony apply at once; the connection choices when the user changed
// them (an unrelated change leaves a --no-connect of this run in force). A session's
// restored links are not restored again: the user's own links since then stay.
void GuiSession::Impl::applySettings(const AppSettings& s) {
  link_->setQuality(s.quality);
  link_->setPolyphony(s.polyphony);
  const bool connectionsChanged = s.connectAudio != saved_.connectAudio || s.connectMidi != saved_.connectMidi;
  saved_ = s;
  if (!connectionsChanged) return;
  io::ConnectionPolicy policy = session_->backend().connectionPolicy();
  policy.audio = s.connectAudio;
  policy.midi = s.connectMidi;
  policy.restore = false;
  session_->backend().setConnectionPolicy(std::move(policy));
}

// Each link made or broken (a keyboard plugged in): to stderr, as headless logs it,
// and the latest in the status bar.
void GuiSession::Impl::reportConnections() {
  const std::vector<std::string> messages = session_->backend().takeConnectionMessages();
  for (const std::string& message : messages) warn(message);
  if (!messages.empty()) window_->statusBar()->showMessage(QString::fromStdString(messages.back()), 8000);
}

// A preload OSC set (it applies to the loads from now on) is the next start's too.
void GuiSession::Impl::keepPreload() {
  const int preload = session_->control().settings().preloadFrames;
  if (preload == preload_) return;
  preload_ = preload;
  AppSettings s = loadSettings(store_);
  s.preloadFrames = preload;
  saveSettings(store_, s);
}

void GuiSession::Impl::supervise() {
  if (gQuitRequested) QApplication::quit();
  session_->routeHosts();  // a session may add hosts
  reportConnections();
  keepPreload();
  const char* kind = session_->backend().kind();
  switch (session_->superviseServer(true)) {
    case session::ServerEvent::None: break;
    case session::ServerEvent::Lost:  // the session logged it: the problems panel, OSC, stderr
      window_->statusBar()->showMessage(QObject::tr("The %1 server went away; reconnecting…").arg(kind));
      break;
    case session::ServerEvent::Reconnected:
      window_->statusBar()->showMessage(QObject::tr("Reconnected to the %1 server").arg(kind), 8000);
      break;
  }
}

// Once: runGui stops the session, then its destructor would again.
void GuiSession::Impl::stop() {
  if (stopped_) return;
  stopped_ = true;
  superviseTimer_.stop();
  if (session_) session_->stop();  // the audio thread has stopped for good after this
  window_.reset();
  link_.reset();
}

bool GuiSession::Impl::start() {
  const io::RealtimeReport memory = io::lockMemory();
  memoryLocked_ = memory.memoryLocked;
  if (!memory.warning.empty()) warn(memory.warning);
  session_ = std::make_unique<session::Session>(sessionOptions());
  if (!connect()) return false;
  std::string error;
  if (!session_->start(error)) {
    warn(error);
    return false;
  }
  preload_ = session_->control().settings().preloadFrames;
  startWindow();
  startHosts();
  startOsc();
  for (const std::string& warning : session_->startMidi()) warn("warning: " + warning);
  showInputs();
  QObject::connect(&superviseTimer_, &QTimer::timeout, [this] { supervise(); });
  superviseTimer_.start(kSuperviseMs);
  window_->show();
  if (!launch_.instrument.empty()) window_->loadInto(0, QString::fromStdString(launch_.instrument));
  return true;
}

GuiSession::GuiSession(const app::GuiLaunch& launch, QSettings& store) : impl_(std::make_unique<Impl>(launch, store)) {}
GuiSession::~GuiSession() { impl_->stop(); }
bool GuiSession::start() { return impl_->start(); }
void GuiSession::stop() { impl_->stop(); }
MainWindow& GuiSession::window() { return impl_->window(); }

int runGui(int& argc, char** argv, const app::GuiLaunch& launch) {
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("spindle"));
  QApplication::setApplicationDisplayName(QStringLiteral("Spindle"));
  theme::apply(app);
  installQuitHandlers();
  const std::unique_ptr<QSettings> store = openSettings();
  GuiSession session(launch, *store);
  if (!session.start()) return 1;
  const int status = app.exec();
  session.stop();
  return status;
}

}  // namespace spindle::gui
