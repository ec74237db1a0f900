// spindle-netdelay: a point-to-point link between two TUN devices that delays every
// packet, for the NetJACK2 rig on kernels without sch_netem (tests/net/net_support.sh).
//
//   spindle-netdelay --delay MS --jitter MS [--seed N] [--stats FILE] TUN_A TUN_B
//
// It creates TUN_A and TUN_B (raw IP), says "ready" on stdout, and from then on writes
// every packet read from one to the other after delay + uniform(-jitter, +jitter)
// milliseconds (at least 0), never before the packet that came before it in the same
// direction (DelayLink.h). The caller gives the devices their addresses and may move one
// into another network namespace. One thread: a queue per direction, and ppoll() with a
// timeout to the next departure on CLOCK_MONOTONIC, at most kWatchNanos. A wake more than
// kStallNanos after the wait was due (the link itself held up, a VM stall: packets read
// or written that late miss the delay asked for) prints "stall: MS ms (N so far) at T us" on
// stdout at once, so a test can tell a note its link delivered late. On SIGTERM or SIGINT it prints, per
// direction, the packets carried and dropped and the mean, min and max delay it added
// (also into FILE with --stats) and exits 0; 2 on a bad command line or a TUN it cannot make.
#include <poll.h>
#include <sys/prctl.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <stdexcept>
#include <string>

#include "DelayLink.h"
#include "Tun.h"

namespace spindle::netdelay {
namespace {

constexpr size_t kQueuePackets = 8192;
constexpr Nanos kWatchNanos = 1'000'000;  // the longest wait: a stall is seen within it
constexpr Nanos kStallNanos = 3'000'000;  // a wake this late is a stall of the link
std::atomic<bool> stopRequested{false};  // set by the SIGTERM/SIGINT handler
static_assert(std::atomic<bool>::is_always_lock_free, "a signal handler may only touch lock-free atomics");

struct Options {
  DelayShape shape;
  uint64_t seed = std::random_device{}();
  std::string stats, tunA, tunB;
};

struct Direction {
  Tun& from;
  Tun& to;
  DelayQueue queue;
};

Nanos monotonicNow() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<Nanos>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

Nanos millisToNanos(const std::string& text, const char* what) {
  char* end = nullptr;
  const double ms = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(ms >= 0.0) || ms > 60'000.0)
    throw std::invalid_argument(std::string(what) + " '" + text + "': milliseconds from 0 to 60000");
  return static_cast<Nanos>(ms * 1e6 + 0.5);
}

Options parseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool hasValue = i + 1 < argc;
    if (arg == "--delay" && hasValue) options.shape.delay = millisToNanos(argv[++i], "--delay");
    else if (arg == "--jitter" && hasValue) options.shape.jitter = millisToNanos(argv[++i], "--jitter");
    else if (arg == "--seed" && hasValue) options.seed = std::strtoull(argv[++i], nullptr, 10);
    else if (arg == "--stats" && hasValue) options.stats = argv[++i];
    else if (arg.rfind("--", 0) != 0 && options.tunA.empty()) options.tunA = arg;
    else if (arg.rfind("--", 0) != 0 && options.tunB.empty()) options.tunB = arg;
    else throw std::invalid_argument("unexpected argument '" + arg + "'");
  }
  if (options.tunB.empty()) throw std::invalid_argument("two TUN names are needed");
  return options;
}

void readArrivals(Direction& direction) {
  std::vector<uint8_t> packet;
  while (direction.from.read(packet)) direction.queue.push(std::move(packet), monotonicNow());
}

// A packet's added delay ends when its write begins: what the write costs (the receiving
// namespace's stack runs inside it) a link without delay costs too.
void writeDepartures(Direction& direction) {
  for (Nanos now = monotonicNow(); direction.queue.due(now); now = monotonicNow())
    direction.queue.pop(now, direction.to.write(direction.queue.front().bytes));
}

// The wait until the earliest departure of either direction, at most kWatchNanos from
// `now`; `due` is when it ends.
timespec untilNextDeparture(const Direction& ab, const Direction& ba, Nanos now, Nanos& due) {
  due = now + kWatchNanos;
  if (!ab.queue.empty()) due = std::min(due, ab.queue.nextDeparture());
  if (!ba.queue.empty()) due = std::min(due, ba.queue.nextDeparture());
  const Nanos wait = std::max<Nanos>(0, due - now);
  return timespec{static_cast<time_t>(wait / 1'000'000'000), static_cast<long>(wait % 1'000'000'000)};
}

