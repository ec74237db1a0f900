#pragma once
// The sound server a run of `spindle` plays through.
//
//   --backend given   that server, tried every 500 ms until it answers or `stopped()`
//   none              a running JACK server, else a running PipeWire; when neither
//                     answers, what is missing and how to start one, instead of waiting
//
// Thread: the main thread.
#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "io/AudioBackend.h"

namespace spindle::app {

// A connected backend (not started), or null: none answered, or a stop came first.
std::unique_ptr<io::AudioBackend> connectToServer(const std::string& backend, const io::BackendOptions& options,
                                                  std::ostream& err, const std::function<bool()>& stopped);

}  // namespace spindle::app
