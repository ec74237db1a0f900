#include "app/LiveArgs.h"

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "app/EffectArgs.h"
#include "app/TempoArgs.h"
#include "control/UserSettings.h"
#include "core/Limits.h"

namespace spindle::app {

namespace {

bool parseInt(const std::string& text, int low, int high, int& out) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value < low || value > high) return false;
  out = value;
  return true;
}

bool applyOsc(LiveArgs& a, const std::string& option, const std::string& value, std::string& error) {
  if (option == "--osc-bind") a.oscBind = value;
  else if (option == "--osc-secret-file") a.oscSecretFile = value;
  else if (option == "--osc-identity") a.oscIdentity = value;
  else if (!parseInt(value, 0, 65535, a.oscPort)) error = "--osc-port takes 0 (off) to 65535";
  if (value.empty()) error = option + " needs a value";
  return error.empty();
}

bool applyStreaming(LiveArgs& a, const std::string& option, const std::string& value, std::string& error) {
  int number = 0;
  if (option == "--preload-frames") {
    if (!parseInt(value, -1, 1 << 22, number)) error = "--preload-frames takes -1 (whole samples in RAM) to 4194304";
    else a.preloadFrames = number;
  } else if (!parseInt(value, 16, 1 << 16, a.cacheMiB)) {
    error = "--cache-size takes 16 to 65536 MiB";
  }
  return error.empty();
}

// --host NAME=ADDR[:PORT][@JACKCLIENT], each name once.
bool applyHost(LiveArgs& a, const std::string& value, std::string& error) {
  auto host = control::parseHostSpec(value, error);
  if (!host) {
    error = "--host: " + error;
    return false;
  }
  for (const control::HostSettings& other : a.hosts)
    if (other.name == host->name) {
      error = "--host: the name " + host->name + " is given twice";
      return false;
    }
  a.hosts.push_back(std::move(*host));
  return true;
}

// --tempo, --mpe and --host; any other option is unknown.
bool applyTempo(LiveArgs& a, const std::string& option, const std::string& value, std::string& error) {
  if (option == "--host") return applyHost(a, value, error);
  if (option == "--mpe") {
    a.mpe = parseMpeArg(value);
    if (!a.mpe) error = std::string("--mpe takes ") + kMpeForms + ", not '" + value + "'";
    return a.mpe.has_value();
  }
  if (option != "--tempo") {
    error = "unknown option " + option;
    return false;
  }
  a.tempo = parseTempoArg(value);
  if (!a.tempo) error = std::string("--tempo takes ") + kTempoRange;
  return a.tempo.has_value();
}

// Applies one option that takes a value; false with `error` set when it is wrong.
bool applyValue(LiveArgs& a, const std::string& option, const std::string& value, std::string& error) {
  if (option == "--instrument") a.instrument = value;
  else if (option == "--scale") a.scale = value;
  else if (option == "--keymap") a.keymap = value;
  else if (option == "--name") a.name = value;
  else if (option == "--midi-device") a.midiDevice = value;
  else if (option == "--note-log") a.noteLog = value;
  else if (option == "--midi-from") a.midiFrom.push_back(value);
  else if (option == "--backend") {
    if (value != "jack" && value != "pipewire") {
      error = "--backend takes jack or pipewire, not '" + value + "'";
      return false;
    }
    a.backend = value;
  } else if (option == "--polyphony") {
    if (!parseInt(value, 1, limits::kMaxVoices, a.polyphony)) {
      error = "--polyphony takes 1 to 4096 voices";
      return false;
    }
  } else if (option == "--quality") {
    if (!parseInt(value, 0, 3, a.quality)) {
      error = "--quality takes 0, 1, 2 or 3";
      return false;
    }
  } else if (option == "--memory-budget") {
    if (!parseInt(value, 16, 1 << 22, a.memoryBudgetMiB)) {
      error = "--memory-budget takes 16 to 4194304 MiB";
      return false;
    }
  } else if (option == "--osc-port" || option == "--osc-bind" || option == "--osc-secret-file" ||
             option == "--osc-identity") {
    return applyOsc(a, option, value, error);
  } else if (option == "--preload-frames" || option == "--cache-size") {
    return applyStreaming(a, option, value, error);
  } else {
    return applyTempo(a, option, value, error);
  }
  if (value.empty()) error = option + " needs a value";
  return !value.empty();
}

