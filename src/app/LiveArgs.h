#pragma once
// Command-line arguments of `spindle` (live playing), parsed and range-checked.
#include <optional>
#include <string>
#include <vector>

#include "app/MpeArgs.h"
#include "control/HostControl.h"
#include "core/EffectParams.h"
#include "io/Connections.h"
#include "stream/Streaming.h"

namespace spindle::app {

struct LiveArgs {
  bool headless = false;
  std::string instrument;         // .sfz
  std::string scale, keymap;      // Scala .scl and .kbm every part plays in (instrument/Scala.h)
  std::string backend;            // jack | pipewire; empty: whichever server runs
  std::string name = "spindle";   // client / node name
  std::string midiDevice;         // raw MIDI device node or named pipe
  bool alsaSeq = false;           // also read the ALSA sequencer
  bool multiOut = false;          // JACK: ports out_<k>_L/R per part besides the main mix
  std::string noteLog;            // one line per note-on with its latency
  int polyphony = 256;
  int quality = 1;
  int memoryBudgetMiB = 0;           // sample data in RAM per instrument pool; 0: half the RAM
  // Frames of each sample kept in RAM (-1: every sample whole); unset: the saved setting
  // (spindle.conf, as the window and spindle-diskbench --save write it), else the default.
  std::optional<int> preloadFrames;
  int cacheMiB = 0;                  // the block cache's budget; 0: the default
  int oscPort = 9951;                // OSC on UDP and TCP; 0: off
  std::string oscBind = "127.0.0.1"; // the address the OSC sockets bind to
  std::string oscSecretFile;         // the cluster's shared secret: signed OSC (control/OscAuth.h)
  bool oscInsecure = false;          // a network --osc-bind without a secret, on purpose
  bool oscRequireSigned = false;     // loopback peers must sign too
  std::string oscIdentity;           // its name in signed OSC; empty: HOSTNAME/CLIENT when signing
  // What Spindle connects by itself (io/Connections.h); unset: the saved setting
  // (spindle.conf [connections] audio= / midi=, as the window writes it), else on.
  std::optional<bool> connectAudio, connectMidi;
  std::vector<std::string> midiFrom;  // --midi-from: follow only these MIDI sources
  EffectValues effects;               // the shared reverb and chorus (app/EffectArgs.h)
  std::optional<float> tempo;         // --tempo: the set tempo, BPM (app/TempoArgs.h)
  std::optional<MpeZones> mpe;        // --mpe: MPE zones set by hand (app/MpeArgs.h)
  std::vector<control::HostSettings> hosts;  // --host NAME=ADDR[:PORT][@JACKCLIENT]: remote Spindles this one drives
  bool help = false, version = false;
};

// Parses argv[1..]; nullopt with `error` set (one line) when the arguments are wrong.
// `underNsm` (NSM_URL set): the session manager starts Spindle without arguments, so
// --headless is implied and no instrument is loaded (the NSM session loads instruments).
// Otherwise an empty `instrument` means the bundled one (BundledInstrument.h).
std::optional<LiveArgs> parseLiveArgs(const std::vector<std::string>& args, std::string& error,
                                      bool underNsm = false);
std::string liveUsage();

// The streaming options the arguments ask for (preload, block cache, memory budget),
// the saved preload (control/UserSettings.h) when no --preload-frames was given. Live
// tests only:
// SPINDLE_TEST_DISK_DELAY_MS makes every disk read wait that long (a slow disk).
stream::StreamingOptions streamingOptionsFor(const LiveArgs& args);

// The connection policy the arguments ask for, the saved settings where they are silent.
io::ConnectionPolicy connectionPolicyFor(const LiveArgs& args);

}  // namespace spindle::app
