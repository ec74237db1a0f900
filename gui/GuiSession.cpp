#include "gui/GuiSession.h"

#include <QApplication>
#include <QMessageBox>
#include <QStatusBar>
#include <QTimer>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>

#include "cluster/Hosts.h"
#include "control/OscAuth.h"
#include "control/OscServer.h"
#include "core/Limits.h"
#include "engine/Engine.h"
#include "gui/ConnectionsPanel.h"
#include "gui/EngineLink.h"
#include "gui/GuiControlTarget.h"
#include "gui/LibraryLoader.h"
#include "gui/MainWindow.h"
#include "gui/RunSettings.h"
#include "gui/Settings.h"
#include "gui/Theme.h"
#include "io/AlsaSeqInput.h"
#include "io/AudioBackend.h"
#include "io/LiveProcessor.h"
#include "io/MidiInputThread.h"
#include "io/RealtimeSetup.h"
#include "stream/Streaming.h"

namespace spindle::gui {

namespace {

constexpr int kDeviceInput = 0, kAlsaSeqInput = 1;  // as headless (LiveSession) numbers them
constexpr int kMaxBlockFrames = 1024;
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
      : launch_(launch),
        store_(store),
        saved_(loadSettings(store)),
        settings_(effectiveSettings(saved_, launch)),
        streamingOptions_(streamingOptions(settings_)),
        loader_(stream::poolOptionsFor(streamingOptions_)) {}
  bool start();
  void stop();
  MainWindow& window() { return *window_; }

 private:
  bool connectBackend();
  void startEngine();
  void startWindow();
  void startOsc();
  void startHosts();
  void startMidi();
  void showInputs();
  void applySettings(const AppSettings& s);
  void reportConnections();
  void supervise();
  int guiMidiInput() const;
  std::vector<app::ConnectionControl::Input> oscInputs() const;

