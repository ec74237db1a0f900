// Headless: what the main thread watches while the session plays (a lost server, the
// real-time check, the note log, problems), and the summary at the end.
#include <string>
#include <utility>

#include "app/Headless.h"
#include "io/RealtimeSetup.h"

namespace spindle::app {

namespace {
constexpr int kReconnectTicks = 25;  // 500 ms at the main loop's 20 ms tick
}  // namespace

// What is new in the session's problem log (disk errors, samples a load left out, a
// lost server; OSC reads the same log). Problems pushed out of the log's kKept before
// this thread saw them are counted.
void Headless::logProblems() {
  const control::ProblemLog& problems = session_->problems();
  if (problems.total() == problemsLogged_) return;
  for (const control::LoggedProblem& problem : problems.since(problemsLogged_)) {
    if (problem.serial > problemsLogged_ + 1)
      err_ << "spindle: " << problem.serial - problemsLogged_ - 1 << " more problem(s) not shown\n";
    err_ << "spindle: " << problem.message << '\n';
    problemsLogged_ = problem.serial;
  }
}

void Headless::drainNoteLog() {
  io::NoteLatency note;
  const double rate = session_->backend().sampleRate();
  while (session_->live().popNoteLatency(note)) {
    if (noteLog_.is_open()) noteLog_ << io::formatNoteLatency(note, rate) << '\n';
  }
  if (noteLog_.is_open()) noteLog_.flush();
}

// A lost server: the session closes the dead client at once; the loop retries every 500 ms.
void Headless::superviseBackend() {
  const bool retry = session_->serverLost() && ++ticksSinceLost_ % kReconnectTicks == 0;
  switch (session_->superviseServer(retry)) {
    case session::ServerEvent::None: return;
    case session::ServerEvent::Lost:
      ticksSinceLost_ = 0;
      logProblems();
      return;
    case session::ServerEvent::Reconnected: break;
  }
  io::AudioBackend& backend = session_->backend();
  const double engineRate = session_->engine().config().sampleRate;
  if (backend.sampleRate() != engineRate)
    err_ << "spindle: warning: the server now runs at " << backend.sampleRate() << " Hz, the engine at " << engineRate
         << " Hz: pitch is off until restart\n";
  err_ << "spindle: reconnected to the " << backend.kind() << " server\n";
}

// Is the audio thread real-time? (The server or its client library decides; Spindle
// can only explain the fix.) Asked at 1 s and 5 s, warned only if both say no: a
// server may raise its client's thread a moment after the first cycle. The kernel is
// asked, not glibc: pw-jack raises its data thread by kernel id (RealtimeSetup.h).
void Headless::checkRealtime() {
  const io::LiveProcessor& live = session_->live();
  const bool realtime = live.audioThread() == 0 || live.audioThreadPriority() > 0;
  if (realtime || ++nonRealtimeChecks_ < 2) return;
  err_ << "spindle: warning: the audio thread is not real-time (SCHED_OTHER): expect xruns under load; "
       << io::realtimeLimitsAdvice() << '\n';
}

// What OSC accepted signed and refused, when it listens (SIGUSR1, and at the end).
std::string Headless::oscStats() {
  control::OscServer* osc = session_->osc();
  if (!osc || osc->port() == 0) return {};
  return "osc:               " + std::to_string(osc->packets()) + " packets, " + control::authReport(osc->core()) +
         "\n";
}

// The memory line and the disk's figures, after the live stats (SIGUSR1, and at the end).
std::string Headless::streamingStats() {
  const auto [bytes, samples] = session_->control().memory();
  const stream::Streaming& streaming = session_->streaming();
  return "memory:            " + streaming.liveMemory(bytes, samples > 0 ? bytes / samples : 0) + "\n" +
         (streaming.enabled() ? "disk streaming:    " + streaming.report(session_->live().stats().streamUnderruns) + "\n"
                              : "");
}

void Headless::finish() {
  const std::string connections = connectionLog_->line();
  session_->stop();  // OSC, the loads, the midi threads, the server's client; every Program back
  drainNoteLog();
  logProblems();
  out_ << "spindle: stopped\n"
       << io::formatStats(session_->live().stats()) << connections << streamingStats() << oscStats() << std::flush;
}

}  // namespace spindle::app
