// spindle-render, run as the built executable.
#include <algorithm>
#include <cmath>
#include <regex>

#include "Fixtures.h"
#include "RunProcess.h"
#include "catch.h"
#include "io/MidiFile.h"
#include "spindle/Version.h"
#include "io/SmfBuilder.h"
#include "stream/SamplePool.h"
#include "stream/TestAudioFiles.h"

namespace render_tool_tests {

using spindle::test::runProcess;
using spindle::test::scratchDir;
using spindle::test::TrackBuilder;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr int kRate = 48000;
constexpr int kNotes = 20;
constexpr double kSpacing = 0.8;  // seconds between note-ons; each cabasa hit lasts ~0.65 s

// `count` hits of `key`, one every kSpacing seconds (480 ticks = 0.5 s at 120 bpm).
std::filesystem::path writeRepeatedNotes(const std::filesystem::path& dir, int key, int count) {
  TrackBuilder track;
  const auto k = static_cast<uint8_t>(key);
  for (int i = 0; i < count; ++i)
    track.event(i == 0 ? 0 : 768 - 96, {0x90, k, 100}).event(96, {0x80, k, 0});
  track.end();
  const auto path = dir / "repeated.mid";
  spindle::test::saveBytes(path, spindle::test::buildSmf(0, 480, {track}));
  return path;
}

// The value after "label:" on a summary line, e.g. summaryValue(out, "regions") == "250".
std::string summaryValue(const std::string& out, const std::string& label) {
  std::smatch match;
  const std::regex line("(^|\n)" + label + ":\\s+([^\n]*)");
  return std::regex_search(out, match, line) ? match[2].str() : std::string("<no " + label + " line>");
}

struct Window {
  std::vector<float> frames;
  float peak = 0.0f;
};

// Left-channel frames [onset, onset + length) of each note.
std::vector<Window> noteWindows(const spindle::SampleData& wav, int count, int64_t length) {
  std::vector<Window> windows;
  for (int i = 0; i < count; ++i) {
    const int64_t onset = spindle::io::secondsToFrames(i * kSpacing, kRate);
    Window w;
    for (int64_t f = onset; f < std::min(onset + length, wav.totalFrames); ++f) {
      w.frames.push_back(wav.frameAt(0, f));
      w.peak = std::max(w.peak, std::abs(wav.frameAt(0, f)));
    }
    windows.push_back(std::move(w));
  }
  return windows;
}

bool sameWaveform(const Window& a, const Window& b) {
  if (a.frames.size() != b.frames.size()) return false;
  for (std::size_t i = 0; i < a.frames.size(); ++i)
    if (std::abs(a.frames[i] - b.frames[i]) > 1e-6f) return false;
  return true;
}

}  // namespace

TEST_CASE("spindle-render plays Dim Cabasa's round robins, one different hit after another", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "dim_cabasa/Dim Cabasa.sfz");
  const auto dir = scratchDir("render-cabasa");
  const auto midi = writeRepeatedNotes(dir, 69, kNotes);  // key 69: the backward strokes
  const auto wav = dir / "out.wav";
  const auto run = runProcess({kExe, "--sfz", (fixtures / "dim_cabasa" / "Dim Cabasa.sfz").string(), "--midi",
                               midi.string(), "--wav", wav.string(), "--seed", "7"}, dir);
  INFO(run.out << run.err);
  REQUIRE(run.exitCode == 0);
  CHECK(summaryValue(run.out, "regions") == "250");
  CHECK(summaryValue(run.out, "samples").rfind("250 loaded of 250 ", 0) == 0);
  CHECK(summaryValue(run.out, "missing files") == "0");
  CHECK(summaryValue(run.out, "unknown opcodes") == "0");
  CHECK(summaryValue(run.out, "notes started").rfind("20 ", 0) == 0);
  CHECK(summaryValue(run.out, "peak voices") != "0");

  spindle::stream::SamplePool pool;
  const spindle::SampleData* out = pool.acquire(wav.string());
  REQUIRE(out != nullptr);
  CHECK(out->sampleRate == kRate);
  CHECK(out->totalFrames >= spindle::io::secondsToFrames((kNotes - 1) * kSpacing + 0.5, kRate));
  const auto windows = noteWindows(*out, kNotes, kRate / 4);
  int distinct = 0;
  for (int i = 0; i < kNotes; ++i) {
    INFO("note " << i);
    CHECK(windows[i].peak > 0.01f);  // every hit sounds
    if (i > 0) CHECK_FALSE(sameWaveform(windows[i], windows[i - 1]));  // seq_position moves on
    distinct += std::none_of(windows.begin(), windows.begin() + i, [&](const Window& w) { return sameWaveform(w, windows[i]); });
  }
  CHECK(distinct >= 10);  // 5 sequence positions x 10 random layers: repeats are rare
}

