#pragma once
// What the running kernel was built with and booted with, read through a SystemRoot.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tools/SystemRoot.h"

namespace spindle::tools {

struct KernelConfig {
  std::map<std::string, std::string> options;  // "CONFIG_HZ" -> "250"; "is not set" lines omitted
  std::string source;                          // "/proc/config.gz", "/boot/config-<release>" or ""

  bool found() const { return !source.empty(); }
  std::optional<std::string> value(const std::string& name) const;
  bool enabled(const std::string& name) const;  // =y or =m
};

// /proc/config.gz (decompressed by gzip), else /boot/config-<uname -r>.
KernelConfig readKernelConfig(const SystemRoot& system);
KernelConfig parseKernelConfig(const std::string& text, std::string source);

struct KernelCommandLine {
  std::vector<std::string> words;

  bool has(const std::string& flag) const;                      // "threadirqs"
  std::optional<std::string> value(const std::string& key) const;  // "preempt" -> "full"
};

KernelCommandLine readCommandLine(const SystemRoot& system);

enum class PreemptModel { Unknown, None, Voluntary, Full, Lazy, Rt };
const char* preemptModelName(PreemptModel model);

struct PreemptInfo {
  PreemptModel model = PreemptModel::Unknown;
  bool dynamic = false;             // PREEMPT_DYNAMIC: the model can be chosen at boot (preempt=)
  bool lowlatencyFlavour = false;   // a distribution "-lowlatency" kernel build
  std::string source;               // how the model was found, for the report
};

PreemptInfo detectPreemption(const SystemRoot& system, const KernelConfig& config,
                             const KernelCommandLine& cmdline);

}  // namespace spindle::tools