// A wake later than kStallNanos after `due`: said on stdout with the wake's time in
// microseconds of CLOCK_MONOTONIC_RAW (JACK's clock, the probe's), counted.
void watchStall(Nanos due, uint64_t& stalls) {
  const Nanos late = monotonicNow() - due;
  if (late <= kStallNanos) return;
  timespec raw{};
  clock_gettime(CLOCK_MONOTONIC_RAW, &raw);
  std::printf("stall: %.1f ms (%llu so far) at %lld us\n", static_cast<double>(late) / 1e6,
              static_cast<unsigned long long>(++stalls),
              static_cast<long long>(raw.tv_sec) * 1'000'000 + raw.tv_nsec / 1000);
  std::fflush(stdout);
}

void onStop(int) { stopRequested.store(true, std::memory_order_relaxed); }

// SIGTERM and SIGINT stay blocked except inside ppoll(), so a stop never falls between
// the check and the wait. Returns the mask ppoll() waits with.
sigset_t stopSignals() {
  struct sigaction action{};
  action.sa_handler = onStop;
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
  sigset_t blocked, waiting;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGTERM);
  sigaddset(&blocked, SIGINT);
  sigprocmask(SIG_BLOCK, &blocked, &waiting);
  sigdelset(&waiting, SIGTERM);
  sigdelset(&waiting, SIGINT);
  return waiting;
}

void run(Direction& ab, Direction& ba) {
  const sigset_t waiting = stopSignals();
  pollfd fds[2] = {{ab.from.fd(), POLLIN, 0}, {ba.from.fd(), POLLIN, 0}};
  uint64_t stalls = 0;
  while (!stopRequested.load(std::memory_order_relaxed)) {
    Nanos due = 0;
    const timespec timeout = untilNextDeparture(ab, ba, monotonicNow(), due);
    const int ready = ppoll(fds, 2, &timeout, &waiting);
    if (ready < 0 && errno != EINTR) throw std::runtime_error("ppoll failed");
    watchStall(due, stalls);
    if (ready > 0 && (fds[0].revents & POLLIN)) readArrivals(ab);
    if (ready > 0 && (fds[1].revents & POLLIN)) readArrivals(ba);
    writeDepartures(ab);
    writeDepartures(ba);
  }
}

void printStats(std::FILE* out, const Direction& direction) {
  const DirectionStats& s = direction.queue.stats();
  std::fprintf(out, "%s->%s: %llu packets, %llu dropped, added delay mean %.3f ms, min %.3f ms, max %.3f ms\n",
               direction.from.name().c_str(), direction.to.name().c_str(),
               static_cast<unsigned long long>(s.packets), static_cast<unsigned long long>(s.dropped),
               s.meanMs(), static_cast<double>(s.min) / 1e6, static_cast<double>(s.max) / 1e6);
}

void reportStats(const Options& options, const Direction& ab, const Direction& ba) {
  printStats(stdout, ab);
  printStats(stdout, ba);
  if (options.stats.empty()) return;
  std::FILE* file = std::fopen(options.stats.c_str(), "w");
  if (file == nullptr) {
    std::fprintf(stderr, "spindle-netdelay: cannot write %s\n", options.stats.c_str());
    return;
  }
  printStats(file, ab);
  printStats(file, ba);
  std::fclose(file);
}

int runLink(const Options& options) {
  Tun a(options.tunA), b(options.tunB);
  Direction ab{a, b, DelayQueue(options.shape, options.seed, kQueuePackets)};
  Direction ba{b, a, DelayQueue(options.shape, options.seed + 1, kQueuePackets)};
  prctl(PR_SET_TIMERSLACK, 1UL);  // wake at the departure, not up to 50 us later
  std::printf("ready: %s <-> %s, delay %.3f ms, jitter %.3f ms\n", a.name().c_str(), b.name().c_str(),
              static_cast<double>(options.shape.delay) / 1e6, static_cast<double>(options.shape.jitter) / 1e6);
  std::fflush(stdout);
  run(ab, ba);
  reportStats(options, ab, ba);
  return 0;
}

}  // namespace
}  // namespace spindle::netdelay

int main(int argc, char** argv) {
  try {
    return spindle::netdelay::runLink(spindle::netdelay::parseOptions(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spindle-netdelay: %s\n"
                 "usage: spindle-netdelay --delay MS --jitter MS [--seed N] [--stats FILE] TUN_A TUN_B\n",
                 e.what());
    return 2;
  }
}
