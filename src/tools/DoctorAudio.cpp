// Audio checks: which audio server runs with which period, and the sound card's IRQ thread.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <sstream>

#include "tools/Doctor.h"

namespace spindle::tools {
namespace {

struct ProcessInfo {
  std::string pid, comm;
  std::vector<std::string> args;
};

bool allDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

std::vector<ProcessInfo> processes(const SystemRoot& system) {
  std::vector<ProcessInfo> found;
  for (const std::string& pid : system.list("/proc")) {
    if (!allDigits(pid)) continue;
    ProcessInfo p{pid, trim(system.readText("/proc/" + pid + "/comm").value_or("")), {}};
    std::istringstream raw(system.readText("/proc/" + pid + "/cmdline").value_or(""));
    for (std::string arg; std::getline(raw, arg, '\0');) p.args.push_back(arg);
    found.push_back(std::move(p));
  }
  return found;
}

// Value of a backend option of jackd (after -d/--driver: server options reuse -p and -r).
std::string jackDriverOption(const std::vector<std::string>& args, const std::string& shortName,
                             const std::string& longName) {
  bool inDriver = false;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!inDriver) {
      inDriver = a == "-d" || a == "--driver" || a.rfind("-d", 0) == 0 || a.rfind("--driver=", 0) == 0;
      if (inDriver && (a == "-d" || a == "--driver")) ++i;  // skip the backend name
      continue;
    }
    if ((a == shortName || a == longName) && i + 1 < args.size()) return args[i + 1];
    if (a.rfind(longName + "=", 0) == 0) return a.substr(longName.size() + 1);
    if (a.size() > shortName.size() && a.rfind(shortName, 0) == 0 && a[1] != '-') return a.substr(shortName.size());
  }
  return {};
}

struct ServerState {
  std::string name, pid;
  int period = 0, rate = 0;  // 0: not visible
};

ServerState pipewireSettings(const SystemRoot& system, ServerState state) {
  std::optional<std::string> text = system.runCommand({"pw-metadata", "-n", "settings"});
  if (!text) return state;
  std::map<std::string, int> values;
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);) {
    const size_t key = line.find("key:'"), value = line.find("value:'");
    if (key == std::string::npos || value == std::string::npos) continue;
    const std::string name = line.substr(key + 5, line.find('\'', key + 5) - key - 5);
    values[name] = std::atoi(line.c_str() + value + 7);
  }
  state.period = values["clock.force-quantum"] ? values["clock.force-quantum"] : values["clock.quantum"];
  state.rate = values["clock.force-rate"] ? values["clock.force-rate"] : values["clock.rate"];
  return state;
}

std::optional<ServerState> findServer(const SystemRoot& system) {
  const std::vector<ProcessInfo> all = processes(system);
  for (const ProcessInfo& p : all) {
    if (p.comm == "jackd" || p.comm == "jackdbus") {
      ServerState s{p.comm, p.pid, std::atoi(jackDriverOption(p.args, "-p", "--period").c_str()),
                    std::atoi(jackDriverOption(p.args, "-r", "--rate").c_str())};
      if (p.comm == "jackd") {  // jackd's backends default to 1024 frames at 48 kHz
        if (s.period <= 0) s.period = 1024;
        if (s.rate <= 0) s.rate = 48000;
      }
      return s;
    }
  }
  for (const ProcessInfo& p : all) {
    if (p.comm == "pipewire") return pipewireSettings(system, {p.comm, p.pid, 0, 0});
  }
  return std::nullopt;
}

}  // namespace

