#pragma once
// OscDispatcher: turns one raw OSC packet (a message or a bundle) into OscMessages,
// through liblo's lo_server_dispatch_data(). The lo_server behind it is bound to no
// network: liblo 0.31 cannot make one without a socket, so it gets a unix datagram
// socket whose file is removed at once (nothing can ever send to it).
//
// Thread: one thread at a time (the control thread).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "control/OscMessage.h"

namespace spindle::control {

class OscDispatcher {
 public:
  using Handler = std::function<void(const OscMessage&)>;

  OscDispatcher() = default;
  ~OscDispatcher();
  OscDispatcher(const OscDispatcher&) = delete;
  OscDispatcher& operator=(const OscDispatcher&) = delete;

  [[nodiscard]] bool create(std::string& error);
  // Calls `handler` for every message in `data` (modified in place); false with
  // `error` when the packet is not valid OSC. Bundle timetags are not scheduled: the
  // messages run at once.
  bool dispatch(uint8_t* data, std::size_t size, const Handler& handler, std::string& error);

 private:
  void* server_ = nullptr;  // lo_server
  const Handler* handler_ = nullptr;  // during dispatch(); liblo's user data points here
};

}  // namespace spindle::control
