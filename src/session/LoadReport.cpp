#include "session/LoadReport.h"

#include <algorithm>

namespace spindle::session {

std::size_t LoadReport::errorCount() const noexcept {
  return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(), [](const auto& d) {
    return d.severity == instrument::Diagnostic::Severity::Error;
  }));
}

std::string formatDiagnostic(const instrument::Diagnostic& diagnostic) {
  std::string out = diagnostic.file;
  if (diagnostic.line > 0) out += ":" + std::to_string(diagnostic.line);
  out += diagnostic.severity == instrument::Diagnostic::Severity::Error ? ": error: " : ": warning: ";
  return out + diagnostic.message;
}

std::vector<Problem> problemRows(const LoadReport& report) {
  std::vector<Problem> rows;
  for (const instrument::Diagnostic& d : report.diagnostics) {
    const bool error = d.severity == instrument::Diagnostic::Severity::Error;
    rows.push_back({error ? Problem::Severity::Error : Problem::Severity::Warning, d.file, d.line, d.message});
  }
  // The region's name tells the player which sound it is.
  for (const SampleError& e : report.sampleErrors)
    rows.push_back({Problem::Severity::Error, e.origin, e.line,
                    e.label.empty() ? e.message : e.message + " (region '" + e.label + "')"});
  for (const std::string& warning : report.sampleWarnings)
    rows.push_back({Problem::Severity::Warning, report.sfzPath.string(), 0, warning});
  return rows;
}

std::string failureText(const std::string& path, const LoadReport& report) {
  if (report.cancelled) return "cancelled: " + path;
  std::string reason = "cannot load " + path;
  const auto error = std::find_if(report.diagnostics.begin(), report.diagnostics.end(), [](const auto& d) {
    return d.severity == instrument::Diagnostic::Severity::Error;
  });
  if (error != report.diagnostics.end()) reason += ": " + formatDiagnostic(*error);
  return reason;
}

}  // namespace spindle::session
