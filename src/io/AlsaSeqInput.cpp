#include "io/AlsaSeqInput.h"

#include "io/MidiInputThread.h"
#include "io/ProcessTimer.h"

#ifdef SPINDLE_HAVE_ALSA
#include <alsa/asoundlib.h>
#include <poll.h>

#include <vector>
#endif

namespace spindle::io {

#ifdef SPINDLE_HAVE_ALSA

namespace {

snd_seq_t* handle(void* seq) { return static_cast<snd_seq_t*>(seq); }

// A sequencer event as a channel message; false for everything else.
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
void AlsaSeqInput::run() {}
void AlsaSeqInput::drain() {}

#endif

}  // namespace spindle::io
