#pragma once
// AudioBackend: a connection to a sound server that runs a LiveProcessor in its
// real-time process callback, with ports <name>:out_L, <name>:out_R, <name>:midi_in.
//
//   connect()  open a client and register the ports (not yet processing)
//   start(live)   start processing into `live`
//   lost()     the server went away (polled by the main thread, which then calls
//              disconnect() and retries connect()+start() until the server is back)
//
// Threads: the main thread calls every method; the backend's own threads call the
// LiveProcessor as its documentation says.
#include <memory>
#include <string>

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
};

std::unique_ptr<AudioBackend> makeJackBackend(const BackendOptions& options);
std::unique_ptr<AudioBackend> makePipeWireBackend(const BackendOptions& options);

}  // namespace spindle::io
