#include "tools/Doctor.h"

#include <algorithm>

namespace spindle::tools {

const char* statusName(Status status) {
  switch (status) {
    case Status::Pass: return "PASS";
    case Status::Warn: return "WARN";
    case Status::Fail: return "FAIL";
  }
  return "?";
}

const char* profileName(Profile profile) {
  switch (profile) {
    case Profile::LowLatency: return "lowlatency";
    case Profile::Throughput: return "throughput";
    case Profile::PowerSave: return "powersave";
  }
  return "?";
}

bool parseProfile(const std::string& name, Profile& out) {
  for (Profile p : {Profile::LowLatency, Profile::Throughput, Profile::PowerSave}) {
    if (name == profileName(p)) {
      out = p;
      return true;
    }
  }
  return false;
}

const Check* DoctorReport::find(const std::string& id) const {
  const auto it = std::find_if(checks.begin(), checks.end(), [&](const Check& c) { return c.id == id; });
  return it == checks.end() ? nullptr : &*it;
}

int DoctorReport::count(Status status) const {
  return static_cast<int>(std::count_if(checks.begin(), checks.end(),
                                        [&](const Check& c) { return c.status == status; }));
}

DoctorReport runDoctor(const SystemRoot& system, Profile profile) {
  DoctorReport report;
  report.profile = profile;
  report.kernel = system.uname.release + " " + system.uname.version;
  checkPreemption(system, profile, report.checks);
  checkTimerFrequency(system, report.checks);
  checkThreadedIrqs(system, report.checks);
  checkCpuIsolation(system, profile, report.checks);
  checkGovernor(system, profile, report.checks);
  checkRtPriorityLimit(system, report.checks);
  checkMemlockLimit(system, report.checks);
  checkAudioGroup(system, report.checks);
  checkCpuDmaLatency(system, report.checks);
  checkSwappiness(system, report.checks);
  checkAudioServer(system, report.checks);
  checkSoundIrqThread(system, report.checks);
  return report;
}

}  // namespace spindle::tools
