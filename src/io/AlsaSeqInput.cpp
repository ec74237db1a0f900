#include "io/AlsaSeqInput.h"

#include "io/MidiInputThread.h"
#include "io/ProcessTimer.h"

#ifdef SPINDLE_HAVE_ALSA
#include <alsa/asoundlib.h>
#include <poll.h>

#include <vector>
#endif

namespace spindle::io {

bool followsAlsaPort(const AlsaPortInfo& port, int ownClient, const std::vector<std::string>& midiFrom) {
  if (port.client == 0 || port.client == ownClient || !port.hardware || !port.readable || !port.exported) return false;
  if (midiFrom.empty()) return true;
  for (const std::string& text : midiFrom)
    if (port.name.find(text) != std::string::npos) return true;
  return false;
}

#ifdef SPINDLE_HAVE_ALSA

namespace {

snd_seq_t* handle(void* seq) { return static_cast<snd_seq_t*>(seq); }

AlsaPortInfo describe(snd_seq_t* seq, const snd_seq_port_info_t* info) {
  AlsaPortInfo port;
  port.client = snd_seq_port_info_get_client(info);
  const unsigned type = snd_seq_port_info_get_type(info), caps = snd_seq_port_info_get_capability(info);
  port.hardware = (type & SND_SEQ_PORT_TYPE_HARDWARE) != 0;
  port.readable = (caps & (SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ)) ==
                  (SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ);
  port.exported = (caps & SND_SEQ_PORT_CAP_NO_EXPORT) == 0;
  snd_seq_client_info_t* client = nullptr;
  snd_seq_client_info_alloca(&client);
  const bool named = snd_seq_get_any_client_info(seq, port.client, client) >= 0;
  port.name = std::string(named ? snd_seq_client_info_get_name(client) : "?") + ":" + snd_seq_port_info_get_name(info);
  return port;
}

// A sequencer event as a channel message or a MIDI clock message; false for everything else.
bool toMidi(const snd_seq_event_t& ev, MidiEvent& out) {
  const auto ch = static_cast<uint8_t>(ev.data.control.channel & 0x0F);
  switch (ev.type) {
    case SND_SEQ_EVENT_NOTEON:
      out = {0, static_cast<uint8_t>(0x90 | ch), ev.data.note.note, ev.data.note.velocity};
      return true;
    case SND_SEQ_EVENT_NOTEOFF:
      out = {0, static_cast<uint8_t>(0x80 | ch), ev.data.note.note, ev.data.note.velocity};
      return true;
    case SND_SEQ_EVENT_KEYPRESS:
      out = {0, static_cast<uint8_t>(0xA0 | ch), ev.data.note.note, ev.data.note.velocity};
      return true;
    case SND_SEQ_EVENT_CONTROLLER:
      out = {0, static_cast<uint8_t>(0xB0 | ch), static_cast<uint8_t>(ev.data.control.param & 0x7F),
             static_cast<uint8_t>(ev.data.control.value & 0x7F)};
      return true;
    case SND_SEQ_EVENT_PGMCHANGE:
      out = {0, static_cast<uint8_t>(0xC0 | ch), static_cast<uint8_t>(ev.data.control.value & 0x7F), 0};
      return true;
    case SND_SEQ_EVENT_CHANPRESS:
      out = {0, static_cast<uint8_t>(0xD0 | ch), static_cast<uint8_t>(ev.data.control.value & 0x7F), 0};
      return true;
    case SND_SEQ_EVENT_PITCHBEND: {
      const int v = ev.data.control.value + 8192;
      out = {0, static_cast<uint8_t>(0xE0 | ch), static_cast<uint8_t>(v & 0x7F), static_cast<uint8_t>((v >> 7) & 0x7F)};
      return true;
    }
    case SND_SEQ_EVENT_CLOCK: out = {0, midi::kClock, 0, 0}; return true;
    case SND_SEQ_EVENT_START: out = {0, midi::kStart, 0, 0}; return true;
    case SND_SEQ_EVENT_CONTINUE: out = {0, midi::kContinue, 0, 0}; return true;
    case SND_SEQ_EVENT_STOP: out = {0, midi::kStop, 0, 0}; return true;
    default: return false;
  }
}

}  // namespace

bool AlsaSeqInput::available() noexcept { return true; }

bool AlsaSeqInput::start(const std::string& clientName, std::string& error) {
  snd_seq_t* seq = nullptr;
  int rc = snd_seq_open(&seq, "default", SND_SEQ_OPEN_INPUT, SND_SEQ_NONBLOCK);
  if (rc < 0) {
    error = std::string("ALSA sequencer unavailable (") + snd_strerror(rc) + "): is the snd-seq module loaded?";
    return false;
  }
  snd_seq_set_client_name(seq, clientName.c_str());
  rc = snd_seq_create_simple_port(seq, "midi_in", SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE,
                                  SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION);
  if (rc < 0) {
    error = std::string("cannot create the ALSA sequencer port: ") + snd_strerror(rc);
    snd_seq_close(seq);
    return false;
  }
  seq_ = seq;
  port_ = rc;
  // System:Announce tells of ports that come and go (hot-plug).
  snd_seq_connect_from(seq, port_, SND_SEQ_CLIENT_SYSTEM, SND_SEQ_PORT_SYSTEM_ANNOUNCE);
  if (follow_) followHardware();
  stopping_.store(false);
  thread_ = std::thread([this] { run(); });
  pthread_setname_np(thread_.native_handle(), "midi");
  return true;
}

void AlsaSeqInput::stop() {
  stopping_.store(true);
  if (thread_.joinable()) thread_.join();
  if (seq_) snd_seq_close(handle(seq_));
  seq_ = nullptr;
}

void AlsaSeqInput::followHardware() {
  snd_seq_client_info_t* client = nullptr;
  snd_seq_port_info_t* port = nullptr;
  snd_seq_client_info_alloca(&client);
  snd_seq_port_info_alloca(&port);
  snd_seq_client_info_set_client(client, -1);
  while (snd_seq_query_next_client(handle(seq_), client) >= 0) {
    snd_seq_port_info_set_client(port, snd_seq_client_info_get_client(client));
    snd_seq_port_info_set_port(port, -1);
    while (snd_seq_query_next_port(handle(seq_), port) >= 0)
      portStarted(snd_seq_port_info_get_client(port), snd_seq_port_info_get_port(port));
  }
}

void AlsaSeqInput::portStarted(int client, int port) {
  snd_seq_port_info_t* info = nullptr;
  snd_seq_port_info_alloca(&info);
  if (snd_seq_get_any_port_info(handle(seq_), client, port, info) < 0) return;
  if (followsAlsaPort(describe(handle(seq_), info), snd_seq_client_id(handle(seq_)), midiFrom_))
    snd_seq_connect_from(handle(seq_), port_, client, port);
}

void AlsaSeqInput::run() {
  MidiPriorityFollower priority(live_);
  std::vector<pollfd> fds(static_cast<std::size_t>(snd_seq_poll_descriptors_count(handle(seq_), POLLIN)));
  snd_seq_poll_descriptors(handle(seq_), fds.data(), static_cast<unsigned>(fds.size()), POLLIN);
  while (!stopping_.load(std::memory_order_relaxed)) {
    priority.update();
    if (::poll(fds.data(), fds.size(), 50) > 0) drain();
  }
}

void AlsaSeqInput::drain() {
  const auto frame = live_.clock().frameAt(monotonicNs());
  snd_seq_event_t* ev = nullptr;
  while (snd_seq_event_input(handle(seq_), &ev) >= 0 && ev) {
    if (ev->type == SND_SEQ_EVENT_PORT_START && follow_) portStarted(ev->data.addr.client, ev->data.addr.port);
    MidiEvent event;
    if (!toMidi(*ev, event)) continue;
    if (!frame || !live_.midiInput(input_).tryPush(TimedMidi{*frame, event})) live_.countMidiDropped(1);
  }
}

#else  // built without ALSA

bool AlsaSeqInput::available() noexcept { return false; }
bool AlsaSeqInput::start(const std::string&, std::string& error) {
  error = "this Spindle was built without ALSA sequencer support (install libasound2-dev and rebuild)";
  return false;
}
void AlsaSeqInput::stop() {
  (void)live_;  // used only with ALSA
  (void)input_;
  (void)seq_;
}
void AlsaSeqInput::followHardware() {}
void AlsaSeqInput::portStarted(int, int) {}

void AlsaSeqInput::run() {}
void AlsaSeqInput::drain() {}

#endif

}  // namespace spindle::io
