#pragma once
// Command-line arguments of spindle-render, parsed and range-checked.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/MpeArgs.h"
#include "core/EffectParams.h"
#include "io/WavWriter.h"

namespace spindle::app {

struct RenderArgs {
  std::string sfz, midi, wav;
  std::string scale, keymap;  // Scala .scl and .kbm every part plays in (instrument/Scala.h)
  int rate = 48000;
  int block = 256;
  int quality = 1;  // engine::Quality: 0 linear, 1 hermite, 2 sinc, 3 high sinc
  int polyphony = 256;
  io::WavFormat format = io::WavFormat::Float32;
  uint32_t seed = 1;
  EffectValues effects;  // the shared reverb and chorus (app/EffectArgs.h)
  MpeZones mpe;          // --mpe: MPE zones set by hand (app/MpeArgs.h); default off
  float tempo = 0.0f;    // --tempo: the set tempo, BPM (app/TempoArgs.h); 0: none, the song's
  // Disk streaming (stream::StreamingOptions): preload < 0 holds every sample whole.
  // Offline defaults, not the live ones (16384 frames, 64 MiB): a render waits for the
  // disk, so a preload buys no latency, and the memory it would take holds more frames
  // as 16-bit cache blocks. The cache has the live budget, 64 MiB, paid for by fewer
  // idle readers and no unused sinc tables, plus the 10 MiB a session's 320 rings take
  // (256 voices): a render has no rings, its voices read the blocks (rt/StreamBank.h).
  // docs/benchmarks.md, "The dense FLAC piano": its peak RSS with these defaults.
  int64_t preloadFrames = 0;
  int streams = 0;                // 0: as many as --polyphony
  int readKiB = 256;              // one disk read, KiB of 16-bit stereo audio
  int cacheMiB = 74;              // decoded-block cache budget
  bool help = false, version = false;
};

// Parses argv[1..]; nullopt with `error` set (one line, no program name) when the
// arguments are wrong. --help and --version need no other argument.
std::optional<RenderArgs> parseRenderArgs(const std::vector<std::string>& args, std::string& error);
std::string renderUsage();

}  // namespace spindle::app
