// spindle-bench-live: how many streaming voices Spindle holds in real time, and how
// its process time is distributed while a disk writer runs beside it (the 1999
// latencytest idea (Benno Senoner's), applied to the engine's cycle).
//
//   spindle-bench-live ceiling [DIR]  voices 32, 64, ... until the process-time p99
//                                     reaches 70% of the budget (period 256, 48 kHz)
//   spindle-bench-live disk VOICES [DIR]   the distribution without, then with, a
//                                     writer thread streaming 1 MiB writes + fsync
//   spindle-bench-live library DIR    only writes the library (bench/jack_ceiling.py
//                                     plays it through a real jackd), with a 16-bit
//                                     FLAC copy of every file (noiseN.flac)
//   spindle-bench-live burst DIR      writes 64 different files of 10 s (burstN.wav and
//                                     .flac) and burst_wav.sfz / burst_flac.sfz, file N
//                                     on key 61 + N (tests/stream_live/burst_live.sh)
//
// The audio thread is simulated without a sound server: a SCHED_FIFO thread wakes on
// an absolute clock every period (clock_nanosleep) and runs LiveProcessor + Engine
// exactly as a backend would. Samples: 16 files of 20 s stereo noise, streamed from
// disk after the default preload (they sit in the page cache after being written).
#include <fcntl.h>
#include <pthread.h>
#include <sndfile.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "session/Loader.h"
#include "engine/Engine.h"
#include "io/LiveProcessor.h"
#include "io/RealtimeSetup.h"
#include "io/WavWriter.h"
#include "stream/Streaming.h"

namespace {

namespace fs = std::filesystem;
constexpr int kPeriod = 256;
constexpr double kRate = 48000.0;
constexpr int kFiles = 16;
constexpr int kSeconds = 20;

// The same frames as 16-bit FLAC (noise barely compresses: the decoder does full work).
void writeFlacCopy(const fs::path& wav, const fs::path& flac) {
  if (fs::exists(flac)) return;
  SF_INFO in{};
  SNDFILE* src = sf_open(wav.c_str(), SFM_READ, &in);
  if (!src) return;
  SF_INFO out{};
  out.samplerate = in.samplerate, out.channels = in.channels, out.format = SF_FORMAT_FLAC | SF_FORMAT_PCM_16;
  SNDFILE* dst = sf_open(flac.c_str(), SFM_WRITE, &out);
  std::vector<short> buffer(static_cast<size_t>(4096 * in.channels));
  sf_count_t got = 0;
  while (dst && (got = sf_readf_short(src, buffer.data(), 4096)) > 0) sf_writef_short(dst, buffer.data(), got);
  if (dst) sf_close(dst);
  sf_close(src);
}

// `seconds` of stereo noise, 16-bit, unless the file is there already.
void writeNoise(const fs::path& wav, int seconds, std::mt19937& rng) {
  if (fs::exists(wav)) return;
  std::uniform_real_distribution<float> noise(-0.1f, 0.1f);
  std::vector<float> l(static_cast<size_t>(kRate)), r(l.size());
  std::string error;
  auto w = spindle::io::WavWriter::create(wav, static_cast<int>(kRate), spindle::io::WavFormat::Int16, error);
  for (int s = 0; s < seconds && w; ++s) {
    for (size_t i = 0; i < l.size(); ++i) l[i] = noise(rng), r[i] = noise(rng);
    w->write(l.data(), r.data(), static_cast<int64_t>(l.size()));
  }
  if (w) w->close();
}

void writeBurstLibrary(const fs::path& dir) {
  fs::create_directories(dir);
  std::ofstream wavSfz(dir / "burst_wav.sfz"), flacSfz(dir / "burst_flac.sfz");
  std::mt19937 rng(2);
  for (int f = 0; f < 64; ++f) {
    const std::string name = "burst" + std::to_string(f);
    writeNoise(dir / (name + ".wav"), 10, rng);
    writeFlacCopy(dir / (name + ".wav"), dir / (name + ".flac"));
    for (const auto& [sfz, ext] : {std::pair{&wavSfz, ".wav"}, std::pair{&flacSfz, ".flac"}})
      *sfz << "<region> sample=" << name << ext << " key=" << 61 + f << " amp_veltrack=0 ampeg_release=0.05\n";
  }
}

void writeLibrary(const fs::path& dir) {
  fs::create_directories(dir);
  std::ofstream sfz(dir / "noise.sfz");
  std::mt19937 rng(1);
  for (int f = 0; f < kFiles; ++f) {
    const fs::path wav = dir / ("noise" + std::to_string(f) + ".wav");
    writeNoise(wav, kSeconds, rng);
    writeFlacCopy(wav, dir / ("noise" + std::to_string(f) + ".flac"));
    for (int key = f * 8; key < f * 8 + 8; ++key)
      sfz << "<region> sample=" << wav.filename().string() << " key=" << key << " pitch_keycenter=" << key
          << " amp_veltrack=0\n";
  }
}

struct Result {
  spindle::io::ProcessHistogram histogram;
  uint64_t underruns = 0;
  uint32_t voices = 0;
};

// Starts `voices` notes (8 per period, over 16 channels x 128 keys), lets them settle,
// then measures `seconds` of periods on a SCHED_FIFO 70 thread.
Result measure(const spindle::engine::Program& program, int voices, double seconds) {
  spindle::stream::StreamingOptions options;
  spindle::stream::Streaming streaming(options, 4096);
  spindle::engine::EngineConfig config;
  config.polyphony = 4096;
  config.maxBlockFrames = kPeriod;
  config.streams = streaming.bank();
  spindle::engine::Engine engine(config);
  for (int part = 0; part < 16; ++part) {
    spindle::engine::Command c;
    c.type = spindle::engine::CommandType::SetProgram;
    c.part = static_cast<int8_t>(part);
    c.program = &program;
    (void)engine.postCommand(c);
  }
  auto live = std::make_unique<spindle::io::LiveProcessor>(engine);
  std::vector<float> left(kPeriod), right(kPeriod);
  Result result;
  std::thread audio([&] {
    spindle::io::setThreadPriority(pthread_self(), 70, "audio");
    const int settle = voices / 8 + 100, total = settle + static_cast<int>(seconds * kRate / kPeriod);
    timespec next{};
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (int cycle = 0; cycle < total; ++cycle) {
      next.tv_nsec += static_cast<long>(1e9 * kPeriod / kRate);
      if (next.tv_nsec >= 1000000000) next.tv_sec += 1, next.tv_nsec -= 1000000000;
      clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr);
      live->beginCycle({static_cast<uint64_t>(cycle) * kPeriod, kPeriod, spindle::io::monotonicNs(), kRate});
      for (int n = cycle * 8; n < voices && n < cycle * 8 + 8; ++n) {
        const uint8_t on[3] = {static_cast<uint8_t>(0x90 | (n / 128)), static_cast<uint8_t>(n % 128), 100};
        live->addPortEvent(static_cast<uint32_t>(n % 8) * 31, on, 3);
      }
      live->endCycle(left.data(), right.data());
      if (cycle == settle) result.histogram = live->stats().process;
    }
  });
  audio.join();
  const auto stats = live->stats();
  spindle::io::ProcessHistogram after = stats.process, before = result.histogram;
  for (size_t i = 0; i < after.counts.size(); ++i) after.counts[i] -= before.counts[i];
  after.cycles -= before.cycles;
  after.overBudget -= before.overBudget;
  result.histogram = after;
  result.underruns = stats.streamUnderruns;
  result.voices = stats.activeVoices;
  engine.collectAllPrograms([](const spindle::engine::Program*) {});
  return result;
}