TEST_CASE("spindle-render renders the same seed identically and another seed differently", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "dim_cabasa/Dim Cabasa.sfz");
  const auto dir = scratchDir("render-seed");
  const auto midi = writeRepeatedNotes(dir, 70, 10);
  const auto sfz = (fixtures / "dim_cabasa" / "Dim Cabasa.sfz").string();
  const auto render = [&](const std::string& seed, const std::string& name) {
    const auto run = runProcess({kExe, "--sfz", sfz, "--midi", midi.string(), "--wav", (dir / name).string(),
                                 "--seed", seed, "--format", "s16", "--block", "64"}, dir);
    REQUIRE(run.exitCode == 0);
    return spindle::test::readText(dir / name);
  };
  const std::string a = render("1", "a.wav"), b = render("1", "b.wav"), c = render("2", "c.wav");
  CHECK(a.size() > 44 + 4 * kRate * 5);
  CHECK(a == b);
  CHECK(a != c);
}

TEST_CASE("spindle-render names the missing instrument and exits non-zero") {
  const auto dir = scratchDir("render-missing");
  const auto midi = writeRepeatedNotes(dir, 60, 1);
  const auto missing = (dir / "no such piano.sfz").string();
  const auto run = runProcess({kExe, "--sfz", missing, "--midi", midi.string(), "--wav", (dir / "o.wav").string()}, dir);
  CHECK(run.exitCode == 1);
  CHECK(run.err.find(missing) != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "o.wav"));
}

TEST_CASE("spindle-render names an unreadable MIDI file and the byte where it broke") {
  const auto dir = scratchDir("render-bad-midi");
  std::ofstream(dir / "song.mid") << "MThd";
  std::ofstream(dir / "x.sfz") << "<region> sample=*sine\n";
  const auto run = runProcess({kExe, "--sfz", (dir / "x.sfz").string(), "--midi", (dir / "song.mid").string(),
                               "--wav", (dir / "o.wav").string()}, dir);
  CHECK(run.exitCode == 1);
  CHECK(run.err.find((dir / "song.mid").string() + ": byte 4: unexpected end of data") != std::string::npos);
}

TEST_CASE("spindle-render reports a bad SFZ line as file:line") {
  const auto dir = scratchDir("render-bad-line");
  const auto sfz = dir / "bad.sfz";
  std::ofstream(sfz) << "// a sine on every key\n<region> sample=*sine\n<region lokey=60 sample=*sine\n";
  const auto midi = writeRepeatedNotes(dir, 60, 1);
  const auto run = runProcess({kExe, "--sfz", sfz.string(), "--midi", midi.string(), "--wav", (dir / "o.wav").string()}, dir);
  INFO(run.out << run.err);
  CHECK(run.err.find(sfz.string() + ":3: ") != std::string::npos);
}

TEST_CASE("spindle-render usage: --help, --version, wrong arguments") {
  const auto dir = scratchDir("render-usage");
  const auto help = runProcess({kExe, "--help"}, dir);
  CHECK(help.exitCode == 0);
  CHECK(help.out.find("--polyphony") != std::string::npos);
  const auto version = runProcess({kExe, "--version"}, dir);
  CHECK(version.exitCode == 0);
  CHECK(version.out == std::string("spindle-render ") + spindle::kVersion + "\n");
  const auto bad = runProcess({kExe, "--sfz", "a.sfz", "--midi", "b.mid", "--wav", "c.wav", "--quality", "7"}, dir);
  CHECK(bad.exitCode == 2);
  CHECK(bad.err.find("invalid value '7' for --quality") != std::string::npos);
  const auto incomplete = runProcess({kExe, "--sfz", "a.sfz"}, dir);
  CHECK(incomplete.exitCode == 2);
  CHECK(incomplete.err.find("--midi is required") != std::string::npos);
}

}  // namespace render_tool_tests
