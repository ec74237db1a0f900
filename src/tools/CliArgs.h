#pragma once
// Command-line helpers shared by the three tools.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace spindle::tools {

// Walks argv: options as "--name value" or "--name=value", flags as "--name".
class ArgCursor {
 public:
  explicit ArgCursor(const std::vector<std::string>& args) : args_(args) {}

  bool done() const { return index_ >= args_.size(); }
  const std::string& current() const { return args_[index_]; }
  void next() { ++index_; }
  // True (and advances) when the current argument is one of the names.
  bool flag(const std::string& longName, const std::string& shortName = "");
  // The value of an option named here; sets `missing` when the value is absent.
  std::optional<std::string> option(const std::string& longName, const std::string& shortName, bool& missing);

 private:
  const std::vector<std::string>& args_;
  size_t index_ = 0;
};

// Whole-string integer / number parsing; false on junk or out of [min, max].
bool parseInt(const std::string& text, long long min, long long max, long long& out);
bool parseNumber(const std::string& text, double min, double max, double& out);

void printVersion(std::ostream& out, const char* tool);

}  // namespace spindle::tools