void print(const char* label, const Result& r) {
  std::printf("%-24s voices %4u  p50 <%3.0f%%  p99 <%3.0f%%  p99.9 <%3.0f%%  max %.3f ms  over budget %llu  "
              "underruns %llu\n  histogram:", label, r.voices, r.histogram.percentile(0.5), r.histogram.percentile(0.99),
              r.histogram.percentile(0.999), static_cast<double>(r.histogram.maxNs) / 1e6,
              static_cast<unsigned long long>(r.histogram.overBudget), static_cast<unsigned long long>(r.underruns));
  for (size_t i = 0; i < r.histogram.counts.size(); ++i)
    if (r.histogram.counts[i]) std::printf(" %zu%%:%llu", i * 5, static_cast<unsigned long long>(r.histogram.counts[i]));
  std::printf("\n");
}

// Writes 1 MiB blocks with an fsync every 16 MiB, rewriting one 512 MiB file, until told to stop.
void diskWriter(const fs::path& file, const std::atomic<bool>& stop, uint64_t& written) {
  std::vector<char> block(1 << 20, 'x');
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  for (uint64_t i = 0; fd >= 0 && !stop.load(); ++i) {
    if (i % 512 == 0) ::lseek(fd, 0, SEEK_SET);
    if (::write(fd, block.data(), block.size()) < 0) break;
    written += block.size();
    if (i % 16 == 15) ::fsync(fd);
  }
  if (fd >= 0) ::close(fd);
  fs::remove(file);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "ceiling";
  const int argDir = mode == "disk" ? 3 : 2;
  const fs::path dir = argc > argDir ? fs::path(argv[argDir]) : fs::temp_directory_path() / "spindle-bench-live";
  if (mode == "burst") {
    writeBurstLibrary(dir);
    return 0;
  }
  writeLibrary(dir);
  if (mode == "library") return 0;
  spindle::session::Loader loader(spindle::stream::poolOptionsFor(spindle::stream::StreamingOptions{}));
  auto loaded = loader.load(dir / "noise.sfz");
  if (!loaded.program) return std::fprintf(stderr, "cannot load %s\n", (dir / "noise.sfz").c_str()), 1;
  std::printf("period %d frames at %.0f Hz: budget %.3f ms; %d files x %d s, preload %lld frames\n", kPeriod, kRate,
              1000.0 * kPeriod / kRate, kFiles, kSeconds,
              static_cast<long long>(spindle::stream::StreamingOptions::kDefaultPreloadFrames));
  if (mode == "disk") {
    const int voices = argc > 2 ? std::stoi(argv[2]) : 64;
    print("no writer", measure(*loaded.program, voices, 10.0));
    std::atomic<bool> stop{false};
    uint64_t written = 0;
    std::thread writer([&] { diskWriter(dir / "writer.tmp", stop, written); });
    const Result withWriter = measure(*loaded.program, voices, 10.0);
    stop.store(true);
    writer.join();
    print("1 MiB writes + fsync", withWriter);
    std::printf("writer: %.0f MiB written during the run\n", static_cast<double>(written) / (1 << 20));
    return 0;
  }
  int ceiling = 0;
  for (int voices = 32; voices <= 2048; voices += voices < 256 ? 32 : 64) {
    const Result r = measure(*loaded.program, voices, 3.0);
    print(("voices " + std::to_string(voices)).c_str(), r);
    if (r.histogram.percentile(0.99) >= 70.0 || r.underruns > 0) break;
    ceiling = voices;
  }
  std::printf("polyphony ceiling (p99 < 70%% of the budget, no underrun): %d streaming voices\n", ceiling);
  return 0;
}
