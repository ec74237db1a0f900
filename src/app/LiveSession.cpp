// LiveSession: runLive, and the headless door's start (NSM, the instrument, the server,
// OSC, MIDI) and main loop. What the loop watches each tick and the summary at the
// end: SessionWatch.cpp. The running Spindle itself is session::Session's.
#include "app/LiveSession.h"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <memory>
#include <optional>
#include <thread>

#include "app/BundledInstrument.h"
#include "app/ExitCodes.h"
#include "app/Headless.h"
#include "io/RealtimeSetup.h"
#include "session/ServerChoice.h"
#include "spindle/Version.h"

namespace spindle::app {

namespace {

constexpr auto kTick = std::chrono::milliseconds(20);
constexpr auto kServerRetry = std::chrono::milliseconds(500);
constexpr auto kNsmOpenTimeout = std::chrono::seconds(10);

volatile std::sig_atomic_t gStop = 0;
volatile std::sig_atomic_t gPrintStats = 0;

extern "C" void onStopSignal(int) { gStop = 1; }
extern "C" void onStatsSignal(int) { gPrintStats = 1; }

void installSignalHandlers() {
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  action.sa_handler = onStatsSignal;
  sigaction(SIGUSR1, &action, nullptr);
}

}  // namespace

session::SessionOptions Headless::sessionOptions() const {
  session::SessionOptions options;
  options.server = args_.backend;
  options.backend.clientName = clientName_;
  options.backend.multiOut = args_.multiOut;
  options.polyphony = args_.polyphony;
  options.quality = args_.quality;
  options.effects = args_.effects;
  options.tempo = args_.tempo;
  if (args_.mpe) {
    options.mpeLower = args_.mpe->lower;
    options.mpeUpper = args_.mpe->upper;
  }
  options.scale = args_.scale;
  options.keymap = args_.keymap;
  options.streaming = streamingOptionsFor(args_);
  options.connections = connectionPolicyFor(args_);
  options.midiDevice = args_.midiDevice;
  options.alsaSeq = args_.alsaSeq;
  options.controlInputName = "osc";
  return options;
}

// Under NSM (NSM_URL set): announce, then wait for /nsm/client/open, whose client id
// becomes the client name; the session file itself is loaded once the engine runs.
bool Headless::joinNsm() {
  clientName_ = args_.name;
  const auto url = control::NsmClient::urlFromEnvironment();
  if (!url) return true;
  nsm_ = std::make_unique<control::NsmClient>(control::NsmOptions{*url, "Spindle", "spindle", ":dirty:", {}});
  std::string error;
  const auto open = nsm_->connect(error) && nsm_->announce(error) ? nsm_->waitForOpen(kNsmOpenTimeout, error)
                                                                  : std::nullopt;
  if (!open) {
    err_ << "spindle: NSM: " << error << '\n';
    return false;
  }
  clientName_ = open->clientId;
  out_ << "NSM: session " << control::NsmClient::sessionFile(*open) << " as " << clientName_ << '\n';
  return true;
}

// --instrument, before the server: a bad file ends the run at once.
bool Headless::load() {
  if (args_.instrument.empty()) return true;  // under NSM: the session brings the instruments
  session::LoadReport report;
  const bool loaded =
      session_->loadInstrument(args_.instrument, std::filesystem::absolute(args_.instrument).string(), report);
  for (const auto& diagnostic : report.diagnostics) err_ << session::formatDiagnostic(diagnostic) << '\n';
  for (const std::string& file : report.missingFiles) err_ << "spindle: missing sample: " << file << '\n';
  for (const std::string& warning : report.sampleWarnings) err_ << "spindle: warning: " << warning << '\n';
  logProblems();  // the samples it left out
  if (!loaded) {
    err_ << "spindle: cannot load instrument " << args_.instrument << '\n';
    return false;
  }
  out_ << "instrument: " << report.name << " (" << report.regions << " regions, " << report.samplesLoaded
       << " samples)\n";
  return true;
}

// OSC (unless --osc-port 0) and NSM on the session's Control, after the remote hosts.
bool Headless::startControl(control::OscServerOptions oscOptions) {
  if (!startHosts(oscOptions.auth.secret)) return false;
  const bool secured = !oscOptions.auth.secret.empty();
  std::string error;
  session_->control().setLibraryIndex(library_.get());
  if (!session_->startOsc(std::move(oscOptions), nsm_.get(), error)) {
    err_ << "spindle: " << error << " (--osc-port 0 turns OSC off)\n";
    return false;
  }
  if (session_->osc()->port() != 0)
    out_ << "OSC: udp and tcp " << args_.oscBind << ":" << session_->osc()->port()
         << (!secured ? "" : args_.oscRequireSigned ? ", signed only" : ", signed from other hosts") << '\n';
  return true;
}

// The remote Spindles this one drives (--host); their parts come with a session. With
// the cluster secret, control to them is signed under this Spindle's identity.
bool Headless::startHosts(const control::Bytes& secret) {
  std::vector<std::string> errors;
  if (!session_->startHosts(secret, control::senderIdentity(args_.oscIdentity, args_.name), args_.hosts, errors)) {
    for (const std::string& error : errors) err_ << "spindle: " << error << '\n';
    return false;
  }
  for (const control::HostSettings& host : args_.hosts)
    out_ << "host " << host.name << ": " << host.address << ":" << host.port << (secret.empty() ? "" : ", signed")
         << '\n';
  return true;
}

void Headless::tick() {
  if (++ticks_ == 50 || ticks_ == 250) checkRealtime();
  if (gPrintStats) {
    gPrintStats = 0;
    out_ << io::formatStats(session_->live().stats()) << connectionLog_->line() << streamingStats() << oscStats()
         << std::flush;
  }
  connectionLog_->tick(ticks_ >= 50);
  drainNoteLog();
  session_->pump();  // OSC commands to the engine; frees the Programs it hands back; disk errors
  logProblems();
  superviseBackend();
  if (ticks_ % 10 == 1) session_->routeHosts();  // a session may add hosts
}

// The server (waiting for the one --backend names), the engine, control, MIDI: nothing
// when it plays, else the exit code.
std::optional<int> Headless::start() {
  bool reported = false;
  const bool connected = session_->connect([&](const std::string& error) {
    if (args_.backend.empty()) {  // none running: say how to start one instead of waiting
      err_ << "spindle: " << session::noServerAdvice(error);
      return false;
    }
    if (!reported) err_ << "spindle: " << error << "; waiting for the server (Ctrl-C to quit)\n";
    reported = true;
    std::this_thread::sleep_for(kServerRetry);
    return gStop == 0;
  });
  if (!connected) return args_.backend.empty() ? kExitInput : 0;  // none running, or stopped while waiting
  io::AudioBackend& backend = session_->backend();
  connectionLog_.emplace(backend, out_);
  if (args_.multiOut && std::string(backend.kind()) != "jack")
    err_ << "spindle: warning: --multi-out needs the JACK backend (under PipeWire: pw-jack spindle --backend jack)\n";
  std::string error;
  auto oscOptions = control::oscServerOptions(args_.oscPort, args_.oscBind, args_.oscSecretFile,
                                              args_.oscRequireSigned, args_.oscInsecure, error);
  if (oscOptions) oscOptions->auth.identity = args_.oscIdentity;
  if (oscOptions && !args_.noteLog.empty()) noteLog_.open(args_.noteLog, std::ios::trunc);
  if (!oscOptions || !session_->start(error)) {
    err_ << "spindle: " << error << '\n';
    return kExitInput;
  }
  if (!startControl(std::move(*oscOptions))) return kExitInput;
  for (const std::string& warning : session_->startMidi()) err_ << "spindle: warning: " << warning << '\n';
  return std::nullopt;
}

int Headless::run() {
  installSignalHandlers();
  if (!joinNsm()) return kExitInput;
  // Started by the first /spindle/library/ command: a headless run scans no disk unasked.
  library_ = std::make_unique<library::Index>(
      library::Options{library::defaultRoots(), library::defaultCacheFile(), true});
  session_ = std::make_unique<session::Session>(sessionOptions());
  if (!load()) return kExitInput;
  const io::RealtimeReport memory = io::lockMemory();
  if (!memory.warning.empty()) err_ << "spindle: " << memory.warning << '\n';
  if (const std::optional<int> exit = start()) return *exit;
  io::AudioBackend& backend = session_->backend();
  out_ << "spindle " << kVersion << ": playing through " << backend.kind() << " as " << clientName_ << " ("
       << backend.sampleRate() << " Hz, period " << backend.periodFrames() << ")\n"
       << std::flush;
  while (!gStop) {
    std::this_thread::sleep_for(kTick);
    tick();
  }
  finish();
  return 0;
}

int runLive(const std::vector<std::string>& argList, std::ostream& out, std::ostream& err) {
  std::string error;
  const auto args = parseLiveArgs(argList, error, control::NsmClient::urlFromEnvironment().has_value());
  if (!args) {
    err << "spindle: " << error << "\n\n" << liveUsage();
    return kExitUsage;
  }
  if (args->help || args->version) {
    out << (args->help ? liveUsage() : std::string("spindle ") + kVersion + "\n");
    return 0;
  }
  LiveArgs resolved = *args;
  if (resolved.instrument.empty() && !control::NsmClient::urlFromEnvironment()) {
    const auto bundled = findBundledInstrument();
    if (!bundled) {
      err << "spindle: no --instrument given and the bundled instrument is not installed (looked for "
          << bundledInstrumentSearchList() << ")\n";
      return kExitInput;
    }
    resolved.instrument = bundled->string();
    out << "spindle: no --instrument given: loading the bundled instrument " << resolved.instrument << '\n';
  }
  Headless headless(resolved, out, err);
  return headless.run();
}

}  // namespace spindle::app
