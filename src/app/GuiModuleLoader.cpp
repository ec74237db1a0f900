#include "app/GuiModuleLoader.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "app/BundledInstrument.h"
#include "app/ExitCodes.h"
#include "app/GuiLaunch.h"
#include "app/LiveArgs.h"
#include "control/NsmClient.h"

namespace spindle::app {

namespace {

bool given(const std::vector<std::string>& args, const char* option) {
  return std::find(args.begin(), args.end(), option) != args.end();
}

std::vector<std::filesystem::path> modulePaths() {
  std::vector<std::filesystem::path> paths;
  if (const char* env = std::getenv("SPINDLE_GUI_MODULE"); env && *env) paths.emplace_back(env);
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) paths.push_back(exe.parent_path() / ".." / "lib" / "spindle" / "libspindle-gui.so");
#ifdef SPINDLE_GUI_MODULE_BUILD_PATH
  paths.emplace_back(SPINDLE_GUI_MODULE_BUILD_PATH);
#endif
  return paths;
}

// Only what the command line gives overrides the saved settings.
GuiLaunch launchFrom(const LiveArgs& a, const std::vector<std::string>& args) {
  GuiLaunch launch;
  launch.instrument = a.instrument;
  // No --instrument: the bundled one, so the first window plays at once (BundledInstrument.h).
  if (launch.instrument.empty())
    if (const auto bundled = findBundledInstrument()) launch.instrument = bundled->string();
  launch.midiDevice = a.midiDevice;
  launch.alsaSeq = a.alsaSeq;
  launch.effects = a.effects;
  launch.tempo = a.tempo;
  if (a.mpe) {
    launch.mpeLower = a.mpe->lower;
    launch.mpeUpper = a.mpe->upper;
  }
  launch.connectAudio = a.connectAudio;
  launch.connectMidi = a.connectMidi;
  launch.midiFrom = a.midiFrom;
  launch.hosts = a.hosts;
  if (given(args, "--backend")) launch.backend = a.backend;
  if (given(args, "--name")) launch.clientName = a.name;
  if (given(args, "--polyphony")) launch.polyphony = a.polyphony;
  if (given(args, "--quality")) launch.quality = a.quality;
  if (given(args, "--osc-port")) launch.oscPort = a.oscPort;
  if (given(args, "--osc-bind")) launch.oscBind = a.oscBind;
  if (given(args, "--osc-secret-file")) launch.oscSecretFile = a.oscSecretFile;
  if (a.oscInsecure) launch.oscInsecure = true;
  if (a.oscRequireSigned) launch.oscRequireSigned = true;
  return launch;
}

}  // namespace

bool wantsGui(const std::vector<std::string>& args) {
  for (const char* flag : {"--headless", "--help", "-h", "--version"})
    if (given(args, flag)) return false;
  return !control::NsmClient::urlFromEnvironment().has_value();
}

int runGuiModule(int argc, char** argv, std::ostream& err) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::string error;
  const auto parsed = parseLiveArgs(args, error);
  if (!parsed) {
    err << "spindle: " << error << "\n\n" << liveUsage();
    return kExitUsage;
  }
  const bool display = std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY") || std::getenv("QT_QPA_PLATFORM");
  if (!display) {
    err << "spindle: no display to open the window on (DISPLAY is not set): run with --headless\n";
    return kExitUsage;
  }
  if (!parsed->noteLog.empty()) err << "spindle: warning: --note-log is for --headless; the window shows latencies\n";
  std::string tried;
  for (const std::filesystem::path& path : modulePaths()) {
    void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!module) {
      tried += "\n  " + std::string(dlerror());
      continue;
    }
    const auto entry = reinterpret_cast<GuiEntry>(dlsym(module, kGuiEntryName));
    if (!entry) {
      err << "spindle: " << path << " is not Spindle's GUI module\n";
      return kExitUsage;
    }
    const GuiLaunch launch = launchFrom(*parsed, args);
    return entry(&argc, argv, &launch);  // the module stays loaded until exit
  }
  err << "spindle: the GUI is not installed (libspindle-gui.so, built when Qt 6 is found); "
         "run with --headless. Tried:" << tried << '\n';
  return kExitUsage;
}

}  // namespace spindle::app
