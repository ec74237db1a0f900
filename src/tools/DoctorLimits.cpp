// Per-user checks: the rtprio and memlock limits, membership of the audio group.
#include <algorithm>
#include <sstream>

#include "tools/Doctor.h"

namespace spindle::tools {
namespace {

const char* const kLimitsFix =
    "Create /etc/security/limits.d/audio.conf with the lines '@audio - rtprio 95' and "
    "'@audio - memlock unlimited', add yourself to the group (usermod -aG audio $USER), log out and in.";

bool isMember(const UserInfo& user, const std::string& group) {
  return std::find(user.groups.begin(), user.groups.end(), group) != user.groups.end();
}

// "@audio rtprio 95 (/etc/security/limits.d/audio.conf)" for the first pam_limits line that
// sets `item` for `domain` ("@audio" or a user name); empty when none does.
std::string limitsGrant(const SystemRoot& system, const std::string& domain, const std::string& item) {
  std::vector<std::string> files{"/etc/security/limits.conf"};
  for (const std::string& name : system.list("/etc/security/limits.d")) {
    if (name.size() > 5 && name.substr(name.size() - 5) == ".conf") files.push_back("/etc/security/limits.d/" + name);
  }
  for (const std::string& file : files) {
    std::istringstream lines(system.readText(file).value_or(""));
    std::string line;
    while (std::getline(lines, line)) {
      const std::vector<std::string> w = splitWords(line.substr(0, line.find('#')));
      if (w.size() == 4 && w[0] == domain && w[2] == item) return w[0] + " " + item + " " + w[3] + " (" + file + ")";
    }
  }
  return {};
}

std::string describeLimit(const Limit& limit, uint64_t unit, const char* unitName) {
  auto one = [&](uint64_t v) {
    return v == Limit::kUnlimited ? std::string("unlimited") : std::to_string(v / unit) + unitName;
  };
  return one(limit.soft) + " (hard " + one(limit.hard) + ")";
}

bool isRoot(const SystemRoot& system) { return system.user.euid == 0; }

}  // namespace

void checkRtPriorityLimit(const SystemRoot& system, std::vector<Check>& out) {
  Check check{"limits.rtprio", "Real-time priority limit (rtprio)", Status::Pass, "", ""};
  const uint64_t soft = system.rtprio.soft;
  check.detail = "RLIMIT_RTPRIO for " + system.user.name + ": " + describeLimit(system.rtprio, 1, "") + ". ";
  if (isRoot(system)) {
    check.detail += "Running as root: CAP_SYS_NICE allows any SCHED_FIFO priority regardless.";
  } else if (soft >= 40) {
    check.detail += "Enough for the audio thread (kept just below the IRQ threads at 50) and the disk thread.";
  } else {
    check.status = soft == 0 ? Status::Fail : Status::Warn;
    check.detail += soft == 0 ? "No real-time scheduling at all: the audio thread runs SCHED_OTHER and "
                                "any busy process can delay it."
                              : "Too low to put the audio thread above other real-time work.";
    check.fix = kLimitsFix;
  }
  out.push_back(check);
}

void checkMemlockLimit(const SystemRoot& system, std::vector<Check>& out) {
  Check check{"limits.memlock", "Locked memory limit (memlock)", Status::Pass, "", ""};
  const uint64_t soft = system.memlock.soft;
  constexpr uint64_t kMiB = 1u << 20;
  check.detail = "RLIMIT_MEMLOCK for " + system.user.name + ": " + describeLimit(system.memlock, kMiB, " MiB") + ". ";
  if (isRoot(system)) {
    check.detail += "Running as root: CAP_IPC_LOCK allows locking any amount.";
  } else if (soft == Limit::kUnlimited || soft >= 1024 * kMiB) {
    check.detail += "Spindle can lock its preloaded sample heads and stream rings in RAM.";
  } else {
    check.status = soft >= 64 * kMiB ? Status::Warn : Status::Fail;
    check.detail += "Spindle's preloads and stream rings need hundreds of MiB locked; what is not locked "
                    "can be paged out and fault in on the audio thread.";
    check.fix = kLimitsFix;
  }
  out.push_back(check);
}

void checkAudioGroup(const SystemRoot& system, std::vector<Check>& out) {
  Check check{"user.audio_group", "Membership of the audio group", Status::Pass, "", ""};
  const std::string grant = limitsGrant(system, "@audio", "rtprio");
  const std::string grantText = grant.empty() ? "no limits file grants @audio rtprio" : "limits: " + grant;
  if (isMember(system.user, "audio")) {
    check.detail = system.user.name + " is in the audio group; " + grantText + ".";
    if (grant.empty()) {
      check.status = Status::Warn;
      check.fix = kLimitsFix;
    }
  } else if (isRoot(system)) {
    check.detail = "Running as root, which needs no group; a normal user needs the audio group (" + grantText + ").";
  } else {
    check.status = Status::Warn;
    check.detail = system.user.name + " is not in the audio group (" + grantText + "), so it gets no "
                   "real-time priority or locked memory through it.";
    check.fix = grant.empty() ? std::string(kLimitsFix)
                              : "usermod -aG audio " + system.user.name + ", then log out and in.";
  }
  out.push_back(check);
}

}  // namespace spindle::tools