void checkAudioServer(const SystemRoot& system, std::vector<Check>& out) {
  Check check{"audio.server", "Audio server (JACK or PipeWire)", Status::Pass, "", ""};
  const std::optional<ServerState> server = findServer(system);
  if (!server) {
    check.status = Status::Warn;
    check.detail = "Neither jackd, jackdbus nor pipewire is running: Spindle has no audio server to play through.";
    check.fix = "Start JACK (jackd -R -P 70 -d alsa -d hw:0 -r 48000 -p 128 -n 2, or qjackctl), or PipeWire "
                "(systemctl --user start pipewire wireplumber).";
  } else if (server->period <= 0 || server->rate <= 0) {
    check.detail = server->name + " (pid " + server->pid + ") runs; its period and rate are not visible "
                   "from here" + (server->name == "pipewire" ? " (pw-metadata -n settings gave nothing)." : ".");
  } else {
    const double ms = 1000.0 * server->period / server->rate;
    std::ostringstream text;
    text.precision(3);
    text << server->name << " (pid " << server->pid << ") runs with a period of " << server->period << " frames at "
         << server->rate << " Hz = " << ms << " ms.";
    check.detail = text.str();
    if (ms > 6.0) {
      check.status = Status::Warn;
      check.detail += " Above the 2-5 ms a player feels as immediate.";
      check.fix = server->name == "pipewire"
                      ? "pw-metadata -n settings 0 clock.force-quantum 128 (or start Spindle with PIPEWIRE_QUANTUM=128/48000)."
                      : "Restart JACK with a smaller period, e.g. -p 128 -n 2 at -r 48000 (2.7 ms).";
    }
  }
  out.push_back(check);
}

namespace {

// IRQ numbers whose /proc/interrupts line names a sound device.
std::vector<std::string> soundIrqs(const SystemRoot& system) {
  std::vector<std::string> irqs;
  std::istringstream lines(system.readText("/proc/interrupts").value_or(""));
  for (std::string line; std::getline(lines, line);) {
    const std::vector<std::string> words = splitWords(line);
    if (words.empty() || words[0].back() != ':' || !allDigits(words[0].substr(0, words[0].size() - 1))) continue;
    const bool sound = std::any_of(words.begin() + 1, words.end(), [](const std::string& w) {
      return w.rfind("snd", 0) == 0 || w.find("hda") != std::string::npos || w.find("audio") != std::string::npos;
    });
    if (sound) irqs.push_back(words[0].substr(0, words[0].size() - 1));
  }
  return irqs;
}

// rt_priority (field 40 of /proc/PID/stat) of the thread handling `irq`; -1 when none.
int irqThreadPriority(const SystemRoot& system, const std::string& irq, std::string& threadName) {
  for (const std::string& pid : system.list("/proc")) {
    if (!allDigits(pid)) continue;
    const std::string comm = trim(system.readText("/proc/" + pid + "/comm").value_or(""));
    if (comm.rfind("irq/" + irq + "-", 0) != 0) continue;
    const std::string stat = system.readText("/proc/" + pid + "/stat").value_or("");
    const size_t close = stat.rfind(')');
    const std::vector<std::string> fields = splitWords(close == std::string::npos ? "" : stat.substr(close + 1));
    threadName = comm + " (pid " + pid + ")";
    return fields.size() > 37 ? std::atoi(fields[37].c_str()) : -1;  // fields[0] is field 3
  }
  return -1;
}

}  // namespace

void checkSoundIrqThread(const SystemRoot& system, std::vector<Check>& out) {
  Check check{"irq.sound_thread", "Sound card IRQ thread priority", Status::Warn, "", ""};
  const std::vector<std::string> irqs = soundIrqs(system);
  if (irqs.empty()) {
    check.detail = "No sound card interrupt in /proc/interrupts (no PCI sound card, or USB audio sharing "
                   "the xhci_hcd interrupt).";
    check.fix = "For USB audio, raise the xhci_hcd IRQ thread instead (rtirq-init with RTIRQ_NAME_LIST=\"usb\").";
    out.push_back(check);
    return;
  }
  std::string thread;
  const int priority = irqThreadPriority(system, irqs.front(), thread);
  if (priority < 0) {
    check.detail = "IRQ " + irqs.front() + " (sound) has no irq/ thread: handlers are not threaded.";
    check.fix = "Boot with threadirqs (see kernel.threadirqs), then raise the sound IRQ thread with rtirq-init.";
  } else if (priority <= 50) {
    check.detail = thread + " runs at SCHED_FIFO " + std::to_string(priority) +
                   ", the default of every IRQ thread: disk and network interrupts compete with it.";
    check.fix = "Install rtirq-init (RTIRQ_NAME_LIST=\"snd usb\"), or: chrt -f -p 90 <pid of " + thread + ">.";
  } else {
    check.status = Status::Pass;
    check.detail = thread + " runs at SCHED_FIFO " + std::to_string(priority) + ", above the other IRQ threads.";
  }
  out.push_back(check);
}

}  // namespace spindle::tools
