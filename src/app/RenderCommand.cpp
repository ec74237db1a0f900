#include "app/RenderCommand.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/ExitCodes.h"
#include "app/RenderArgs.h"
#include "core/Limits.h"
#include "engine/Engine.h"
#include "io/MidiFile.h"
#include "io/OfflineRenderer.h"
#include "io/WavWriter.h"
#include "session/Loader.h"
#include "session/Tuning.h"
#include "spindle/Version.h"
#include "stream/Streaming.h"

namespace spindle::app {

namespace {

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// Prints the parser's and the pool's problems to `err`, one per line.
void printLoadProblems(const session::LoadReport& report, std::ostream& err) {
  for (const instrument::Diagnostic& diagnostic : report.diagnostics) err << session::formatDiagnostic(diagnostic) << '\n';
  for (const std::string& file : report.missingFiles) err << "spindle-render: missing sample: " << file << '\n';
  for (const session::SampleError& error : report.sampleErrors) err << "spindle-render: " << error.message << '\n';
  for (const std::string& message : report.sampleWarnings) err << "spindle-render: warning: " << message << '\n';
}

void printLoadSummary(const session::LoadReport& report, std::ostream& out) {
  out << "instrument:      " << report.name << " (" << report.sfzPath.string() << ")\n"
      << "regions:         " << report.regions << '\n'
      << "samples:         " << report.samplesLoaded << " loaded of " << report.samples << " ("
      << fixed(static_cast<double>(report.bytesInRam) / (1024.0 * 1024.0), 1) << " MiB in RAM, "
      << fixed(report.seconds, 2) << " s)\n"
      << "missing files:   " << report.missingFiles.size() << '\n'
      << "sample errors:   " << report.sampleErrors.size() << '\n'
      << "unknown opcodes: " << report.unknownOpcodes.size();
  for (std::size_t i = 0; i < report.unknownOpcodes.size(); ++i)
    out << (i ? ", " : " (") << report.unknownOpcodes[i] << (i + 1 == report.unknownOpcodes.size() ? ")" : "");
  out << '\n'
      << "diagnostics:     errors " << report.errorCount() << ", warnings "
      << report.diagnostics.size() - report.errorCount() << '\n';
}

void printRenderSummary(const RenderArgs& args, const io::MidiSong& song, const io::RenderStats& stats,
                        std::ostream& out) {
  const double seconds = static_cast<double>(stats.frames) / args.rate;
  out << "song:            " << song.name << " (" << song.events.size() << " events, "
      << fixed(song.lengthSeconds, 2) << " s)\n"
      << "output:          " << args.wav << " (" << io::wavFormatName(args.format) << ", " << args.rate
      << " Hz, " << stats.frames << " frames, " << fixed(seconds, 2) << " s"
      << (stats.tailCapped ? ", tail cut at the cap" : "") << ")\n"
      << "peak voices:     " << stats.peakVoices << '\n'
      << "notes started:   " << stats.notesStarted << " (" << stats.voicesStolen << " voices stolen)\n"
      << "render time:     " << fixed(stats.wallSeconds, 3) << " s wall, " << fixed(stats.cpuSeconds, 3)
      << " s CPU (engine " << fixed(stats.processSeconds, 3) << " s, "
      << fixed(stats.processSeconds > 0.0 ? seconds / stats.processSeconds : 0.0, 1) << "x real time)\n";
}

std::optional<io::MidiSong> readSong(const std::string& path, std::ostream& err) {
  try {
    io::MidiSong song = io::readMidiFile(path);
    for (const std::string& warning : song.warnings) err << "spindle-render: warning: " << warning << '\n';
    return song;
  } catch (const io::MidiFileError& e) {
    err << "spindle-render: cannot read MIDI file " << e.what() << '\n';
    return std::nullopt;
  }
}

stream::StreamingOptions streamingOptions(const RenderArgs& args) {
  stream::StreamingOptions options;
  options.preloadFrames = args.preloadFrames;
  options.streams = args.streams;
  options.disk.readBytes = int64_t{args.readKiB} * 1024;
  options.disk.cacheBytes = static_cast<std::size_t>(args.cacheMiB) << 20;
  // 8 idle readers of PCM and FLAC files, not 64: reopening one costs an open and a
  // seek by a noted offset, while 56 more idle FLAC readers held 7 MiB the block cache
  // uses better (docs/streaming.md, "The block cache"). Vorbis and Opus readers stay up to 64.
  options.disk.exactCacheLimit = 8;
  // No disk thread: the render waits for the disk anyway (Engine::processWaiting), so it
  // runs the disk's rounds itself where it would wait (rt/StreamBank.h): the same output,
  // and the frames it decodes are read from its own core's caches.
  options.disk.threaded = false;
  return options;
}

void printStreamingSummary(const engine::EngineStats& engineStats, const stream::Streaming& streaming,
                           std::ostream& out) {
  if (streaming.enabled()) out << "disk streaming:  " << streaming.report(engineStats.sourceUnderruns) << '\n';
}

engine::EngineConfig engineConfig(const RenderArgs& args) {
  engine::EngineConfig config;
  config.sampleRate = args.rate;
  config.maxBlockFrames = args.block;
  config.polyphony = args.polyphony;
  config.quality = static_cast<engine::Quality>(args.quality);
  config.randomSeed = args.seed;
  config.effects = engine::effectsSettings(args.effects);
  return config;
}

// After a render: the files the disk could not read or decode while it ran (their
// voices went silent from there), named once each; a non-zero status when any.
int reportReadErrors(const std::vector<stream::DiskError>& errors, const std::string& wav, std::ostream& err) {
  if (errors.empty()) return 0;
  std::vector<std::string> files;
  for (const stream::DiskError& e : errors)
    if (std::find(files.begin(), files.end(), e.file) == files.end()) files.push_back(e.file);
  err << "spindle-render: " << files.size() << " sample file" << (files.size() == 1 ? "" : "s")
      << " could not be read during the render, so " << wav << " has silence where they should play:";
  for (const std::string& file : files) err << ' ' << file;
  err << '\n';
  return kExitReadDuringRender;
}

// The program and tuning on every part, the MPE zones --mpe sets and the tempo --tempo sets.
void postSetup(engine::Engine& engine, const RenderArgs& args, const engine::Program& program, const KeyTuning& tuning,
               std::ostream& err) {
  for (int part = 0; part < limits::kChannels; ++part) {
    engine::Command command;
    command.type = engine::CommandType::SetProgram;
    command.part = static_cast<int8_t>(part);
    command.program = &program;
    if (!engine.postCommand(command)) err << "spindle-render: the engine refused the program for part " << part << '\n';
    if (!tuning.equal && !engine.setPartTuning(part, tuning))
      err << "spindle-render: the engine refused the tuning for part " << part << '\n';
  }
  for (const bool upper : {false, true}) {
    const int members = upper ? args.mpe.upper : args.mpe.lower;
    if (members == 0) continue;
    engine::Command command;
    command.type = engine::CommandType::SetMpeZone;
    command.flag = upper;
    command.count = members;
    if (!engine.postCommand(command)) err << "spindle-render: the engine refused the MPE zones\n";
  }
  if (args.tempo > 0.0f) {
    engine::Command command;
    command.type = engine::CommandType::SetTempo;
    command.value = args.tempo;
    if (!engine.postCommand(command)) err << "spindle-render: the engine refused the tempo\n";
  }
}

// Renders the song with the program on every part; the program stays owned here.
int renderSong(const RenderArgs& args, const engine::Program& program, const KeyTuning& tuning,
               const io::MidiSong& song, stream::Streaming& streaming, std::ostream& out, std::ostream& err) {
  std::string error;
  auto writer = io::WavWriter::create(args.wav, args.rate, args.format, error);
  if (!writer) {
    err << "spindle-render: cannot write " << args.wav << ": " << error << '\n';
    return kExitInput;
  }
  engine::EngineConfig config = engineConfig(args);
  config.streams = streaming.bank();
  config.sincTables = engine::sincWanted(program, config.quality);  // 1.6 MiB when nothing plays sinc
  engine::Engine engine(config);
  postSetup(engine, args, program, tuning, err);
  io::OfflineRenderer renderer(engine, io::RenderOptions{args.block, song.lengthSeconds, 30.0, {}, song.tempos});
  const io::RenderStats stats = renderer.render(song.events, [&](const float* l, const float* r, int frames) {
    return writer->write(l, r, frames);
  });
  if (streaming.bank()) streaming.bank()->waitUntilReady();  // the last Releases: frames read are counted
  const engine::EngineStats engineStats = engine.stats();
  const std::vector<stream::DiskError> readErrors = streaming.takeDiskErrors();
  for (const stream::DiskError& failed : readErrors) err << "spindle-render: " << failed.message << '\n';
  engine.collectAllPrograms([](const engine::Program*) {});  // lent, not given: nothing to free
  if (stats.sinkFailed || !writer->close()) {
    err << "spindle-render: cannot write " << args.wav << ": " << writer->error() << '\n';
    return kExitInput;
  }
  printRenderSummary(args, song, stats, out);
  printStreamingSummary(engineStats, streaming, out);
  return reportReadErrors(readErrors, args.wav, err);
}

}  // namespace

int runRender(const std::vector<std::string>& argList, std::ostream& out, std::ostream& err) {
  std::string error;
  const auto args = parseRenderArgs(argList, error);
  if (!args) {
    err << "spindle-render: " << error << "\n\n" << renderUsage();
    return kExitUsage;
  }
  if (args->help || args->version) {
    out << (args->help ? renderUsage() : std::string("spindle-render ") + kVersion + "\n");
    return 0;
  }

  const auto song = readSong(args->midi, err);
  if (!song) return kExitInput;
  const std::optional<session::PartTuning> tuning = session::readTuning(args->scale, args->keymap, error);
  if (!tuning) {
    err << "spindle-render: " << error << '\n';
    return kExitInput;
  }
  // The loader's pool outlives `streaming`: its disk rounds read the samples.
  const stream::StreamingOptions streamOptions = streamingOptions(*args);
  stream::PoolOptions poolOptions = stream::poolOptionsFor(streamOptions);
  poolOptions.outputRate = args->rate;  // convolution responses are resampled to it
  session::Loader loader(poolOptions);
  stream::Streaming streaming(streamOptions, args->polyphony);
  const session::Loader::Result loaded = loader.load(args->sfz);
  printLoadProblems(loaded.report, err);
  if (!loaded.program) {
    err << "spindle-render: cannot load instrument " << args->sfz << '\n';
    return kExitInput;
  }
  out << "spindle-render " << kVersion << '\n';
  printLoadSummary(loaded.report, out);
  out << "memory:          " << streaming.budget(loader.pool(), loaded.report.loopTailBytes) << '\n';
  return renderSong(*args, *loaded.program, tuning->tuning, *song, streaming, out, err);
}

}  // namespace spindle::app
