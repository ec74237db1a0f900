// spindle-render with disk streaming: the flags, the memory budget printed at load,
// output identical to a render with every sample in RAM, and a sample whose middle
// cannot be decoded named with a non-zero exit.
#include <sndfile.h>

#include <random>
#include <regex>

#include "RunProcess.h"
#include "catch.h"
#include "io/SmfBuilder.h"
#include "stream/TestAudioFiles.h"

namespace streaming_render_tool_tests {

using spindle::test::runProcess;
using spindle::test::scratchDir;
using spindle::test::TrackBuilder;

namespace {
const std::string kExe = SPINDLE_RENDER_EXE;

std::string lineAfter(const std::string& out, const std::string& label) {
  std::smatch match;
  return std::regex_search(out, match, std::regex("(^|\n)" + label + ":\\s+([^\n]*)")) ? match[2].str() : "";
}
}  // namespace

TEST_CASE("spindle-render streams past the preload and writes what an all-in-RAM render writes") {
  const auto dir = scratchDir("render-streaming");
  std::vector<int16_t> frames(2 * 240000);
  for (std::size_t i = 0; i < frames.size(); ++i) frames[i] = static_cast<int16_t>((i * 7919) % 50000 - 25000);
  spindle::test::writeWav16(dir / "long.wav", 2, frames, 48000);
  std::ofstream(dir / "x.sfz") << "<region> sample=long.wav loop_mode=loop_continuous loop_start=1000 loop_end=150000\n";
  TrackBuilder track;
  track.event(0, {0x90, 60, 100}).event(0, {0x90, 67, 100}).event(4800, {0x80, 60, 0}).event(0, {0x80, 67, 0}).end();
  spindle::test::saveBytes(dir / "song.mid", spindle::test::buildSmf(0, 480, {track}));  // held 5 s
  const auto render = [&](const std::string& preload, const std::string& name) {
    const auto run = runProcess({kExe, "--sfz", (dir / "x.sfz").string(), "--midi", (dir / "song.mid").string(), "--wav",
                                 (dir / name).string(), "--preload-frames", preload, "--read-size", "16", "--streams", "8"},
                                dir);
    INFO(run.out << run.err);
    REQUIRE(run.exitCode == 0);
    return run.out;
  };
  const std::string ram = render("-1", "ram.wav");
  const std::string streamed = render("2048", "streamed.wav");
  CHECK(lineAfter(ram, "memory").find("every sample whole in RAM") != std::string::npos);
  // 2048 frames for the highest pitch the region plays: on every key, up to 67 semitones
  // above its center, it takes the most (8 times: 16384 frames) and the guards, 16-bit
  // stereo: 65792 bytes a sample.
  CHECK(lineAfter(streamed, "memory").find("(1 of 1 samples streamed, 64.2 KiB a sample) + 8 streams + 74.0 MiB block cache") !=
        std::string::npos);
  CHECK(lineAfter(streamed, "disk streaming").find(" 0 underruns") != std::string::npos);
  const std::string a = spindle::test::readText(dir / "ram.wav"), b = spindle::test::readText(dir / "streamed.wav");
  CHECK(a.size() > 44 + 8 * 48000 * 5);
  CHECK(a == b);  // the whole file, header included (no time-stamped PEAK chunk)
}

TEST_CASE("spindle-render names a sample damaged after its header and exits 3") {
  const auto dir = scratchDir("render-damaged-flac");
  const auto flac = dir / "long.flac";
  SF_INFO info{};
  info.samplerate = 48000;
  info.channels = 1;
  info.format = SF_FORMAT_FLAC | SF_FORMAT_PCM_16;
  SNDFILE* file = sf_open(flac.c_str(), SFM_WRITE, &info);
  REQUIRE(file);
  std::mt19937 random(7);
  std::vector<float> noise(48000 * 6);
  for (float& x : noise) x = std::uniform_real_distribution<float>(-0.5f, 0.5f)(random);
  REQUIRE(sf_writef_float(file, noise.data(), static_cast<sf_count_t>(noise.size())) ==
          static_cast<sf_count_t>(noise.size()));
  sf_close(file);
  std::string bytes = spindle::test::readText(flac);
  REQUIRE(bytes.size() > 100000);
  for (std::size_t k = bytes.size() / 3; k < bytes.size(); ++k) bytes[k] = static_cast<char>(0x55);  // no frame sync left
  std::ofstream(flac, std::ios::binary | std::ios::trunc) << bytes;
  std::ofstream(dir / "x.sfz") << "<region> sample=long.flac\n";
  TrackBuilder track;
  track.event(0, {0x90, 60, 100}).event(4800, {0x80, 60, 0}).end();  // held 5 s: past the damage
  spindle::test::saveBytes(dir / "song.mid", spindle::test::buildSmf(0, 480, {track}));
  const auto run = runProcess({kExe, "--sfz", (dir / "x.sfz").string(), "--midi", (dir / "song.mid").string(), "--wav",
                               (dir / "out.wav").string(), "--preload-frames", "4096"},
                              dir);
  INFO(run.out << run.err);
  CHECK(run.exitCode == 3);
  CHECK(run.err.find("1 sample file could not be read during the render") != std::string::npos);
  CHECK(run.err.find(flac.string()) != std::string::npos);
  CHECK(lineAfter(run.out, "output").find("out.wav") != std::string::npos);  // the render was written
}

TEST_CASE("spindle-render rejects streaming flags out of range") {
  const auto dir = scratchDir("render-streaming-args");
  const auto bad = runProcess({kExe, "--sfz", "a.sfz", "--midi", "b.mid", "--wav", "c.wav", "--streams", "0"}, dir);
  CHECK(bad.exitCode == 2);
  CHECK(bad.err.find("invalid value '0' for --streams") != std::string::npos);
  const auto help = runProcess({kExe, "--help"}, dir);
  CHECK(help.out.find("--preload-frames") != std::string::npos);
}

}  // namespace streaming_render_tool_tests
