#pragma once
// AudioBackend: a connection to a sound server that runs a LiveProcessor in its
// real-time process callback, with ports <name>:out_L, <name>:out_R, <name>:midi_in.
//
//   connect()  open a client and register the ports (not yet processing)
//   start(live)   start processing into `live`
//   lost()     the server went away (polled by the main thread, which then calls
//              disconnect() and retries connect()+start() until the server is back)
//   setConnectionPolicy / connections / setLink   what Spindle connects by itself and
//              what its ports are connected to (Connections.h): a ConnectionKeeper
//              thread runs from start() to disconnect(), and again after a reconnect
//              (the links as they were are restored)
//
// Threads: the main thread calls every method; the backend's own threads call the
// LiveProcessor as its documentation says.
#include <memory>
#include <string>
#include <vector>

#include "io/Connections.h"
#include "io/LiveProcessor.h"

namespace spindle::io {

struct BackendOptions {
  std::string clientName = "spindle";
  // JACK: also ports out_<k>_L/out_<k>_R per part k = 1..16, each part's voices alone;
  // out_L/out_R keep the full mix (LiveProcessor::endCycle with parts).
  bool multiOut = false;
};

class AudioBackend {
 public:
  virtual ~AudioBackend() = default;
  virtual const char* kind() const noexcept = 0;  // "jack", "pipewire"
  [[nodiscard]] virtual bool connect(std::string& error) = 0;
  [[nodiscard]] virtual bool start(LiveProcessor& live, std::string& error) = 0;
  virtual void disconnect() = 0;
  virtual bool lost() const noexcept = 0;
  virtual double sampleRate() const noexcept = 0;
  virtual int periodFrames() const noexcept = 0;

  // Any thread. The policy applies from start() on, and at once when set while running.
  virtual void setConnectionPolicy(ConnectionPolicy policy) = 0;
  virtual ConnectionPolicy connectionPolicy() const = 0;
  virtual ConnectionReport connections() const = 0;
  // One of Spindle's ports connected (on) or disconnected by hand: the user's choice.
  virtual void setLink(const PortLink& link, bool on) = 0;
  // Lines about links made, broken or refused since the last call (the headless log).
  virtual std::vector<std::string> takeConnectionMessages() = 0;
  // The hosts a NetJACK2 master routes (Connections.h, "Hosts"): JACK registers a MIDI
  // output to_NAME for each (never unregistered while the client runs) that forwards
  // every event of midi_in, all channels; PipeWire says it needs JACK. Main thread.
  virtual void setHostRoutes(std::vector<HostRoute> routes) = 0;
};

std::unique_ptr<AudioBackend> makeJackBackend(const BackendOptions& options);
std::unique_ptr<AudioBackend> makePipeWireBackend(const BackendOptions& options);

}  // namespace spindle::io
