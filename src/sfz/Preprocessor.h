#pragma once
// Turns SFZ text into a stream of header and opcode tokens: strips comments, runs
// #define / #include (paths relative to the top-level file's folder, as in ARIA and
// sfizz), expands $NAME, and splits "name=value" pairs whose values may hold spaces.
// Knows nothing about what the opcodes mean (that is the Parser's job).
//
// Value rule: a value runs until the next header '<', the next "name=" preceded by
// whitespace, a #define / #include, or the end of the line; it is then trimmed.
// $NAME expands to the longest defined name that prefixes the text after '$'
// ($POS_01 with $POS defined gives "<value>_01"); defines apply from where they are
// written on, across included files.
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "instrument/Reporter.h"

namespace spindle::sfz {

struct Token {
  // Stray: text that is neither a header nor "name=value" (the Parser decides whether
  // it matters: inside <sample> it is embedded data).
  enum class Kind { Header, Opcode, Stray };
  Kind kind;
  std::string name;   // header name without brackets, opcode name (expanded), or the stray text
  std::string value;  // opcode value, expanded and trimmed; empty for headers
  const std::string* file;  // lives as long as the Preprocessor
  int line;
};

class Preprocessor {
 public:
  using Sink = std::function<void(const Token&)>;
  Preprocessor(instrument::Reporter& reporter, Sink sink) : reporter_(reporter), sink_(std::move(sink)) {}

  // False when the file cannot be read (an error is reported).
  bool runFile(const std::filesystem::path& file);
  void runText(std::string_view text, const std::filesystem::path& file);

 private:
  struct Place {
    const std::string* file;
    int line;
  };
  void runLines(std::string_view text, const std::string& file);
  void scanLine(std::string_view line, Place place);
  size_t scanHeader(std::string_view line, size_t pos, Place place);
  size_t scanOpcode(std::string_view line, size_t pos, Place place);
  size_t scanDirective(std::string_view line, size_t pos, Place place);
  size_t scanDefine(std::string_view line, size_t pos, Place place);
  size_t scanInclude(std::string_view line, size_t pos, Place place);
  void include(std::string_view written, Place place);
  std::optional<std::filesystem::path> resolveInclude(std::string_view written, Place place);
  std::string expand(std::string_view text, Place place);
  const std::string& internFile(const std::filesystem::path& file);

  instrument::Reporter& reporter_;
  Sink sink_;
  std::unordered_map<std::string, std::string> defines_;
  std::vector<std::filesystem::path> openFiles_;  // the #include chain, for loop detection
  std::vector<std::unique_ptr<std::string>> fileNames_;
  size_t includesRead_ = 0;  // files #included so far (bounded: kMaxIncludesPerLoad)
};

}  // namespace spindle::sfz