bool isFlag(LiveArgs& a, const std::string& option) {
  if (option == "--headless") a.headless = true;
  else if (option == "--alsa-seq") a.alsaSeq = true;
  else if (option == "--osc-insecure") a.oscInsecure = true;
  else if (option == "--osc-require-signed") a.oscRequireSigned = true;
  else if (option == "--multi-out") a.multiOut = true;
  else if (option == "--no-connect") a.connectAudio = a.connectMidi = false;
  else if (option == "--no-connect-audio") a.connectAudio = false;
  else if (option == "--no-connect-midi") a.connectMidi = false;
  else if (option == "--help" || option == "-h") a.help = true;
  else if (option == "--version") a.version = true;
  else return false;
  return true;
}

}  // namespace

std::optional<LiveArgs> parseLiveArgs(const std::vector<std::string>& args, std::string& error, bool underNsm) {
  LiveArgs a;
  a.headless = underNsm;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (isFlag(a, args[i])) continue;
    if (i + 1 >= args.size()) {
      error = args[i].rfind("--", 0) == 0 ? args[i] + " needs a value" : "unexpected argument " + args[i];
      return std::nullopt;
    }
    const EffectArg effect = applyEffectArg(a.effects, args[i], args[i + 1], error);
    if (effect == EffectArg::Wrong || (effect == EffectArg::NotEffect && !applyValue(a, args[i], args[i + 1], error)))
      return std::nullopt;
    ++i;
  }
  // Without --instrument the bundled instrument is loaded (BundledInstrument.h), except
  // under NSM, whose session brings the instruments.
  return a;
}

namespace {

// OSC's options, and driving other hosts.
std::string oscUsage() {
  return "  --osc-port N              OSC remote control on UDP and TCP port N (default 9951; 0: off)\n"
         "  --osc-bind ADDR           the address OSC listens on (default 127.0.0.1; 0.0.0.0: every network);\n"
         "                            an address other than loopback needs --osc-secret-file or --osc-insecure\n"
         "  --osc-secret-file FILE    the cluster's shared secret (mode 0600, at least 16 bytes): other hosts\n"
         "                            must send signed OSC (spindle-osc), replies to them are signed\n"
         "  --osc-require-signed      with a secret, loopback peers must sign too\n"
         "  --osc-identity NAME       this Spindle's name in signed OSC: it signs as NAME (default\n"
         "                            HOSTNAME/CLIENT) and takes packets signed for NAME as well as for\n"
         "                            the address and port they reach it on (behind NAT)\n"
         "  --osc-insecure            accept unsigned OSC on a network address: anyone who reaches the\n"
         "                            port controls Spindle (loads, session files); trusted networks only\n"
         "  --host NAME=ADDR[:PORT][@JACKCLIENT]\n"
         "                            drive the Spindle on another machine over OSC (default port 9951;\n"
         "                            repeatable): its parts and health in /spindle/host/... and the window;\n"
         "                            with --osc-secret-file what it sends is signed, and only signed replies read;\n"
         "                            with @JACKCLIENT (its NetJACK2 client here) midi_in goes to it through\n"
         "                            to_NAME and its audio comes back to where out_L/out_R go (JACK)\n";
}

// The options, before the effects' (EffectArgs.h).
std::string optionsUsage() {
  return "usage: spindle [--instrument FILE] [options]             the main window\n"
         "       spindle --headless [--instrument FILE] [options]  no window\n"
         "       spindle --list-libraries [--json]                 the installed instruments, their load errors\n"
         "  --instrument FILE         the instrument: SFZ, SoundFont, DecentSampler preset or Hydrogen kit\n"
         "                            (default: the bundled Spindle EP)\n"
         "  --scale FILE.scl          every part plays in this Scala scale (default 12-TET)\n"
         "  --keymap FILE.kbm         with this Scala keyboard map (default: key 60 is the scale's\n"
         "                            first degree at 261.63 Hz, keys map one by one)\n"
         "  --backend jack|pipewire   sound server (default: a running JACK server, else PipeWire;\n"
         "                            given, Spindle waits for it). PipeWire also works as JACK via pw-jack\n"
         "  --name NAME               client name, ports NAME:out_L NAME:out_R NAME:midi_in (default spindle)\n"
         "  --midi-device PATH        also read raw MIDI bytes from a device node or a named pipe\n"
         "  --alsa-seq                also read the ALSA sequencer (port NAME:midi_in)\n"
         "  --multi-out               JACK: also one output pair per part, NAME:out_1_L NAME:out_1_R ..\n"
         "                            NAME:out_16_R, each part alone; out_L/out_R keep the full mix\n"
         "  --no-connect              connect nothing by itself (see Connections below)\n"
         "  --no-connect-audio        leave out_L/out_R unconnected at start\n"
         "  --no-connect-midi         do not follow hardware MIDI inputs\n"
         "  --midi-from TEXT          follow only the MIDI inputs whose port name contains TEXT\n"
         "                            (repeatable: several devices)\n"
         "  --note-log FILE           write one line per note-on with its latency\n"
         "  --polyphony N             voices (default 256)\n"
         "  --quality 0..3            interpolation: linear, hermite (default), sinc, high sinc\n"
         "  --tempo BPM               the tempo (1..999) lobpm/hibpm and synced delays play at while neither\n"
         "                            the JACK transport rolls nor MIDI clocks arrive (default 120)\n"
         "  --mpe ZONES               MPE zones by hand: lower (members 2..16 play part 1), upper\n"
         "                            (members 1..15 play part 16), lower=N, upper=N, lower=N,upper=M;\n"
         "                            off (default; an MPE Configuration Message in the MIDI sets them too)\n"
         "  --memory-budget MIB       sample data kept in RAM (default half the RAM); samples past it are\n"
         "                            left out of the load, each named in the log\n"
         "  --preload-frames N        frames of each sample kept in RAM, the rest streams from disk (default\n"
         "                            the saved setting, else 4096: an SSD; a spinning disk wants 32768,\n"
         "                            spindle-diskbench --save measures this disk's); -1: whole samples in RAM\n"
         "  --cache-size MIB          decoded audio the streams share, pinned blocks included (default 64)\n"
         + oscUsage() +
         "The shared reverb and chorus (SoundFont CC91/CC93 and effects sends), FluidSynth's settings\n"
         "(a session's [effects] replaces them when it loads):\n";
}

// How Spindle connects, and how it runs and stops.
constexpr const char* kConnectionsUsage =
    "Connections: at start out_L/out_R go to the system's playback (JACK: the first two physical\n"
    "playback ports; PipeWire: the default sink) unless already connected, and every hardware MIDI\n"
    "input (a keyboard, a2jmidid's ports, PipeWire's MIDI bridge) is connected to NAME:midi_in,\n"
    "also when it is plugged in later. A session restores its own connections instead.\n"
    "The saved settings ([connections] audio=0 / midi=0 in ~/.config/spindle/spindle.conf, the\n"
    "window's Settings) turn either off for good.\n"
    "Runs until SIGINT or SIGTERM, then prints a summary; SIGUSR1 prints the stats at once.\n"
    "When the server goes away Spindle keeps trying to reconnect and plays on when it is back.\n"
    "Under the New Session Manager (NSM_URL set) no option is needed: NSM names the client and\n"
    "Spindle keeps its session (instruments, mix, settings) in the folder NSM gives.\n";

}  // namespace

