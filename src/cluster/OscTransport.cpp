#include "cluster/OscTransport.h"

#include <memory>
#include <type_traits>

namespace spindle::cluster {

bool sendOsc(OscTransport& transport, const control::OscMessage& message) {
  std::unique_ptr<std::remove_pointer_t<lo_message>, void (*)(lo_message)> m(lo_message_new(), lo_message_free);
  for (const control::OscValue& v : message.args) {
    switch (v.type) {
      case 'i': lo_message_add_int32(m.get(), static_cast<int32_t>(v.integer)); break;
      case 'h': lo_message_add_int64(m.get(), v.integer); break;
      case 'f': lo_message_add_float(m.get(), static_cast<float>(v.real)); break;
      case 'd': lo_message_add_double(m.get(), v.real); break;
      default: lo_message_add_string(m.get(), v.text.c_str()); break;
    }
  }
  return transport.send(message.path, m.get());
}

}  // namespace spindle::cluster
