#pragma once
// A transport that keeps what a RemoteHost sends, decoded, instead of sending it.
#include <string>
#include <vector>

#include "cluster/OscTransport.h"

namespace spindle::test {

class RecordingTransport final : public cluster::OscTransport {
 public:
  bool send(const std::string& path, lo_message message) override {
    const char* types = lo_message_get_types(message);
    sent.push_back(control::decode(path.c_str(), types, reinterpret_cast<void* const*>(lo_message_get_argv(message)),
                                   lo_message_get_argc(message)));
    return true;
  }
  // What was sent since the last take(), as describe() prints it.
  std::vector<std::string> take() {
    std::vector<std::string> out;
    for (const control::OscMessage& m : sent) out.push_back(control::describe(m));
    sent.clear();
    return out;
  }
  std::vector<control::OscMessage> sent;
};

}  // namespace spindle::test
