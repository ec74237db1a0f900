#pragma once
// OscMessage: one OSC message as plain values, and its wire form. The only place that
// turns liblo's argument arrays into values and values into bytes (via liblo).
//
// Thread: any; no shared state.
#include <cstdint>
#include <string>
#include <vector>

namespace spindle::control {

struct OscValue {
  char type = 'i';       // OSC type tag: i h f d s S T F N c m ...
  int64_t integer = 0;   // i, h, c, T (1), F (0)
  double real = 0.0;     // f, d
  std::string text;      // s, S

  static OscValue i(int64_t v) { return OscValue{'i', v, 0.0, {}}; }
  static OscValue h(int64_t v) { return OscValue{'h', v, 0.0, {}}; }
  static OscValue f(double v) { return OscValue{'f', 0, v, {}}; }
  static OscValue s(std::string v) { return OscValue{'s', 0, 0.0, std::move(v)}; }
  bool isNumber() const noexcept;
  bool isInteger() const noexcept { return type == 'i' || type == 'h'; }
  bool isString() const noexcept { return type == 's' || type == 'S'; }
  double number() const noexcept { return isInteger() ? static_cast<double>(integer) : real; }
};

struct OscMessage {
  std::string path;
  std::vector<OscValue> args;

  std::string typespec() const;
};

// The OSC 1.0 packet of `message` (what one UDP datagram carries).
std::vector<uint8_t> serialise(const OscMessage& message);
// Decodes what liblo hands a method handler (`argv` as liblo's lo_arg**).
OscMessage decode(const char* path, const char* types, void* const* argv, int argc);
// For logs and tests: "/path ifs 1 2.5 "text"".
std::string describe(const OscMessage& message);

}  // namespace spindle::control
