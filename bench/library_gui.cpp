// spindle-bench-library-gui: the real main window (offscreen) while its library index
// scans the instruments of the home the environment names (bench/library_gui.py builds
// one of 2,000 and runs this, cold then warm). Measured from the window's construction
// until the browser lists every instrument and the index is idle, plus a short tail:
//
// - the gui thread: a 5 ms precise QTimer records the wall time between its firings; the
//   longest gap is the longest the event loop stalled, and the gui thread's CPU time in
//   each gap tells its own work from preemption on a loaded machine (the model's resets
//   are counted and the longest gap that held one is reported apart);
// - the audio thread: a thread of its own renders the engine through io::LiveProcessor
//   as a sound server's callback does (256 frames at 48 kHz, on an absolute clock), while
//   the window plays notes on part 1; reported: cycles, the longest render against the
//   period's budget, cycles over budget, the notes and voices it rendered;
// - which thread did the work: each thread's id and CPU time (/proc schedstat): the
//   index's scan thread ("library"), the gui thread, the audio thread.
//
//   spindle-bench-library-gui --expect 2000 [--tail-ms 500] [--timeout-s 120]
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

#include "GuiHarness.h"
#include "ThreadNamed.h"
#include "gui/LibraryBrowser.h"
#include "gui/Theme.h"
#include "library/LibraryIndex.h"

namespace {

using spindle::gui::test::Harness;
using spindle::gui::test::kBlock;
using spindle::gui::test::kRate;

pid_t threadId() { return static_cast<pid_t>(syscall(SYS_gettid)); }

// Nanoseconds the thread `tid` of this process has run on a CPU (0: unknown).
std::uint64_t cpuNs(pid_t tid) {
  std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/schedstat");
  std::uint64_t ns = 0;
  in >> ns;
  return ns;
}

// The "audio thread": renders one period every 256 frames of wall time, as a server does.
class AudioThread {
 public:
  explicit AudioThread(Harness& h) : h_(h), thread_([this] { run(); }) {}
  ~AudioThread() {
    stop_.store(true);
    thread_.join();
  }
  pid_t tid() const { return tid_.load(); }
  bool realtime() const { return realtime_.load(); }
  std::uint64_t lateWakeups() const { return late_.load(); }

 private:
  void run() {
    tid_.store(threadId());
    sched_param param{};
    param.sched_priority = 70;  // as Spindle's audio thread on JACK, when the machine allows it
    realtime_.store(pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0);
    std::vector<float> l(kBlock), r(kBlock);
    const std::int64_t periodNs = static_cast<std::int64_t>(1e9 * kBlock / kRate);
    timespec next{};
    clock_gettime(CLOCK_MONOTONIC, &next);
    std::uint64_t frame = h_.frame;
    while (!stop_.load()) {
      const std::int64_t start = spindle::io::monotonicNs();
      h_.live.beginCycle(spindle::io::CycleStart{frame, kBlock, start, kRate});
      h_.live.endCycle(l.data(), r.data());
      frame += kBlock;
      next.tv_nsec += periodNs;
      while (next.tv_nsec >= 1000000000) {
        next.tv_nsec -= 1000000000;
        ++next.tv_sec;
      }
      clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr);
      if (spindle::io::monotonicNs() - (next.tv_sec * 1000000000LL + next.tv_nsec) > periodNs) late_.fetch_add(1);
    }
  }

  Harness& h_;
  std::atomic<bool> stop_{false};
  std::atomic<pid_t> tid_{0};
  std::atomic<bool> realtime_{false};
  std::atomic<std::uint64_t> late_{0};
  std::thread thread_;
};

struct Options {
  int expect = 2000;
  int tailMs = 500;
  int timeoutS = 120;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--expect") o.expect = std::atoi(argv[++i]);
    else if (a == "--tail-ms") o.tailMs = std::atoi(argv[++i]);
    else if (a == "--timeout-s") o.timeoutS = std::atoi(argv[++i]);
  }
  return o;
}

std::int64_t threadCpuNs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

// The event loop's gaps, from a 5 ms timer's firings, and the model's changes among them.
// Each gap's CPU time on the gui thread tells its own work from the time the machine
// gave other processes (a loaded machine preempts the gui thread too).
struct Stalls {
  QElapsedTimer clock;
  std::int64_t last = 0, lastCpu = 0, longest = 0, longestCpu = 0, busiest = 0, busiestWall = 0;
  std::int64_t longestWithChange = 0, longestAt = 0;
  int ticks = 0, over50 = 0, over20 = 0, busyOver20 = 0, resets = 0, insertions = 0;
  bool changedSinceTick = false;  // the model was reset or grew

  void start() {
    clock.start();
    lastCpu = threadCpuNs();
  }
  void watch(const QAbstractItemModel& model) {
    QObject::connect(&model, &QAbstractItemModel::modelReset, [this] {
      ++resets;
      changedSinceTick = true;
    });
    QObject::connect(&model, &QAbstractItemModel::rowsInserted, [this](const QModelIndex& parent) {
      insertions += !parent.isValid();
      changedSinceTick = true;
    });
  }
  void tick() {
    const std::int64_t now = clock.nsecsElapsed(), cpu = threadCpuNs();
    const std::int64_t gap = now - last, ran = cpu - lastCpu;
    last = now;
    lastCpu = cpu;
    ++ticks;
    if (gap > longest) longest = gap, longestCpu = ran, longestAt = now;
    if (ran > busiest) busiest = ran, busiestWall = gap;
    if (changedSinceTick) longestWithChange = std::max(longestWithChange, gap);
    changedSinceTick = false;
    over50 += gap > 50'000'000;
    over20 += gap > 20'000'000;
    busyOver20 += ran > 20'000'000;
  }
};

