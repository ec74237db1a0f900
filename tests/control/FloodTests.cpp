// 100,000 messages against a bounded FIFO to a simulated audio thread: the audio
// thread never waits, overflow is counted and reported, and Spindle keeps answering.
#include <atomic>
#include <chrono>
#include <thread>

#include "RecordingTarget.h"
#include "catch.h"
#include "control/OscServer.h"
#include "rt/SpscFifo.h"

namespace flood_tests {

using namespace spindle::control;

namespace {

constexpr int kFlood = 100000;

struct Midi {
  uint8_t status, data1, data2;
};

// sendMidi goes through a 1024-slot FIFO that an "audio thread" drains 64 events per
// 1 ms cycle, timing each cycle's take.
class FifoTarget : public spindle::test::RecordingTarget {
 public:
  spindle::rt::SpscFifo<Midi, 1024> fifo;
  std::atomic<uint64_t> refused{0};

  bool sendMidi(uint8_t s, uint8_t d1, uint8_t d2) override {
    if (fifo.tryPush({s, d1, d2})) return true;
    refused.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
};

struct AudioThread {
  FifoTarget& target;
  std::atomic<bool> run{true};
  std::atomic<bool> paused{false};  // a stalled consumer: the FIFO must refuse, not block
  std::atomic<uint64_t> taken{0};
  // Takes, and those that lasted over 5 ms: a producer that made the consumer wait
  // would make many slow; a machine that preempts the (not real-time) thread inside
  // one makes a rare one.
  std::atomic<uint64_t> takes{0}, slowTakes{0};
  std::thread thread{[this] { loop(); }};

  void loop() {
    while (run.load(std::memory_order_acquire)) {
      const auto start = std::chrono::steady_clock::now();
      Midi m{};
      for (int k = 0; k < 64 && !paused.load(std::memory_order_relaxed) && target.fifo.tryPop(m); ++k) taken.fetch_add(1, std::memory_order_relaxed);
      const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
      takes.fetch_add(1, std::memory_order_relaxed);
      if (ns > 5'000'000) slowTakes.fetch_add(1, std::memory_order_relaxed);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  ~AudioThread() {
    run = false;
    thread.join();
  }
};

double statusValue(const OscMessage& m, const std::string& name) {
  for (std::size_t k = 0; k + 1 < m.args.size(); k += 2)
    if (m.args[k].text == name) return m.args[k + 1].number();
  return -1.0;
}

}  // namespace

TEST_CASE("a 100,000-message flood overflows the bounded FIFO, counted and reported", "[control][flood]") {
  FifoTarget target;
  spindle::test::RecordingSink sink;
  ControlCore core(target, sink);
  AudioThread audio{target};
  const Peer from = spindle::test::loopbackPeer();
  const auto start = std::chrono::steady_clock::now();
  audio.paused = true;  // the first half meets a consumer that takes nothing
  for (int k = 0; k < kFlood; ++k) {
    if (k == kFlood / 2) audio.paused = false;
    core.handle(from, {"/spindle/note_on", {OscValue::i(1 + k % 16), OscValue::i(k % 128), OscValue::i(100)}});
  }
  CHECK(core.handled() == kFlood);
  CHECK(core.dropped() == target.refused.load());
  CHECK(core.dropped() >= kFlood / 2 - 1024);
  const auto replies = sink.take();
  REQUIRE_FALSE(replies.empty());
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start).count();
  CHECK(replies.size() <= static_cast<std::size_t>(seconds) + 1);  // at most one "queue full" error a second
  CHECK_THAT(replies[0].message.args[1].text, Catch::Contains("command queue full"));
  core.handle(from, {"/spindle/status", {}});
  const auto status = sink.take();
  REQUIRE(status.size() == 1);
  CHECK(statusValue(status[0].message, "dropped") == static_cast<double>(core.dropped()));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(audio.taken.load() + core.dropped() == kFlood);
  CHECK(audio.takes.load() > 20);
  CHECK(audio.slowTakes.load() * 100 <= audio.takes.load());  // the audio side never waited
}

TEST_CASE("a UDP flood of 100,000 datagrams: the server keeps answering", "[control][flood][net]") {
  FifoTarget target;
  OscServer server(target, {-1, "127.0.0.1"});
  std::string error;
  REQUIRE(server.start(error));
  AudioThread audio{target};
  const int fd = bindSocket("127.0.0.1", 0, SOCK_DGRAM, error);
  const Peer to = *Peer::udp("127.0.0.1", server.port());
  const auto packet = serialise({"/spindle/note_on", {OscValue::i(1), OscValue::i(60), OscValue::i(1)}});
  for (int k = 0; k < kFlood; ++k) {
    while (::sendto(fd, packet.data(), packet.size(), 0, reinterpret_cast<const sockaddr*>(&to.address), to.length) < 0)
      std::this_thread::yield();  // our own send buffer is full
  }
  const auto ping = serialise({"/spindle/ping", {}});
  bool pong = false;
  uint8_t reply[512];
  for (int attempt = 0; attempt < 50 && !pong; ++attempt) {
    ::sendto(fd, ping.data(), ping.size(), 0, reinterpret_cast<const sockaddr*>(&to.address), to.length);
    for (int k = 0; k < 10 && !pong; ++k) {
      const ssize_t n = ::recv(fd, reply, sizeof reply, 0);
      pong = n > 0 && std::string(reinterpret_cast<char*>(reply)) == "/spindle/pong";
      if (n <= 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  CHECK(pong);
  server.stop();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  // Every datagram the kernel delivered was either played or counted as dropped.
  const uint64_t notes = audio.taken.load() + server.core().dropped();
  CHECK(notes <= static_cast<uint64_t>(kFlood));
  CHECK(server.core().handled() >= notes);        // the rest were pings
  CHECK(server.core().handled() <= notes + 50);
  CHECK(audio.takes.load() > 20);
  CHECK(audio.slowTakes.load() * 100 <= audio.takes.load());
  ::close(fd);
}

}  // namespace flood_tests
