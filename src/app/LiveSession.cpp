// LiveSession: runLive, and the session's start (load, NSM, engine, control, MIDI) and
// main loop. What the loop watches each tick and the summary at the end: SessionWatch.cpp.
#include "app/LiveSession.h"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <memory>
#include <optional>
#include <thread>

#include "app/BundledInstrument.h"
#include "app/ServerChoice.h"
#include "app/Session.h"
#include "core/Limits.h"
#include "io/RealtimeSetup.h"
#include "spindle/Version.h"

namespace spindle::app {

namespace {

constexpr int kExitUsage = 2;
constexpr int kExitInput = 1;
constexpr auto kTick = std::chrono::milliseconds(20);
constexpr int kDeviceMidiInput = 0;   // the LiveProcessor inputs: the raw device's thread,
constexpr int kAlsaSeqMidiInput = 1;  // the ALSA sequencer's,
constexpr int kOscMidiInput = 2;      // the control thread's (OSC)
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

Session::~Session() {
  if (osc_) osc_->stop();
  if (control_) control_->stopLoads();
}

bool Session::load() {
  if (args_.instrument.empty()) return true;  // under NSM: the session brings the instruments
  Loader::Result loaded = loader_.load(args_.instrument);
  for (const auto& diagnostic : loaded.report.diagnostics) err_ << formatDiagnostic(diagnostic) << '\n';
  for (const std::string& file : loaded.report.missingFiles) err_ << "spindle: missing sample: " << file << '\n';
  for (const std::string& warning : loaded.report.sampleWarnings) err_ << "spindle: warning: " << warning << '\n';
  for (const SampleError& error : loaded.report.sampleErrors)
    problems_.add(control::ProblemKind::Load, error.file, error.message);
  logProblems();
  if (!loaded.program) {
    err_ << "spindle: cannot load instrument " << args_.instrument << '\n';
    return false;
  }
  program_ = std::move(loaded.program);
  out_ << "instrument: " << loaded.report.name << " (" << loaded.report.regions << " regions, "
       << loaded.report.samplesLoaded << " samples)\n";
  return true;
}

// Under NSM (NSM_URL set): announce, then wait for /nsm/client/open, whose client id
// becomes the client name; the session file itself is loaded once the engine runs.
bool Session::joinNsm() {
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

// The control thread: OSC (unless --osc-port 0) and NSM, driving a LiveControl.
bool Session::startControl() {
  control_ = std::make_unique<LiveControl>(*engine_, *live_, kOscMidiInput, streaming_->poolOptions(), problems_);
  if (program_) control_->setInitialInstrument(std::filesystem::absolute(args_.instrument).string());
  if (program_) control_->setInitialPartEffects(program_->busLayout);
  control_->setInitialEffects(args_.effects);
  if (args_.tempo && !control_->setTempo(*args_.tempo)) err_ << "spindle: the engine refused the tempo\n";
  if (!args_.scale.empty() || !args_.keymap.empty()) {
    std::string tuningError;
    for (int part = 0; part < control::kParts; ++part) {
      if (control_->setPartTuning(part, args_.scale, args_.keymap, tuningError)) continue;
      err_ << "spindle: " << (tuningError.empty() ? "the engine refused the tuning" : tuningError) << '\n';
      return false;
    }
  }
  std::vector<ConnectionControl::Input> inputs{{0, "midi_in"}, {1 + kOscMidiInput, "osc"}};
  if (!args_.midiDevice.empty()) inputs.push_back({1 + kDeviceMidiInput, "device"});
  if (args_.alsaSeq) inputs.push_back({1 + kAlsaSeqMidiInput, "alsa_seq"});
  control_->setBackend(backend_.get(), std::move(inputs));
  control_->setBaseMemory(loader_.pool().bytesInRam(), loader_.pool().loadedCount());
  if (streaming_->disk()) control_->setDiskCounters(&streaming_->disk()->counters(), streaming_->cacheBytes());
  std::string error;
  auto oscOptions = control::oscServerOptions(args_.oscPort, args_.oscBind, args_.oscSecretFile,
                                              args_.oscRequireSigned, args_.oscInsecure, error);
  if (!oscOptions) {
    err_ << "spindle: " << error << '\n';
    return false;
  }
  oscOptions->auth.identity = args_.oscIdentity;
  if (!startHosts(oscOptions->auth.secret)) return false;
  const bool secured = !oscOptions->auth.secret.empty();
  osc_ = std::make_unique<control::OscServer>(*control_, std::move(*oscOptions));
  if (nsm_) osc_->attachNsm(*nsm_);
  if (!osc_->start(error)) {
    err_ << "spindle: " << error << " (--osc-port 0 turns OSC off)\n";
    return false;
  }
  if (osc_->port() != 0)
    out_ << "OSC: udp and tcp " << args_.oscBind << ":" << osc_->port()
         << (!secured ? "" : args_.oscRequireSigned ? ", signed only" : ", signed from other hosts") << '\n';
  return true;
}

// The remote Spindles this one drives (--host); their parts come with a session. With
// the cluster secret, control to them is signed under this Spindle's identity.
bool Session::startHosts(const control::Bytes& secret) {
  hosts_.setSigning(secret, control::senderIdentity(args_.oscIdentity, args_.name));
  hosts_.setSampleRate(backend_->sampleRate());
  for (const control::HostSettings& host : args_.hosts) {
    std::string error;
    if (!hosts_.add(host, error)) {
      err_ << "spindle: --host " << host.name << ": " << error << '\n';
      return false;
    }
    out_ << "host " << host.name << ": " << host.address << ":" << host.port << (secret.empty() ? "" : ", signed")
         << '\n';
  }
  control_->setHosts(&hosts_);
  return true;
}

void Session::startEngine() {
  engine::EngineConfig config;
  config.sampleRate = backend_->sampleRate();
  config.maxBlockFrames = 1024;
  streaming_ = std::make_unique<stream::Streaming>(streamingOptions_, args_.polyphony);
  config.streams = streaming_->bank();
  config.polyphony = args_.polyphony;
  config.quality = static_cast<engine::Quality>(args_.quality);
  config.effects = engine::effectsSettings(args_.effects);
  engine_ = std::make_unique<engine::Engine>(config);
  for (int part = 0; part < limits::kChannels && program_; ++part) {
    engine::Command command;
    command.type = engine::CommandType::SetProgram;
    command.part = static_cast<int8_t>(part);
    command.program = program_.get();
    if (!engine_->postCommand(command)) err_ << "spindle: the engine refused the program for part " << part << '\n';
  }
  live_ = std::make_unique<io::LiveProcessor>(*engine_);
}

void Session::startMidi() {
  std::string error;
  if (!args_.midiDevice.empty()) {
    midiDevice_ = std::make_unique<io::MidiInputThread>(*live_, kDeviceMidiInput);
    if (!midiDevice_->start(args_.midiDevice, error)) err_ << "spindle: warning: MIDI device " << error << '\n';
  }
  if (args_.alsaSeq) {
    alsaSeq_ = std::make_unique<io::AlsaSeqInput>(*live_, kAlsaSeqMidiInput);
    alsaSeq_->setFollow(policy_.midi, policy_.midiFrom);
    if (!alsaSeq_->start(clientName_, error)) err_ << "spindle: warning: " << error << '\n';
  }
}
void Session::tick() {
  if (++ticks_ == 50 || ticks_ == 250) checkRealtime();
  if (gPrintStats) {
    gPrintStats = 0;
    out_ << io::formatStats(live_->stats()) << connectionLog_->line() << streamingStats() << oscStats() << std::flush;
  }
  connectionLog_->tick(ticks_ >= 50);
  drainNoteLog();
  collectProblems();
  control_->pump();  // OSC commands to the engine; frees the retired programs LiveControl owns
  superviseBackend();
  if (ticks_ % 10 == 1) control_->routeHosts(hosts_.settings());  // a session may add hosts
}
int Session::run() {
  installSignalHandlers();
  if (!load()) return kExitInput;
  const io::RealtimeReport memory = io::lockMemory();
  if (!memory.warning.empty()) err_ << "spindle: " << memory.warning << '\n';
  if (!joinNsm()) return kExitInput;
  policy_ = connectionPolicyFor(args_);
  io::BackendOptions options;
  options.clientName = clientName_;
  options.multiOut = args_.multiOut;
  backend_ = connectToServer(args_.backend, options, err_, [] { return gStop != 0; });
  if (!backend_) return args_.backend.empty() ? kExitInput : 0;  // none running, or stopped while waiting
  connectionLog_.emplace(*backend_, out_);
  if (args_.multiOut && std::string(backend_->kind()) != "jack")
    err_ << "spindle: warning: --multi-out needs the JACK backend (under PipeWire: pw-jack spindle --backend jack)\n";
  startEngine();
  if (!startControl()) return kExitInput;
  std::string error;
  if (!args_.noteLog.empty()) noteLog_.open(args_.noteLog, std::ios::trunc);
  backend_->setConnectionPolicy(policy_);
  if (!backend_->start(*live_, error)) {
    err_ << "spindle: " << error << '\n';
    return kExitInput;
  }
  startMidi();
  out_ << "spindle " << kVersion << ": playing through " << backend_->kind() << " as " << clientName_ << " ("
       << backend_->sampleRate() << " Hz, period " << backend_->periodFrames() << ")\n"
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
  Session session(resolved, out, err);
  return session.run();
}

}  // namespace spindle::app
