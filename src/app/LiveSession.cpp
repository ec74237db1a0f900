#include "app/LiveSession.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <thread>

#include "app/BundledInstrument.h"
#include "app/ConnectionLog.h"
#include "app/LiveArgs.h"
#include "app/LiveControl.h"
#include "app/ServerChoice.h"
#include "app/Loader.h"
#include "control/NsmClient.h"
#include "control/OscServer.h"
#include "control/ProblemLog.h"
#include "core/Limits.h"
#include "engine/Engine.h"
#include "io/AlsaSeqInput.h"
#include "io/AudioBackend.h"
#include "io/LiveProcessor.h"
#include "io/MidiInputThread.h"
#include "io/RealtimeSetup.h"
#include "spindle/Version.h"
#include "stream/Streaming.h"

namespace spindle::app {

namespace {


constexpr int kExitUsage = 2;
constexpr int kExitInput = 1;
constexpr auto kTick = std::chrono::milliseconds(20);
constexpr int kReconnectTicks = 25;  // 500 ms
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

class Session {
 public:
  Session(const LiveArgs& args, std::ostream& out, std::ostream& err)
      : args_(args),
        out_(out),
        err_(err),
        streamingOptions_(streamingOptionsFor(args)),
        loader_(stream::poolOptionsFor(streamingOptions_)) {}
  ~Session();
  int run();

 private:
  bool load();
  bool joinNsm();
  void startEngine();
  bool startControl();
  void startMidi();
  void tick();
  void superviseBackend();
  void drainNoteLog();
  void collectProblems();
  void logProblems();
  void finish();
  std::string streamingStats();
  void checkRealtime();

