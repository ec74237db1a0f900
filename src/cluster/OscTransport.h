#pragma once
// OscTransport: how a RemoteHost's messages leave the master. One method, so that a
// transport which signs each message (the bytes it sends are the signer's, not plain
// OSC) replaces the plain one without anything else changing.
//
//   RemoteHost ──send(path, lo_message)──► OscTransport ──► bytes on the wire
//                                            ├ UdpTransport: the plain OSC packet
//                                            └ (a signing transport: the signer's bytes)
//
// Thread: the caller's; RemoteHost's owner serialises its calls.
#include <lo/lo.h>

#include <string>

#include "control/OscMessage.h"

namespace spindle::cluster {

class OscTransport {
 public:
  virtual ~OscTransport() = default;
  // Sends `message` to `path` on the transport's host; false when it could not leave
  // (no route, socket error). The caller keeps ownership of `message`.
  virtual bool send(const std::string& path, lo_message message) = 0;
};

// Builds the lo_message of `message` (types i, h, f, d, s) and sends it through `transport`.
bool sendOsc(OscTransport& transport, const control::OscMessage& message);

}  // namespace spindle::cluster
