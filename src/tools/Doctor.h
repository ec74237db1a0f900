#pragma once
// spindle-doctor's checks as plain data: what the GUI shows and --json prints.
//
//   DoctorReport report = runDoctor(SystemRoot::live(), Profile::LowLatency);
//   for (const Check& check : report.checks) ...   // id, status, detail, fix
//
// Every check reads the machine only through the SystemRoot it is given.
#include <string>
#include <vector>

#include "tools/SystemRoot.h"

namespace spindle::tools {

enum class Status { Pass, Warn, Fail };
const char* statusName(Status status);  // "PASS", "WARN", "FAIL"

// What the machine should be tuned for (after "Enable low latency features in the generic
// Ubuntu kernel for 24.04", Ubuntu kernel team, 2023).
enum class Profile { LowLatency, Throughput, PowerSave };
const char* profileName(Profile profile);  // "lowlatency", "throughput", "powersave"
bool parseProfile(const std::string& name, Profile& out);

struct Check {
  std::string id;      // stable key, e.g. "kernel.preempt"
  std::string title;   // "Kernel preemption model"
  Status status = Status::Pass;
  std::string detail;  // what was found and why it matters
  std::string fix;     // what exactly to change; empty when nothing to do
};

struct DoctorReport {
  Profile profile = Profile::LowLatency;
  std::string kernel;  // "6.8.0-31-lowlatency #31 SMP PREEMPT_DYNAMIC ..."
  std::vector<Check> checks;

  const Check* find(const std::string& id) const;
  int count(Status status) const;
};

DoctorReport runDoctor(const SystemRoot& system, Profile profile);

// The individual checks, in report order (each appends one Check).
void checkPreemption(const SystemRoot& system, Profile profile, std::vector<Check>& out);
void checkTimerFrequency(const SystemRoot& system, std::vector<Check>& out);
void checkThreadedIrqs(const SystemRoot& system, std::vector<Check>& out);
void checkCpuIsolation(const SystemRoot& system, Profile profile, std::vector<Check>& out);
void checkGovernor(const SystemRoot& system, Profile profile, std::vector<Check>& out);
void checkRtPriorityLimit(const SystemRoot& system, std::vector<Check>& out);
void checkMemlockLimit(const SystemRoot& system, std::vector<Check>& out);
void checkAudioGroup(const SystemRoot& system, std::vector<Check>& out);
void checkCpuDmaLatency(const SystemRoot& system, std::vector<Check>& out);
void checkSwappiness(const SystemRoot& system, std::vector<Check>& out);
void checkAudioServer(const SystemRoot& system, std::vector<Check>& out);
void checkSoundIrqThread(const SystemRoot& system, std::vector<Check>& out);

}  // namespace spindle::tools
