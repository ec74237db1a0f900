#include "tools/DoctorFormat.h"

#include "tools/Json.h"

namespace spindle::tools {
namespace {

void printLines(std::ostream& out, const char* heading, const std::vector<std::string>& lines) {
  if (lines.empty()) return;
  out << "  " << heading << "\n";
  for (const std::string& line : lines) out << "    " << line << "\n";
}

void printChangesText(std::ostream& out, Profile profile, const ProfileChanges& c) {
  out << "\nProfile " << profileName(profile) << ": what to change\n";
  std::string words;
  for (const std::string& w : c.kernelCommandLine) words += (words.empty() ? "" : " ") + w;
  out << "  Kernel command line (add to GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, update-grub, reboot):\n"
      << "    " << words << "\n";
  printLines(out, "/etc/sysctl.d/90-spindle.conf (then sysctl --system):", c.sysctl);
  printLines(out, "/etc/security/limits.d/audio.conf (then log out and in):", c.limits);
  printLines(out, "Runtime (sudo spindle-doctor --apply):", c.runtime);
  printLines(out, "Notes:", c.notes);
}

void jsonStrings(JsonWriter& json, std::string_view name, const std::vector<std::string>& lines) {
  json.key(name);
  json.beginArray();
  for (const std::string& line : lines) json.value(line);
  json.endArray();
}

}  // namespace

void printDoctorText(std::ostream& out, const DoctorReport& report, const ProfileChanges& changes) {
  out << "Spindle system check (profile " << profileName(report.profile) << ")\n"
      << "Kernel: " << report.kernel << "\n\n";
  for (const Check& check : report.checks) {
    out << "[" << statusName(check.status) << "] " << check.title << " (" << check.id << ")\n"
        << "       " << check.detail << "\n";
    if (!check.fix.empty()) out << "       fix: " << check.fix << "\n";
  }
  out << "\nSummary: " << report.count(Status::Pass) << " PASS, " << report.count(Status::Warn) << " WARN, "
      << report.count(Status::Fail) << " FAIL\n";
  printChangesText(out, report.profile, changes);
}

void printApplyText(std::ostream& out, const ApplyResult& result) {
  out << "\nApplied (runtime only; boot options and files above are left to you):\n";
  for (const std::string& line : result.done) out << "  done:   " << line << "\n";
  for (const std::string& line : result.failed) out << "  FAILED: " << line << "\n";
}

namespace {

void jsonChecks(JsonWriter& json, const DoctorReport& report) {
  json.key("checks");
  json.beginArray();
  for (const Check& check : report.checks) {
    json.beginObject();
    json.field("id", check.id);
    json.field("title", check.title);
    json.field("status", statusName(check.status));
    json.field("detail", check.detail);
    json.field("fix", check.fix);
    json.endObject();
  }
  json.endArray();
  json.key("summary");
  json.beginObject();
  json.field("pass", report.count(Status::Pass));
  json.field("warn", report.count(Status::Warn));
  json.field("fail", report.count(Status::Fail));
  json.endObject();
}

}  // namespace

void printDoctorJson(std::ostream& out, const DoctorReport& report, const ProfileChanges& changes,
                     const ApplyResult* applied) {
  JsonWriter json(out);
  json.beginObject();
  json.field("profile", profileName(report.profile));
  json.field("kernel", report.kernel);
  jsonChecks(json, report);
  json.key("changes");
  json.beginObject();
  jsonStrings(json, "kernel_command_line", changes.kernelCommandLine);
  jsonStrings(json, "sysctl", changes.sysctl);
  jsonStrings(json, "limits", changes.limits);
  jsonStrings(json, "runtime", changes.runtime);
  jsonStrings(json, "notes", changes.notes);
  json.endObject();
  if (applied) {
    json.key("applied");
    json.beginObject();
    jsonStrings(json, "done", applied->done);
    jsonStrings(json, "failed", applied->failed);
    json.endObject();
  }
  json.endObject();
}

}  // namespace spindle::tools
