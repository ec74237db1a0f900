// An ALSA sequencer for hosts that need one where the kernel has none (no /dev/snd/seq:
// a kernel built without sound, as in the CI's virtual machines). Preloaded into Qtractor
// (LD_PRELOAD), whose audio/MIDI engine does not start without a sequencer client.
//
// It is an empty sequencer: one client (the host), its ports and one queue, no other
// clients to connect to, events written to it go nowhere and none ever arrive. The queue
// keeps time as the kernel's does (tick from the wall clock, tempo, ppq and skew), so the
// host's queue-position reads stay sane. What the live test measures never passes here:
// Qtractor gives a MIDI clip's events to the track's plugins itself, timed in audio
// frames (qtractorMidiEngine::enqueue -> qtractorMidiManager), in its JACK process call.
//
// Every other snd_seq_* and snd_midi_* function Qtractor calls (the info structs'
// accessors, the MIDI byte coders) is alsa-lib's own: they never touch the handle.
#include <alsa/asoundlib.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>

namespace {

// The kernel's struct snd_seq_queue_status and snd_seq_queue_tempo (uapi
// sound/asequencer.h), which alsa-lib's snd_seq_queue_*_t are and whose getters read them.
struct KernelQueueStatus {
  int queue;
  int events;
  unsigned int tick;
  unsigned int sec, nsec;
  int running;
  int flags;
  char reserved[64];
};
struct KernelQueueTempo {
  int queue;
  unsigned int tempo;  // microseconds per quarter note
  int ppq;
  unsigned int skewValue;
  unsigned int skewBase;
  char reserved[24];
};

static_assert(sizeof(KernelQueueStatus) == 92 && sizeof(KernelQueueTempo) == 44, "the kernel's sizes");

constexpr int kClientId = 128;  // the first user client's number in the kernel
constexpr unsigned int kSkewBase = 0x10000;

using Clock = std::chrono::steady_clock;

}  // namespace

// The handle: alsa-lib's own struct _snd_seq is internal to it and never built here,
// since every function that takes a handle is this file's.
struct _snd_seq {
  std::mutex mutex;
  int wakeRead = -1, wakeWrite = -1;  // a pipe nothing writes: input never arrives
  int nextPort = 0;
  bool queueAllocated = false;
  KernelQueueTempo tempo{0, 500000, 96, kSkewBase, kSkewBase, {}};
  bool running = false;
  double tickAtStart = 0.0;  // the queue's tick when it last started or was set
  Clock::time_point started{};
};

namespace {

// The queue's position: ticks since it started, at its tempo, ppq and skew.
double queueTick(const snd_seq_t& seq) {
  if (!seq.running) return seq.tickAtStart;
  const double seconds = std::chrono::duration<double>(Clock::now() - seq.started).count();
  const double skew = static_cast<double>(seq.tempo.skewValue) / static_cast<double>(seq.tempo.skewBase);
  return seq.tickAtStart + seconds * 1e6 / seq.tempo.tempo * seq.tempo.ppq * skew;
}

void setRunning(snd_seq_t& seq, bool running) {
  seq.tickAtStart = queueTick(seq);
  seq.running = running;
  seq.started = Clock::now();
}

}  // namespace

