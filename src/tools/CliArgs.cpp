#include "tools/CliArgs.h"

#include <cerrno>
#include <cstdlib>

#include "spindle/Version.h"

namespace spindle::tools {

bool ArgCursor::flag(const std::string& longName, const std::string& shortName) {
  if (done()) return false;
  if (current() != longName && (shortName.empty() || current() != shortName)) return false;
  next();
  return true;
}

std::optional<std::string> ArgCursor::option(const std::string& longName, const std::string& shortName,
                                             bool& missing) {
  if (done()) return std::nullopt;
  const std::string& arg = current();
  if (arg.rfind(longName + "=", 0) == 0) {
    next();
    return args_[index_ - 1].substr(longName.size() + 1);
  }
  if (arg != longName && (shortName.empty() || arg != shortName)) return std::nullopt;
  if (index_ + 1 >= args_.size()) {  // stays on the option, for the error message
    missing = true;
    return std::nullopt;
  }
  index_ += 2;
  return args_[index_ - 1];
}

bool parseInt(const std::string& text, long long min, long long max, long long& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || value < min || value > max) return false;
  out = value;
  return true;
}

bool parseNumber(const std::string& text, double min, double max, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !(value >= min && value <= max)) return false;
  out = value;
  return true;
}

void printVersion(std::ostream& out, const char* tool) { out << tool << " (Spindle) " << kVersion << '\n'; }

}  // namespace spindle::tools
