#pragma once
// Collects a loader's diagnostics into Instrument::diagnostics (loader thread only).
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "instrument/Diagnostic.h"

namespace spindle::instrument {

class Reporter {
 public:
  explicit Reporter(std::vector<Diagnostic>& out) : out_(out) {}

  void warning(const std::string& file, int line, std::string message) {
    out_.push_back({Diagnostic::Severity::Warning, file, line, std::move(message)});
  }
  void error(const std::string& file, int line, std::string message) {
    out_.push_back({Diagnostic::Severity::Error, file, line, std::move(message)});
  }
  // True the first time `key` is seen: for messages given once per name.
  bool firstTime(std::string_view key) { return seen_.emplace(key).second; }

 private:
  std::vector<Diagnostic>& out_;
  std::unordered_set<std::string> seen_;
};

}  // namespace spindle::instrument
