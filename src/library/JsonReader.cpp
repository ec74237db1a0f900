#include "library/JsonReader.h"

#include <cctype>
#include <cstdlib>

namespace spindle::library::detail {

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  bool value(JsonValue& out, int depth) {
    skip();
    if (depth > 32 || at_ >= s_.size()) return false;
    const char c = s_[at_];
    if (c == '{') return object(out, depth);
    if (c == '[') return array(out, depth);
    if (c == '"') {
      out.kind = JsonValue::Kind::String;
      return string(out.text);
    }
    if (word("null")) return true;
    out.kind = JsonValue::Kind::Bool;
    if (word("true")) return out.flag = true;
    if (word("false")) return true;
    return number(out);
  }
  bool atEnd() {
    skip();
    return at_ == s_.size();
  }

 private:
  void skip() {
    while (at_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[at_]))) ++at_;
  }
  bool eat(char c) {
    skip();
    if (at_ < s_.size() && s_[at_] == c) return ++at_, true;
    return false;
  }
  bool word(std::string_view w) {
    if (s_.substr(at_, w.size()) != w) return false;
    at_ += w.size();
    return true;
  }
  bool number(JsonValue& out) {
    const std::string rest(s_.substr(at_, 40));
    char* end = nullptr;
    out.number = std::strtod(rest.c_str(), &end);
    if (end == rest.c_str()) return false;
    at_ += static_cast<std::size_t>(end - rest.c_str());
    out.kind = JsonValue::Kind::Number;
    return true;
  }
  bool escape(std::string& out) {
    if (at_ >= s_.size()) return false;
    const char c = s_[at_++];
    switch (c) {
      case 'n': out += '\n'; return true;
      case 't': out += '\t'; return true;
      case 'r': out += '\r'; return true;
      case 'b': out += '\b'; return true;
      case 'f': out += '\f'; return true;
      case 'u': {
        if (at_ + 4 > s_.size()) return false;
        const long code = std::strtol(std::string(s_.substr(at_, 4)).c_str(), nullptr, 16);
        at_ += 4;
        if (code >= 0x80) return false;  // the index writes only control characters so
        out += static_cast<char>(code);
        return true;
      }
      default: out += c; return true;
    }
  }
  bool string(std::string& out) {
    ++at_;  // the opening quote
    while (at_ < s_.size()) {
      const char c = s_[at_++];
      if (c == '"') return true;
      if (c != '\\') out += c;
      else if (!escape(out)) return false;
    }
    return false;
  }
  bool array(JsonValue& out, int depth) {
    ++at_;
    out.kind = JsonValue::Kind::Array;
    if (eat(']')) return true;
    do {
      out.items.emplace_back();
      if (!value(out.items.back(), depth + 1)) return false;
    } while (eat(','));
    return eat(']');
  }
  bool object(JsonValue& out, int depth) {
    ++at_;
    out.kind = JsonValue::Kind::Object;
    if (eat('}')) return true;
    do {
      std::string key;
      skip();
      if (at_ >= s_.size() || s_[at_] != '"' || !string(key) || !eat(':')) return false;
      if (!value(out.members[key], depth + 1)) return false;
    } while (eat(','));
    return eat('}');
  }

  std::string_view s_;
  std::size_t at_ = 0;
};

}  // namespace

const JsonValue& JsonValue::operator[](const std::string& name) const {
  static const JsonValue none;
  const auto it = members.find(name);
  return it == members.end() ? none : it->second;
}

std::optional<JsonValue> parseJson(std::string_view text) {
  Parser parser(text);
  JsonValue value;
  if (!parser.value(value, 0) || !parser.atEnd()) return std::nullopt;
  return value;
}

}  // namespace spindle::library::detail
