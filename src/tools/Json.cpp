#include "tools/Json.h"

#include <cmath>
#include <cstdio>

namespace spindle::tools {

std::string jsonEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  return out;
}

JsonWriter::~JsonWriter() { out_ << '\n'; }

void JsonWriter::newline() {
  out_ << '\n' << std::string(2 * hasElements_.size(), ' ');
}

void JsonWriter::separate() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (hasElements_.empty()) return;
  if (hasElements_.back()) out_ << ',';
  hasElements_.back() = true;
  newline();
}

void JsonWriter::open(char bracket) {
  separate();
  out_ << bracket;
  hasElements_.push_back(false);
}

void JsonWriter::close(char bracket) {
  const bool had = !hasElements_.empty() && hasElements_.back();
  if (!hasElements_.empty()) hasElements_.pop_back();
  if (had) newline();
  out_ << bracket;
}

void JsonWriter::key(std::string_view name) {
  separate();
  out_ << '"' << jsonEscape(name) << "\": ";
  afterKey_ = true;
}

void JsonWriter::value(std::string_view text) {
  separate();
  out_ << '"' << jsonEscape(text) << '"';
}

void JsonWriter::value(double number) {
  separate();
  if (!std::isfinite(number)) {
    out_ << "null";
    return;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", number);
  out_ << buffer;
}

void JsonWriter::value(long long number) {
  separate();
  out_ << number;
}

void JsonWriter::value(bool flag) {
  separate();
  out_ << (flag ? "true" : "false");
}

}  // namespace spindle::tools