struct Threads {
  pid_t gui = 0, audio = 0, library = 0;
  std::uint64_t guiNs = 0, audioNs = 0, libraryNs = 0;
  void sample() {
    guiNs = cpuNs(gui);
    audioNs = cpuNs(audio);
    if (library == 0) library = threadNamed("library");
    if (library != 0) libraryNs = std::max(libraryNs, cpuNs(library));
  }
};

// Plays a short note on part 1 every 250 ms while the index scans.
void playNotes(Harness& h, QTimer& timer) {
  QObject::connect(&timer, &QTimer::timeout, [&h, key = 0]() mutable {
    h.link.sendMidi(0x80, static_cast<uint8_t>(60 + key), 0);
    key = (key + 5) % 24;
    h.link.sendMidi(0x90, static_cast<uint8_t>(60 + key), 100);
  });
  timer.start(250);
}

void report(const Options& o, const Stalls& s, const Threads& t, Harness& h, double constructMs, double listedS,
            const AudioThread& audio) {
  const spindle::io::LiveStatsSnapshot live = h.live.stats();
  const double ms = 1e-6;
  std::printf("instruments listed: %d (expected %d) in %.2f s from the window's construction; index loads: %llu\n",
              h.window.browser()->model().entryCount(), o.expect, listedS,
              static_cast<unsigned long long>(h.window.libraryIndex().loads()));
  std::printf("window construction (index start, the browser's first fill included): %.1f ms\n", constructMs);
  std::printf("gui thread: longest event-loop gap %.1f ms, the gui thread running %.1f ms of it (5 ms timer, %d firings; "
              "%d gaps over 50 ms, %d over 20 ms)\n",
              static_cast<double>(s.longest) * ms, static_cast<double>(s.longestCpu) * ms, s.ticks, s.over50, s.over20);
  std::printf("gui thread: the most it ran between two firings %.1f ms (in a gap of %.1f ms); %d gaps with over 20 ms of it\n",
              static_cast<double>(s.busiest) * ms, static_cast<double>(s.busiestWall) * ms, s.busyOver20);
  std::printf("gui thread: the model's resets %d, insertions %d, the longest gap holding one %.1f ms; longest gap at %.2f s\n",
              s.resets, s.insertions,
              static_cast<double>(s.longestWithChange) * ms, static_cast<double>(s.longestAt) * 1e-9);
  std::printf("audio thread (%s): %llu cycles of %d frames (%.2f ms budget), longest render %.3f ms, %llu over budget, "
              "%llu late wakeups; %llu note-ons, peak %u voices, %llu underruns\n",
              audio.realtime() ? "SCHED_FIFO 70" : "not real-time", static_cast<unsigned long long>(live.process.cycles), kBlock,
              1e3 * kBlock / kRate,
              static_cast<double>(live.process.maxNs) * ms, static_cast<unsigned long long>(live.process.overBudget),
              static_cast<unsigned long long>(audio.lateWakeups()), static_cast<unsigned long long>(live.noteOns),
              live.peakVoices, static_cast<unsigned long long>(live.streamUnderruns));
  std::printf("threads (tid: CPU ms): library %d: %.0f, gui %d: %.0f, audio %d: %.0f\n", t.library,
              static_cast<double>(t.libraryNs) * ms, t.gui, static_cast<double>(t.guiNs) * ms, t.audio,
              static_cast<double>(t.audioNs) * ms);
}

int measure(const Options& o) {
  QTemporaryDir sines;  // outside the fake home's folders: not indexed
  const auto sfz = spindle::gui::test::writeSineLibrary(sines.path().toStdString());
  QElapsedTimer since;
  since.start();
  Harness h;
  const double constructMs = static_cast<double>(since.nsecsElapsed()) * 1e-6;
  Threads threads{threadId(), 0, 0};
  AudioThread audio(h);
  h.link.startPolling();
  h.window.loadInto(0, QString::fromStdString(sfz.string()));
  QTimer notes;
  playNotes(h, notes);

  Stalls stalls;
  stalls.watch(h.window.browser()->model());
  QEventLoop loop;
  QTimer tick;
  tick.setTimerType(Qt::PreciseTimer);
  double listedS = -1.0;
  QObject::connect(&tick, &QTimer::timeout, [&] {
    stalls.tick();
    const bool done = !h.window.libraryIndex().progress().scanning &&
                      h.window.browser()->model().entryCount() >= o.expect;
    if (done && listedS < 0) {
      listedS = static_cast<double>(since.nsecsElapsed()) * 1e-9;
      QTimer::singleShot(o.tailMs, &loop, &QEventLoop::quit);
    }
  });
  QTimer::singleShot(o.timeoutS * 1000, &loop, &QEventLoop::quit);
  stalls.start();
  tick.start(5);
  loop.exec();
  threads.audio = audio.tid();
  threads.sample();
  report(o, stalls, threads, h, constructMs, listedS, audio);
  return listedS < 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  spindle::gui::theme::apply(app);
  return measure(parse(argc, argv));
}