  const LiveArgs& args_;
  std::ostream& out_;
  std::ostream& err_;
  // Destroyed in reverse: the engine before the streams, the streams before the pool.
  stream::StreamingOptions streamingOptions_;
  // Disk errors, samples a load left out, a lost server; read by the log (logProblems) and OSC.
  control::ProblemLog problems_;
  uint64_t problemsLogged_ = 0;  // serial of the newest problem printed to err_
  Loader loader_;
  std::unique_ptr<engine::Program> program_;
  // Programs loaded over OSC/NSM (their pools, too): outlive the streams and the engine.
  std::unique_ptr<LiveControl> control_;
  std::unique_ptr<stream::Streaming> streaming_;
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<io::LiveProcessor> live_;
  std::unique_ptr<io::MidiInputThread> midiDevice_;
  std::unique_ptr<io::AlsaSeqInput> alsaSeq_;
  std::unique_ptr<control::NsmClient> nsm_;
  std::unique_ptr<control::OscServer> osc_;  // the control thread; stopped in finish()/~Session
  // Last, so destroyed first: its threads call into live_ until it disconnects.
  std::unique_ptr<io::AudioBackend> backend_;
  std::ofstream noteLog_;
  std::string clientName_;
  io::ConnectionPolicy policy_;
  std::optional<ConnectionLog> connectionLog_;  // once the backend is chosen
  int ticksSinceLost_ = 0;
  int ticks_ = 0;
  int nonRealtimeChecks_ = 0;
};

Session::~Session() {
  if (osc_) osc_->stop();
  if (control_) control_->stopLoads();
}

bool Session::load() {
  if (args_.instrument.empty()) return true;  // under NSM: the session brings the instruments
  Loader::Result loaded = loader_.load(args_.instrument);
  for (const auto& diagnostic : loaded.report.diagnostics) err_ << formatDiagnostic(diagnostic) << '\n';
  for (const std::string& file : loaded.report.missingFiles) err_ << "spindle: missing sample: " << file << '\n';
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
  std::vector<ConnectionControl::Input> inputs{{0, "midi_in"}, {1 + kOscMidiInput, "osc"}};
  if (!args_.midiDevice.empty()) inputs.push_back({1 + kDeviceMidiInput, "device"});
  if (args_.alsaSeq) inputs.push_back({1 + kAlsaSeqMidiInput, "alsa_seq"});
  control_->setBackend(backend_.get(), std::move(inputs));
  control_->setBaseMemory(loader_.pool().bytesInRam(), loader_.pool().loadedCount());
  if (streaming_->disk()) control_->setDiskCounters(&streaming_->disk()->counters(), streaming_->cacheBytes());
  osc_ = std::make_unique<control::OscServer>(*control_, control::OscServerOptions{args_.oscPort, args_.oscBind});
  if (nsm_) osc_->attachNsm(*nsm_);
  std::string error;
  if (!osc_->start(error)) {
    err_ << "spindle: " << error << " (--osc-port 0 turns OSC off)\n";
    return false;
  }
  if (osc_->port() != 0) out_ << "OSC: udp and tcp " << args_.oscBind << ":" << osc_->port() << '\n';
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

// Disk errors into the problem log (OSC reads it too), then what is new to the log.
void Session::collectProblems() {
  for (stream::DiskError& error : streaming_->takeDiskErrors())
    problems_.add(control::ProblemKind::Disk, std::move(error.file), std::move(error.message));
  logProblems();
}

// Problems pushed out of the log's kKept before this thread saw them are counted.
void Session::logProblems() {
  if (problems_.total() == problemsLogged_) return;
  for (const control::LoggedProblem& problem : problems_.since(problemsLogged_)) {
    if (problem.serial > problemsLogged_ + 1)
      err_ << "spindle: " << problem.serial - problemsLogged_ - 1 << " more problem(s) not shown\n";
    err_ << "spindle: " << problem.message << '\n';
    problemsLogged_ = problem.serial;
  }
}

void Session::drainNoteLog() {
  io::NoteLatency note;
  const double rate = backend_->sampleRate();
  while (live_->popNoteLatency(note)) {
    if (noteLog_.is_open()) noteLog_ << io::formatNoteLatency(note, rate) << '\n';
  }
  if (noteLog_.is_open()) noteLog_.flush();
}

// A lost server: close the dead client at once, then retry every 500 ms.
void Session::superviseBackend() {
  if (!backend_->lost() && ticksSinceLost_ == 0) return;
  if (ticksSinceLost_ == 0) {
    problems_.add(control::ProblemKind::Server, "",
                  std::string("the ") + backend_->kind() + " server went away; reconnecting");
    logProblems();
    backend_->disconnect();
    // The note-offs of keys released while the server is away never arrive (its MIDI
    // ports are gone): silence every voice, so none hangs after the reconnect. The
    // engine's FIFO holds the command until the first cycle on the new connection.
    engine::Command panic;
    panic.type = engine::CommandType::Panic;
    if (!engine_->postCommand(panic)) err_ << "spindle: warning: could not silence the voices (command queue full)\n";
  }
  if (++ticksSinceLost_ % kReconnectTicks != 0) return;
  std::string error;
  if (!backend_->connect(error)) return;
  if (!backend_->start(*live_, error)) {
    backend_->disconnect();
    return;
  }
  if (backend_->sampleRate() != engine_->config().sampleRate)
    err_ << "spindle: warning: the server now runs at " << backend_->sampleRate() << " Hz, the engine at "
         << engine_->config().sampleRate << " Hz: pitch is off until restart\n";
  live_->countReconnect();
  ticksSinceLost_ = 0;
  err_ << "spindle: reconnected to the " << backend_->kind() << " server\n";
}

// Is the audio thread real-time? (The server or its client library decides; Spindle
// can only explain the fix.) Asked at 1 s and 5 s, warned only if both say no: a
// server may raise its client's thread a moment after the first cycle. The kernel is
// asked, not glibc: pw-jack raises its data thread by kernel id (RealtimeSetup.h).
void Session::checkRealtime() {
  const bool realtime = live_->audioThread() == 0 || live_->audioThreadPriority() > 0;
  if (realtime || ++nonRealtimeChecks_ < 2) return;
  err_ << "spindle: warning: the audio thread is not real-time (SCHED_OTHER): expect xruns under load; "
       << io::realtimeLimitsAdvice() << '\n';
}

void Session::tick() {
  if (++ticks_ == 50 || ticks_ == 250) checkRealtime();
  if (gPrintStats) {
    gPrintStats = 0;
    out_ << io::formatStats(live_->stats()) << connectionLog_->line() << streamingStats() << std::flush;
  }
  connectionLog_->tick(ticks_ >= 50);
  drainNoteLog();
  collectProblems();
  control_->pump();  // OSC commands to the engine; frees the retired programs LiveControl owns
  superviseBackend();
}

// The memory line and the disk's figures, after the live stats (SIGUSR1, and at the end).
std::string Session::streamingStats() {
  const control::ControlStatus s = control_->status();
  return "memory:            " + streaming_->liveMemory(s.memoryBytes, s.bytesPerSample) + "\n" +
         (streaming_->enabled() ? "disk streaming:    " + streaming_->report(live_->stats().streamUnderruns) + "\n" : "");
}

void Session::finish() {
  osc_->stop();
  control_->stopLoads();
  if (midiDevice_) midiDevice_->stop();
  if (alsaSeq_) alsaSeq_->stop();
  const std::string connections = connectionLog_->line();
  backend_->disconnect();
  drainNoteLog();
  collectProblems();
  engine_->collectAllPrograms([this](const engine::Program* p) { control_->dispose(p); });
  out_ << "spindle: stopped\n"
       << io::formatStats(live_->stats()) << connections << streamingStats() << std::flush;
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

}  // namespace

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
