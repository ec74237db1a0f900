#pragma once
// A small JSON reader for the index's own documents (EntryJson.h): objects, arrays,
// strings (\uXXXX below 0x80 and the usual escapes), numbers, true/false/null. Private
// to src/library. Thread: any.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spindle::library::detail {

struct JsonValue {
  enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  bool flag = false;
  double number = 0.0;
  std::string text;
  std::vector<JsonValue> items;
  std::map<std::string, JsonValue> members;

  // The member `name` of an object; null when there is none.
  const JsonValue& operator[](const std::string& name) const;
};

// The value `text` holds; nothing when it is not one JSON document.
std::optional<JsonValue> parseJson(std::string_view text);

}  // namespace spindle::library::detail
