// Session: what the main thread watches while the session plays (a lost server, the
// real-time check, the note log, problems), and the summary at the end.
#include <string>
#include <utility>

#include "app/Session.h"
#include "io/RealtimeSetup.h"

namespace spindle::app {

namespace {
constexpr int kReconnectTicks = 25;  // 500 ms at the main loop's 20 ms tick
}  // namespace

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

// What OSC accepted signed and refused, when it listens (SIGUSR1, and at the end).
std::string Session::oscStats() {
  if (!osc_ || osc_->port() == 0) return {};
  return "osc:               " + std::to_string(osc_->packets()) + " packets, " + control::authReport(osc_->core()) +
         "\n";
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
       << io::formatStats(live_->stats()) << connections << streamingStats() << oscStats() << std::flush;
}

}  // namespace spindle::app
