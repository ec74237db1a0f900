#include "tools/KernelInfo.h"

#include <algorithm>
#include <sstream>

#include "tools/Process.h"

namespace spindle::tools {

std::optional<std::string> KernelConfig::value(const std::string& name) const {
  const auto it = options.find(name);
  if (it == options.end()) return std::nullopt;
  return it->second;
}

bool KernelConfig::enabled(const std::string& name) const {
  const std::optional<std::string> v = value(name);
  return v && (*v == "y" || *v == "m");
}

KernelConfig parseKernelConfig(const std::string& text, std::string source) {
  KernelConfig config;
  config.source = std::move(source);
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("CONFIG_", 0) != 0) continue;
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string value = trim(line.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    config.options[line.substr(0, eq)] = value;
  }
  return config;
}

KernelConfig readKernelConfig(const SystemRoot& system) {
  const std::filesystem::path gz = system.path("/proc/config.gz");
  std::error_code ec;
  if (std::filesystem::exists(gz, ec)) {
    if (std::optional<std::string> text = captureOutput({"gzip", "-dc", gz.string()})) {
      return parseKernelConfig(*text, "/proc/config.gz");
    }
  }
  const std::string boot = "/boot/config-" + system.uname.release;
  if (std::optional<std::string> text = system.readText(boot)) return parseKernelConfig(*text, boot);
  return {};
}

bool KernelCommandLine::has(const std::string& flag) const {
  return std::find(words.begin(), words.end(), flag) != words.end() || value(flag).has_value();
}

std::optional<std::string> KernelCommandLine::value(const std::string& key) const {
  const std::string prefix = key + "=";
  for (const std::string& word : words) {
    if (word.rfind(prefix, 0) == 0) return word.substr(prefix.size());
  }
  return std::nullopt;
}

KernelCommandLine readCommandLine(const SystemRoot& system) {
  KernelCommandLine cmdline;
  const std::string text = system.readLine("/proc/cmdline").value_or("");
  for (std::string& word : splitWords(text)) {
    if (word == "--") break;  // what follows belongs to init, not the kernel
    cmdline.words.push_back(std::move(word));
  }
  return cmdline;
}

const char* preemptModelName(PreemptModel model) {
  switch (model) {
    case PreemptModel::None: return "none";
    case PreemptModel::Voluntary: return "voluntary";
    case PreemptModel::Full: return "full";
    case PreemptModel::Lazy: return "lazy";
    case PreemptModel::Rt: return "rt";
    case PreemptModel::Unknown: break;
  }
  return "unknown";
}

namespace {

PreemptModel modelFromName(const std::string& name) {
  if (name == "none") return PreemptModel::None;
  if (name == "voluntary") return PreemptModel::Voluntary;
  if (name == "full") return PreemptModel::Full;
  if (name == "lazy") return PreemptModel::Lazy;
  return PreemptModel::Unknown;
}

PreemptModel modelFromConfig(const KernelConfig& config) {
  if (config.enabled("CONFIG_PREEMPT_RT")) return PreemptModel::Rt;
  if (config.enabled("CONFIG_PREEMPT")) return PreemptModel::Full;
  if (config.enabled("CONFIG_PREEMPT_LAZY")) return PreemptModel::Lazy;
  if (config.enabled("CONFIG_PREEMPT_VOLUNTARY")) return PreemptModel::Voluntary;
  if (config.enabled("CONFIG_PREEMPT_NONE")) return PreemptModel::None;
  return PreemptModel::Unknown;
}

// "none voluntary (full) lazy": the word in parentheses is the current mode.
PreemptModel modelFromDebugfs(const std::string& text) {
  for (const std::string& word : splitWords(text)) {
    if (word.size() > 2 && word.front() == '(' && word.back() == ')') {
      return modelFromName(word.substr(1, word.size() - 2));
    }
  }
  return PreemptModel::Unknown;
}

bool versionHas(const std::string& version, const std::string& token) {
  const std::vector<std::string> words = splitWords(version);
  return std::find(words.begin(), words.end(), token) != words.end();
}

void detectDynamicMode(const SystemRoot& system, const KernelConfig& config,
                       const KernelCommandLine& cmdline, PreemptInfo& info) {
  if (std::optional<std::string> debugfs = system.readLine("/sys/kernel/debug/sched/preempt")) {
    info.model = modelFromDebugfs(*debugfs);
    info.source = "/sys/kernel/debug/sched/preempt";
  } else if (std::optional<std::string> boot = cmdline.value("preempt")) {
    info.model = modelFromName(*boot);
    info.source = "preempt=" + *boot + " on the kernel command line";
  } else {
    info.model = modelFromConfig(config);
    info.source = config.found() ? "the build default in " + config.source +
                                       " (debugfs not mounted, no preempt= at boot)"
                                 : "no kernel config and no debugfs";
  }
}

}  // namespace

PreemptInfo detectPreemption(const SystemRoot& system, const KernelConfig& config,
                             const KernelCommandLine& cmdline) {
  PreemptInfo info;
  const std::string& version = system.uname.version;
  info.lowlatencyFlavour = system.uname.release.find("lowlatency") != std::string::npos;
  const bool realtimeFlag = system.readLine("/sys/kernel/realtime").value_or("") == "1";
  if (versionHas(version, "PREEMPT_RT") || realtimeFlag || config.enabled("CONFIG_PREEMPT_RT")) {
    info.model = PreemptModel::Rt;
    info.source = realtimeFlag ? "/sys/kernel/realtime" : "uname -v / kernel config";
    return info;
  }
  info.dynamic = versionHas(version, "PREEMPT_DYNAMIC") || config.enabled("CONFIG_PREEMPT_DYNAMIC");
  if (info.dynamic) {
    detectDynamicMode(system, config, cmdline, info);
  } else if (versionHas(version, "PREEMPT")) {
    info.model = PreemptModel::Full;
    info.source = "uname -v";
  } else {
    info.model = modelFromConfig(config);
    info.source = config.found() ? config.source : "uname -v shows no PREEMPT and no kernel config";
  }
  return info;
}

}  // namespace spindle::tools
