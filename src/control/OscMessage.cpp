#include "control/OscMessage.h"

#include <lo/lo.h>

#include <cstdlib>
#include <cstring>
#include <memory>

namespace spindle::control {

bool OscValue::isNumber() const noexcept {
  return type == 'i' || type == 'h' || type == 'f' || type == 'd';
}

std::string OscMessage::typespec() const {
  std::string types;
  for (const OscValue& value : args) types += value.type;
  return types;
}

namespace {

void addValue(lo_message m, const OscValue& v) {
  switch (v.type) {
    case 'i': lo_message_add_int32(m, static_cast<int32_t>(v.integer)); break;
    case 'h': lo_message_add_int64(m, v.integer); break;
    case 'f': lo_message_add_float(m, static_cast<float>(v.real)); break;
    case 'd': lo_message_add_double(m, v.real); break;
    case 'S': lo_message_add_symbol(m, v.text.c_str()); break;
    case 'T': lo_message_add_true(m); break;
    case 'F': lo_message_add_false(m); break;
    case 'N': lo_message_add_nil(m); break;
    default: lo_message_add_string(m, v.text.c_str()); break;
  }
}

// liblo's arguments are only 4-byte aligned (OSC's alignment), so read them by memcpy
// rather than through the lo_arg union, whose 64-bit members need 8.
template <typename T>
T read(const void* a) {
  T v{};
  std::memcpy(&v, a, sizeof v);
  return v;
}

OscValue decodeValue(char type, const void* a) {
  OscValue v;
  v.type = type;
  switch (type) {
    case 'i': v.integer = read<int32_t>(a); break;
    case 'h': v.integer = read<int64_t>(a); break;
    case 'c': v.integer = static_cast<unsigned char>(read<int32_t>(a)); break;
    case 'f': v.real = static_cast<double>(read<float>(a)); break;
    case 'd': v.real = read<double>(a); break;
    case 's': case 'S': v.text = static_cast<const char*>(a); break;
    case 'T': v.integer = 1; break;
    default: break;  // F, N, I carry no data; m, b, t are kept as their type only
  }
  return v;
}

}  // namespace

std::vector<uint8_t> serialise(const OscMessage& message) {
  std::unique_ptr<std::remove_pointer_t<lo_message>, void (*)(lo_message)> m(lo_message_new(), lo_message_free);
  for (const OscValue& v : message.args) addValue(m.get(), v);
  const std::size_t size = lo_message_length(m.get(), message.path.c_str());
  std::vector<uint8_t> bytes(size);
  std::size_t written = size;
  lo_message_serialise(m.get(), message.path.c_str(), bytes.data(), &written);
  bytes.resize(written);
  return bytes;
}

OscMessage decode(const char* path, const char* types, void* const* argv, int argc) {
  OscMessage message;
  message.path = path ? path : "";
  for (int k = 0; k < argc && types && types[k]; ++k)
    message.args.push_back(decodeValue(types[k], argv[k]));
  return message;
}

std::string describe(const OscMessage& message) {
  std::string out = message.path + " " + message.typespec();
  for (const OscValue& v : message.args) {
    out += ' ';
    if (v.isString()) out += '"' + v.text + '"';
    else if (v.type == 'f' || v.type == 'd') out += std::to_string(v.real);
    else out += std::to_string(v.integer);
  }
  return out;
}

}  // namespace spindle::control
