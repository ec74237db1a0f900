#pragma once
// A small JSON writer for --json output: objects, arrays, strings, numbers, booleans.
//
//   JsonWriter json(out);
//   json.beginObject(); json.key("status"); json.value("PASS"); json.endObject();
//
// It indents two spaces per level and escapes strings; it does not check that calls pair up.
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace spindle::tools {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}
  ~JsonWriter();  // ends the last line

  void beginObject() { open('{'); }
  void endObject() { close('}'); }
  void beginArray() { open('['); }
  void endArray() { close(']'); }
  void key(std::string_view name);
  void value(std::string_view text);
  void value(const char* text) { value(std::string_view(text)); }
  void value(double number);
  void value(long long number);
  void value(int number) { value(static_cast<long long>(number)); }
  void value(bool flag);
  // key + value in one call.
  template <typename T>
  void field(std::string_view name, const T& v) {
    key(name);
    value(v);
  }

 private:
  void open(char bracket);
  void close(char bracket);
  void separate();  // comma and newline before an element, unless after a key
  void newline();

  std::ostream& out_;
  std::vector<bool> hasElements_;  // per open level
  bool afterKey_ = false;
};

std::string jsonEscape(std::string_view text);

}  // namespace spindle::tools
