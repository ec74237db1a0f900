#pragma once
// The changes each tuning profile asks for, after the Ubuntu 24.04 work on low-latency options
// in the generic kernel ("Enable low latency features in the generic Ubuntu kernel for
// 24.04", Ubuntu kernel team, 2023): boot-time options, sysctl and limits files, runtime steps.
#include <string>
#include <vector>

#include "tools/Doctor.h"

namespace spindle::tools {

struct ProfileChanges {
  std::vector<std::string> kernelCommandLine;  // words to add at boot
  std::vector<std::string> sysctl;             // lines for /etc/sysctl.d/90-spindle.conf
  std::vector<std::string> limits;             // lines for /etc/security/limits.d/audio.conf
  std::vector<std::string> runtime;            // what --apply does
  std::vector<std::string> notes;
};

// `cpuCount` picks the CPU the lowlatency profile suggests isolating (the last one).
ProfileChanges profileChanges(Profile profile, int cpuCount);
int countCpus(const SystemRoot& system);

}  // namespace spindle::tools