  const app::GuiLaunch& launch_;
  QSettings& store_;
  AppSettings saved_;     // as saved when last read or accepted: a change of it applies live
  AppSettings settings_;  // this run's: the saved ones, the command line over them
  stream::StreamingOptions streamingOptions_;
  bool memoryLocked_ = false;
  // Destroyed in reverse: everything that plays Programs before the pool (loader_).
  LibraryLoader loader_;
  std::unique_ptr<io::AudioBackend> backend_;
  std::unique_ptr<stream::Streaming> streaming_;
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<io::LiveProcessor> live_;
  std::unique_ptr<EngineLink> link_;
  std::unique_ptr<MainWindow> window_;
  cluster::Hosts hosts_;  // --host: the remote Spindles; outlives the OSC server and the window
  app::ConnectionControl routes_;  // gui thread: the hosts the backend routes, and their state
  std::unique_ptr<GuiControlTarget> target_;
  std::unique_ptr<control::OscServer> osc_;
  std::unique_ptr<io::MidiInputThread> midiDevice_;
  std::unique_ptr<io::AlsaSeqInput> alsaSeq_;
  QTimer superviseTimer_;
  bool lost_ = false, stopped_ = false;
  bool midiDeviceOpen_ = false, alsaSeqOpen_ = false;
  uint64_t problemsLogged_ = 0;  // serial of the newest problem printed to stderr
};

// The LiveProcessor input the gui thread produces into (keyboard and OSC): one of its
// own when there are more than the two midi threads use; else the one this run's midi
// threads leave free. With both a MIDI device and the ALSA sequencer asked for and only
// two inputs, the keyboard wins and the sequencer is not started (startMidi says so).
int GuiSession::Impl::guiMidiInput() const {
  if (io::kMidiInputs > 2) return 2;
  return launch_.alsaSeq && launch_.midiDevice.empty() ? kDeviceInput : kAlsaSeqInput;
}

// The MIDI inputs /spindle/connections reports, those showInputs() shows.
std::vector<app::ConnectionControl::Input> GuiSession::Impl::oscInputs() const {
  std::vector<app::ConnectionControl::Input> inputs{{0, "midi_in"}, {1 + guiMidiInput(), "keyboard"}};
  if (!launch_.midiDevice.empty()) inputs.push_back({1 + kDeviceInput, "device"});
  if (launch_.alsaSeq && guiMidiInput() != kAlsaSeqInput) inputs.push_back({1 + kAlsaSeqInput, "alsa_seq"});
  return inputs;
}

bool GuiSession::Impl::connectBackend() {
  io::BackendOptions options;
  options.clientName = settings_.clientName.toStdString();
  backend_ = settings_.backend == "pipewire" ? io::makePipeWireBackend(options) : io::makeJackBackend(options);
  std::string error;
  while (!backend_->connect(error)) {
    const auto answer = QMessageBox::warning(
        nullptr, QObject::tr("Spindle"),
        QObject::tr("Cannot connect to the %1 server:\n%2\n\nStart the server, then retry.")
            .arg(QString::fromLatin1(backend_->kind()), QString::fromStdString(error)),
        QMessageBox::Retry | QMessageBox::Abort, QMessageBox::Retry);
    if (answer != QMessageBox::Retry) return false;
  }
  return true;
}

void GuiSession::Impl::startEngine() {
  engine::EngineConfig config;
  config.sampleRate = backend_->sampleRate();
  config.maxBlockFrames = kMaxBlockFrames;
  config.polyphony = settings_.polyphony;
  config.quality = static_cast<engine::Quality>(settings_.quality);
  config.effects = engine::effectsSettings(launch_.effects);
  streaming_ = std::make_unique<stream::Streaming>(streamingOptions_, settings_.polyphony);
  config.streams = streaming_->bank();
  engine_ = std::make_unique<engine::Engine>(config);
  live_ = std::make_unique<io::LiveProcessor>(*engine_);
  loader_.setOutputRate(config.sampleRate);
}

void GuiSession::Impl::startWindow() {
  const int input = guiMidiInput();
  EngineLink::Wiring wiring{engine_.get(), live_.get(), &live_->midiInput(input), &loader_, streaming_.get(),
                            RealtimeStatus{backend_->kind(), 0, memoryLocked_, false}, backend_.get(),
                            launch_.effects};
  link_ = std::make_unique<EngineLink>(wiring);
  if (launch_.tempo) link_->setTempo(*launch_.tempo);
  // Every problem reaches the log too: the disk's errors and the samples a load left out.
  QObject::connect(link_.get(), &EngineLink::runtimeProblemsChanged, link_.get(), [this] {
    for (const control::LoggedProblem& p : link_->problemLog().since(problemsLogged_)) {
      warn(p.message);
      problemsLogged_ = p.serial;
    }
  });
  window_ = std::make_unique<MainWindow>(*link_, store_);
  window_->setStatusLine(QStringLiteral("%1 · %2 Hz · %3 frames · %4")
                             .arg(QString::fromLatin1(backend_->kind()))
                             .arg(backend_->sampleRate(), 0, 'f', 0)
                             .arg(backend_->periodFrames())
                             .arg(settings_.clientName));
  QObject::connect(window_.get(), &MainWindow::settingsChanged, link_.get(), [this](const AppSettings& s) { applySettings(s); });
  link_->startPolling();
}

// The remote Spindles (--host, a session's [host] sections) and their tab; a host that cannot be reached is named
// and the others still start. With the cluster secret, control to them is signed.
void GuiSession::Impl::startHosts() {
  const std::string secretFile = settings_.oscSecretFile.toStdString();
  std::string secretError;
  std::optional<control::Bytes> secret;
  if (!secretFile.empty() && !(secret = control::readSecretFile(secretFile, secretError)))
    warn("hosts: unsigned control: " + secretError);
  hosts_.setSigning(secret.value_or(control::Bytes{}), control::senderIdentity({}, settings_.clientName.toStdString()));
  hosts_.setSampleRate(backend_->sampleRate());
  for (const control::HostSettings& host : launch_.hosts) {
    std::string error;
    if (!hosts_.add(host, error)) warn("--host " + host.name + ": " + error);
  }
  routes_.attach(backend_.get());
  // --host's at once, a session's when it adds them
  window_->watchHosts(hosts_, [this] { return routes_.state().hostRoutes; });
}

void GuiSession::Impl::startOsc() {
  if (settings_.oscPort <= 0) return;
  target_ = std::make_unique<GuiControlTarget>(*link_, store_);
  target_->setBackend(backend_.get(), live_.get(), oscInputs());
  target_->setHosts(&hosts_);
  std::string error;
  auto options = control::oscServerOptions(settings_.oscPort, settings_.oscBind.toStdString(),
                                           settings_.oscSecretFile.toStdString(), settings_.oscRequireSigned,
                                           settings_.oscInsecure, error);
  if (options) osc_ = std::make_unique<control::OscServer>(*target_, std::move(*options));
  if (osc_ && osc_->start(error)) return;
  warn("OSC server not started: " + error);
  window_->statusBar()->showMessage(QObject::tr("OSC server not started: %1").arg(QString::fromStdString(error)));
  osc_.reset();
}

void GuiSession::Impl::startMidi() {
  std::string error;
  if (!launch_.midiDevice.empty()) {
    midiDevice_ = std::make_unique<io::MidiInputThread>(*live_, kDeviceInput);
    midiDeviceOpen_ = midiDevice_->start(launch_.midiDevice, error);
    if (!midiDeviceOpen_) warn("warning: MIDI device " + error);
  }
  if (launch_.alsaSeq && guiMidiInput() == kAlsaSeqInput) {
    warn("warning: --alsa-seq is off: with --midi-device its input is taken by the keyboard and OSC");
  } else if (launch_.alsaSeq) {
    alsaSeq_ = std::make_unique<io::AlsaSeqInput>(*live_, kAlsaSeqInput);
    const io::ConnectionPolicy policy = backend_->connectionPolicy();
    alsaSeq_->setFollow(policy.midi, policy.midiFrom);
    alsaSeqOpen_ = alsaSeq_->start(settings_.clientName.toStdString(), error);
    if (!alsaSeqOpen_) warn("warning: " + error);
  }
}

// The connections panel's rows for the inputs this run started, after the server's
// midi_in, in the order the LiveProcessor numbers them.
void GuiSession::Impl::showInputs() {
  ConnectionsPanel* panel = window_->connections();
  const QString client = settings_.clientName;
  if (midiDevice_)
    panel->addInput(QStringLiteral("device"), 1 + kDeviceInput, QObject::tr("MIDI device"),
                    QString::fromStdString(launch_.midiDevice) + (midiDeviceOpen_ ? QString() : QObject::tr(" (not open)")));
  if (alsaSeq_)
    panel->addInput(QStringLiteral("alsaSeq"), 1 + kAlsaSeqInput, QObject::tr("ALSA sequencer"),
                    client + QStringLiteral(":midi_in") + (alsaSeqOpen_ ? QString() : QObject::tr(" (not open)")));
  panel->addInput(QStringLiteral("keyboard"), 1 + guiMidiInput(), osc_ ? QObject::tr("Keyboard · OSC") : QObject::tr("Keyboard"), {});
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
  io::ConnectionPolicy policy = backend_->connectionPolicy();
  policy.audio = s.connectAudio;
  policy.midi = s.connectMidi;
  policy.restore = false;
  backend_->setConnectionPolicy(std::move(policy));
}

// Each link made or broken (a keyboard plugged in): to stderr, as headless logs it,
// and the latest in the status bar.
void GuiSession::Impl::reportConnections() {
  const std::vector<std::string> messages = backend_->takeConnectionMessages();
  for (const std::string& message : messages) warn(message);
  if (!messages.empty()) window_->statusBar()->showMessage(QString::fromStdString(messages.back()), 8000);
}

// A lost server: close the dead client at once, then retry every tick.
void GuiSession::Impl::supervise() {
  if (gQuitRequested) QApplication::quit();
  routes_.routeHosts(hosts_.settings());  // a session may add hosts
  reportConnections();
  if (!lost_ && !backend_->lost()) return;
  if (!lost_) {
    lost_ = true;
    backend_->disconnect();
    live_->setConnected(false);
    window_->statusBar()->showMessage(QObject::tr("The %1 server went away; reconnecting…").arg(backend_->kind()));
    // To the problems panel, OSC and the log (the problem log's readers).
    link_->problemLog().add(control::ProblemKind::Server, "",
                            std::string("the ") + backend_->kind() + " server went away; reconnecting");
  }
  std::string error;
  if (!backend_->connect(error)) return;
  if (!backend_->start(*live_, error)) {
    backend_->disconnect();
    return;
  }
  lost_ = false;
  live_->countReconnect();
  window_->statusBar()->showMessage(QObject::tr("Reconnected to the %1 server").arg(backend_->kind()), 8000);
}

// Once: runGui stops the session, then its destructor would again.
void GuiSession::Impl::stop() {
  if (stopped_) return;
  stopped_ = true;
  superviseTimer_.stop();
  if (osc_) osc_->stop();
  if (midiDevice_) midiDevice_->stop();
  if (alsaSeq_) alsaSeq_->stop();
  if (backend_) backend_->disconnect();  // the audio thread has stopped for good after this
  osc_.reset();
  target_.reset();
  window_.reset();
  link_.reset();  // takes every Program back from the engine and frees it
}

bool GuiSession::Impl::start() {
  const io::RealtimeReport memory = io::lockMemory();
  memoryLocked_ = memory.memoryLocked;
  if (!memory.warning.empty()) warn(memory.warning);
  if (!connectBackend()) return false;
  startEngine();
  backend_->setConnectionPolicy(connectionPolicy(settings_, launch_));  // before start: the first scan obeys it
  std::string error;
  if (!backend_->start(*live_, error)) {
    warn(error);
    return false;
  }
  startWindow();
  startHosts();
  startOsc();
  startMidi();
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
