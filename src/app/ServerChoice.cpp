#include "app/ServerChoice.h"

#include <chrono>
#include <thread>

namespace spindle::app {

namespace {

constexpr auto kRetry = std::chrono::milliseconds(500);

std::unique_ptr<io::AudioBackend> waitForServer(std::unique_ptr<io::AudioBackend> backend, std::ostream& err,
                                                const std::function<bool()>& stopped) {
  std::string error;
  bool reported = false;
  while (!stopped()) {
    if (backend->connect(error)) return backend;
    if (!reported) err << "spindle: " << error << "; waiting for the server (Ctrl-C to quit)\n";
    reported = true;
    std::this_thread::sleep_for(kRetry);
  }
  return nullptr;
}

std::unique_ptr<io::AudioBackend> runningServer(const io::BackendOptions& options, std::ostream& err) {
  std::string jackError, pipewireError;
  std::unique_ptr<io::AudioBackend> backend = io::makeJackBackend(options);
  if (backend->connect(jackError)) return backend;
  backend = io::makePipeWireBackend(options);
  if (backend->connect(pipewireError)) return backend;
  err << "spindle: no sound server is running (JACK: " << jackError << "; PipeWire: " << pipewireError << ").\n"
      << "Start one, then run spindle again:\n"
      << "  PipeWire (the Debian 12 desktop default): systemctl --user start pipewire pipewire-pulse wireplumber\n"
      << "  or JACK: jackd -d alsa -d hw:0 -r 48000 -p 256   (qjackctl does the same from a window)\n"
      << "With --backend jack or --backend pipewire, spindle waits for that server instead.\n";
  return nullptr;
}

}  // namespace

std::unique_ptr<io::AudioBackend> connectToServer(const std::string& backend, const io::BackendOptions& options,
                                                  std::ostream& err, const std::function<bool()>& stopped) {
  if (backend.empty()) return runningServer(options, err);
  return waitForServer(backend == "pipewire" ? io::makePipeWireBackend(options) : io::makeJackBackend(options), err,
                       stopped);
}

}  // namespace spindle::app