extern "C" {

int snd_seq_open(snd_seq_t** handle, const char*, int, int) {
  auto* seq = new _snd_seq;
  int fds[2];
  if (pipe(fds) != 0) {
    delete seq;
    return -errno;
  }
  seq->wakeRead = fds[0];
  seq->wakeWrite = fds[1];
  *handle = seq;
  return 0;
}

int snd_seq_close(snd_seq_t* seq) {
  close(seq->wakeRead);
  close(seq->wakeWrite);
  delete seq;
  return 0;
}

int snd_seq_client_id(snd_seq_t*) { return kClientId; }
int snd_seq_set_client_name(snd_seq_t*, const char*) { return 0; }

int snd_seq_alloc_queue(snd_seq_t* seq) {
  const std::lock_guard<std::mutex> lock(seq->mutex);
  if (seq->queueAllocated) return -EBUSY;  // one queue is all the host asks for
  seq->queueAllocated = true;
  return 0;
}

int snd_seq_free_queue(snd_seq_t* seq, int) {
  const std::lock_guard<std::mutex> lock(seq->mutex);
  seq->queueAllocated = false;
  seq->running = false;
  return 0;
}

int snd_seq_create_simple_port(snd_seq_t* seq, const char*, unsigned int, unsigned int) {
  const std::lock_guard<std::mutex> lock(seq->mutex);
  return seq->nextPort++;
}

int snd_seq_delete_simple_port(snd_seq_t*, int) { return 0; }

int snd_seq_get_port_info(snd_seq_t*, int port, snd_seq_port_info_t* info) {
  std::memset(info, 0, snd_seq_port_info_sizeof());
  snd_seq_port_info_set_client(info, kClientId);
  snd_seq_port_info_set_port(info, port);
  return 0;
}

int snd_seq_set_port_info(snd_seq_t*, int, snd_seq_port_info_t*) { return 0; }

// No other clients: the host's own is the only one, and lists of clients, ports and
// subscribers are empty.
int snd_seq_get_any_client_info(snd_seq_t*, int client, snd_seq_client_info_t* info) {
  if (client != kClientId) return -ENOENT;
  std::memset(info, 0, snd_seq_client_info_sizeof());
  snd_seq_client_info_set_client(info, kClientId);
  return 0;
}
int snd_seq_get_any_port_info(snd_seq_t*, int, int, snd_seq_port_info_t*) { return -ENOENT; }
int snd_seq_query_next_client(snd_seq_t*, snd_seq_client_info_t*) { return -ENOENT; }
int snd_seq_query_next_port(snd_seq_t*, snd_seq_port_info_t*) { return -ENOENT; }
int snd_seq_query_port_subscribers(snd_seq_t*, snd_seq_query_subscribe_t*) { return -ENOENT; }
int snd_seq_subscribe_port(snd_seq_t*, snd_seq_port_subscribe_t*) { return -ENOENT; }
int snd_seq_unsubscribe_port(snd_seq_t*, snd_seq_port_subscribe_t*) { return -ENOENT; }

// Output goes nowhere (no client is subscribed to the host's ports); input never comes.
int snd_seq_event_output(snd_seq_t*, snd_seq_event_t*) { return 0; }
int snd_seq_event_output_direct(snd_seq_t*, snd_seq_event_t*) { return 0; }
int snd_seq_drain_output(snd_seq_t*) { return 0; }
int snd_seq_drop_output(snd_seq_t*) { return 0; }
int snd_seq_drop_input(snd_seq_t*) { return 0; }
int snd_seq_remove_events(snd_seq_t*, snd_seq_remove_events_t*) { return 0; }
int snd_seq_event_input(snd_seq_t*, snd_seq_event_t**) { return -EAGAIN; }
int snd_seq_event_input_pending(snd_seq_t*, int) { return 0; }

int snd_seq_poll_descriptors_count(snd_seq_t*, short) { return 1; }
int snd_seq_poll_descriptors(snd_seq_t* seq, struct pollfd* fds, unsigned int space, short events) {
  if (space < 1) return 0;
  fds[0].fd = seq->wakeRead;
  fds[0].events = static_cast<short>(events & POLLIN);
  fds[0].revents = 0;
  return 1;
}

int snd_seq_set_queue_timer(snd_seq_t*, int, snd_seq_queue_timer_t*) { return 0; }

int snd_seq_get_queue_tempo(snd_seq_t* seq, int queue, snd_seq_queue_tempo_t* tempo) {
  const std::lock_guard<std::mutex> lock(seq->mutex);
  std::memset(tempo, 0, snd_seq_queue_tempo_sizeof());
  KernelQueueTempo value = seq->tempo;
  value.queue = queue;
  std::memcpy(tempo, &value, sizeof value);
  return 0;
}

int snd_seq_set_queue_tempo(snd_seq_t* seq, int, snd_seq_queue_tempo_t* tempo) {
  const std::lock_guard<std::mutex> lock(seq->mutex);
  KernelQueueTempo value;
  std::memcpy(&value, tempo, sizeof value);
  if (value.tempo == 0 || value.ppq <= 0) return -EINVAL;
  setRunning(*seq, seq->running);  // the tick so far was counted at the old tempo
  if (value.skewBase == 0) value.skewBase = kSkewBase;
  if (value.skewValue == 0) value.skewValue = value.skewBase;
  seq->tempo = value;
  return 0;
}

int snd_seq_control_queue(snd_seq_t* seq, int, int type, int, snd_seq_event_t* ev) {
  const std::lock_guard<std::mutex> lock(seq->mutex);
  switch (type) {
    case SND_SEQ_EVENT_START:
      seq->tickAtStart = 0.0;
      seq->running = false;
      setRunning(*seq, true);
      break;
    case SND_SEQ_EVENT_CONTINUE: setRunning(*seq, true); break;
    case SND_SEQ_EVENT_STOP: setRunning(*seq, false); break;
    case SND_SEQ_EVENT_SETPOS_TICK:
      if (ev) {
        seq->tickAtStart = ev->data.queue.param.time.tick;
        seq->started = Clock::now();
      }
      break;
    default: break;
  }
  return 0;
}

int snd_seq_get_queue_status(snd_seq_t* seq, int queue, snd_seq_queue_status_t* status) {
  const std::lock_guard<std::mutex> lock(seq->mutex);
  std::memset(status, 0, snd_seq_queue_status_sizeof());
  KernelQueueStatus value{};
  value.queue = queue;
  value.tick = static_cast<unsigned int>(queueTick(*seq));
  value.running = seq->running ? 1 : 0;
  std::memcpy(status, &value, sizeof value);
  return 0;
}

}  // extern "C"
