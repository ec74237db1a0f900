#include "session/ServerChoice.h"

namespace spindle::session {

std::unique_ptr<io::AudioBackend> tryServer(const std::string& kind, const io::BackendOptions& options,
                                            std::string& error) {
  if (!kind.empty()) {
    auto backend = kind == "pipewire" ? io::makePipeWireBackend(options) : io::makeJackBackend(options);
    return backend->connect(error) ? std::move(backend) : nullptr;
  }
  std::string jackError, pipewireError;
  std::unique_ptr<io::AudioBackend> backend = io::makeJackBackend(options);
  if (backend->connect(jackError)) return backend;
  backend = io::makePipeWireBackend(options);
  if (backend->connect(pipewireError)) return backend;
  error = "JACK: " + jackError + "; PipeWire: " + pipewireError;
  return nullptr;
}

std::unique_ptr<io::AudioBackend> connectToServer(const std::string& kind, const io::BackendOptions& options,
                                                  const std::function<bool(const std::string& error)>& retry) {
  for (;;) {
    std::string error;
    if (auto backend = tryServer(kind, options, error)) return backend;
    if (!retry(error)) return nullptr;
  }
}

std::string noServerAdvice(const std::string& error) {
  return "no sound server is running (" + error + ").\n"
         "Start one, then run spindle again:\n"
         "  PipeWire (the Debian 12 desktop default): systemctl --user start pipewire pipewire-pulse wireplumber\n"
         "  or JACK: jackd -d alsa -d hw:0 -r 48000 -p 256   (qjackctl does the same from a window)\n"
         "With --backend jack or --backend pipewire, spindle waits for that server instead.\n";
}

}  // namespace spindle::session
