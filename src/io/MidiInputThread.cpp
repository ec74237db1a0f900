#include "io/MidiInputThread.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/MidiTuning.h"
#include "io/ProcessTimer.h"
#include "io/RealtimeSetup.h"

namespace spindle::io {

void MidiPriorityFollower::update() {
  const unsigned long audio = live_.audioThread();
  if (audio == 0 || audio == audioThread_) return;
  audioThread_ = audio;
  const int audioPriority = live_.audioThreadPriority();
  if (audioPriority <= 1) return;  // the audio thread is not real-time: neither are we
  const std::string warning = setThreadPriority(pthread_self(), audioPriority - 1, "midi");
  if (!warning.empty()) std::fprintf(stderr, "spindle: %s\n", warning.c_str());
}

bool MidiInputThread::start(const std::string& path, std::string& error) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    error = path + ": " + std::strerror(errno);
    return false;
  }
  // A pipe opened read-write never reports end-of-file when its writers come and go.
  const int mode = S_ISFIFO(info.st_mode) ? O_RDWR : O_RDONLY;
  fd_ = ::open(path.c_str(), mode | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) {
    error = path + ": " + std::strerror(errno);
    return false;
  }
  stopping_.store(false);
  thread_ = std::thread([this] { run(); });
  pthread_setname_np(thread_.native_handle(), "midi");
  return true;
}

void MidiInputThread::stop() {
  stopping_.store(true);
  if (thread_.joinable()) thread_.join();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void MidiInputThread::run() {
  MidiPriorityFollower priority(live_);
  pollfd pfd{fd_, POLLIN, 0};
  while (!stopping_.load(std::memory_order_relaxed)) {
    priority.update();
    const int ready = ::poll(&pfd, 1, 50);  // the timeout bounds stop() latency
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    if (pfd.revents & (POLLERR | POLLNVAL)) break;
    readAvailable(monotonicNs());
    if ((pfd.revents & POLLHUP) && !(pfd.revents & POLLIN)) ::poll(nullptr, 0, 50);  // device gone
  }
}

void MidiInputThread::readAvailable(int64_t nowNs) {
  uint8_t bytes[512];
  const ssize_t n = ::read(fd_, bytes, sizeof bytes);
  if (n <= 0) return;
  const auto frame = live_.clock().frameAt(nowNs);
  MidiEvent event;
  const uint8_t* sysex = nullptr;
  std::size_t sysexSize = 0;
  for (ssize_t i = 0; i < n; ++i) {
    const bool message = parser_.feed(bytes[i], event);
    if (!message && !parser_.sysexDone(sysex, sysexSize)) continue;
    if (!frame) {  // no audio clock yet: nothing plays, the event is lost
      live_.countMidiDropped(1);
      continue;
    }
    if (message) push(*frame, event);
    else pushTuning(*frame);
  }
}

void MidiInputThread::push(uint64_t frame, const MidiEvent& event) {
  if (live_.midiInput(input_).tryPush(TimedMidi{frame, event})) {
    messages_.fetch_add(1, std::memory_order_relaxed);
  } else {
    live_.countMidiDropped(1);
  }
}

// The sysex the parser just completed: an MTS message's tuning events, all at `frame`.
void MidiInputThread::pushTuning(uint64_t frame) {
  const uint8_t* bytes = nullptr;
  std::size_t size = 0;
  if (!parser_.sysexDone(bytes, size)) return;
  std::array<MidiEvent, mts::kMaxEvents> tuning;
  const int count = mts::decode(bytes, size, 0, tuning.data(), static_cast<int>(tuning.size()));
  for (int i = 0; i < count; ++i) push(frame, tuning[static_cast<std::size_t>(i)]);
}

}  // namespace spindle::io
