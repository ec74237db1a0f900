#pragma once
// PipeWireConnections: the ConnectionKeeper (ConnectionKeeper.h) of the native PipeWire
// backend. A registry listener on the backend's pw_core mirrors the graph in a
// PipeWireGraph (nodes, ports, links, the "default" metadata's default.audio.sink);
// inventory() reads it, link() asks the link factory for a link or destroys one.
//   playback      the default sink's inputs (PipeWireGraph.h says which sink)
//   hardwareMidi  the MIDI outputs of MIDI bridges and physical ports
//
//   attach(loop, core, filter)  main thread, keeper stopped, after pw_filter_connect:
//                  listens to the registry, and waits (bounded) until the graph is
//                  known and Spindle's own ports are in it, so the first scan sees the
//                  graph whole (a restore marks the MIDI sources present then as decided)
//   detach()       main thread, keeper stopped, before the filter and core go
//
// Threads: registry, metadata and core events run on the pw-loop thread and poke() the
// keeper; inventory() and link() run on the keeper's thread; every use of the mirror
// and of PipeWire holds the thread loop's lock. Nothing here runs on the data thread.
#include <memory>
#include <string>

#include "io/ConnectionKeeper.h"

struct pw_core;
struct pw_filter;
struct pw_thread_loop;

namespace spindle::io {

class PipeWireConnections final : public ConnectionKeeper {
 public:
  PipeWireConnections();
  ~PipeWireConnections() override;

  void attach(pw_thread_loop* loop, pw_core* core, pw_filter* filter);
  void detach();

  struct Registry;  // the PipeWire side (PipeWireConnections.cpp)

 protected:
  PortInventory inventory() override;
  bool link(const PortLink& link, bool on, std::string& error) override;

 private:
  std::unique_ptr<Registry> registry_;
};

}  // namespace spindle::io