std::string liveUsage() { return optionsUsage() + effectArgsUsage(28) + kConnectionsUsage; }

// SPINDLE_TEST_DISK_DELAY_MS (live tests only): every disk read waits that long, a
// slow disk, so a freewheel test shows whether Spindle waits for the disk.
// The preload the window or spindle-diskbench --save left in spindle.conf, if any.
std::optional<int> savedPreload() {
  const auto frames = control::readSetting(control::userSettingsFile(), "engine", "preloadFrames");
  if (!frames || *frames < -1 || *frames > (1 << 22)) return std::nullopt;
  return static_cast<int>(*frames);
}

io::ConnectionPolicy connectionPolicyFor(const LiveArgs& args) {
  const auto saved = [](const char* key) {
    const auto value = control::readSetting(control::userSettingsFile(), "connections", key);
    return !value || *value != 0;
  };
  io::ConnectionPolicy policy;
  policy.audio = args.connectAudio.value_or(saved("audio"));
  policy.midi = args.connectMidi.value_or(saved("midi"));
  policy.midiFrom = args.midiFrom;
  return policy;
}

stream::StreamingOptions streamingOptionsFor(const LiveArgs& args) {
  const int64_t preload = args.preloadFrames ? *args.preloadFrames
                                             : savedPreload().value_or(stream::StreamingOptions::kDefaultPreloadFrames);
  stream::StreamingOptions options =
      stream::liveStreamingOptions(preload, static_cast<std::size_t>(args.cacheMiB) << 20);
  options.memoryBudget = static_cast<std::size_t>(args.memoryBudgetMiB) << 20;
  const char* delay = std::getenv("SPINDLE_TEST_DISK_DELAY_MS");
  if (delay && std::atoi(delay) > 0) {
    const auto ms = std::chrono::milliseconds(std::atoi(delay));
    options.disk.beforeRead = [ms] {
      std::this_thread::sleep_for(ms);
      return true;
    };
  }
  return options;
}

}  // namespace spindle::app
