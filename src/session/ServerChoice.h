#pragma once
// The sound server a running Spindle plays through: the one choice, for the headless
// run and the window alike (each door only says how to wait: sleep and retry, or ask).
//
//   kind "jack" or "pipewire"   that server
//   kind empty                  a running JACK server, else a running PipeWire
//
// Thread: the main thread (the gui thread with the window).
#include <functional>
#include <memory>
#include <string>

#include "io/AudioBackend.h"

namespace spindle::session {

// One attempt: a connected backend (not started), or null with `error` saying why
// ("JACK: ...; PipeWire: ..." when neither answered the automatic choice).
std::unique_ptr<io::AudioBackend> tryServer(const std::string& kind, const io::BackendOptions& options,
                                            std::string& error);

// Tries until the server answers, each time `retry(error)` says to try again (it may
// wait first, or ask the user); null once it says to give up.
std::unique_ptr<io::AudioBackend> connectToServer(const std::string& kind, const io::BackendOptions& options,
                                                  const std::function<bool(const std::string& error)>& retry);

// What to tell a user when the automatic choice found no server (`error`: tryServer's),
// and how to start one; several lines, the first without a prefix.
std::string noServerAdvice(const std::string& error);

}  // namespace spindle::session
