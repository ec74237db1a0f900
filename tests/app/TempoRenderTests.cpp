// spindle-render's tempo: --tempo sets it, over the song's tempo changes; MIDI clocks in
// the song (escapes F7 01 F8) outrank both. A region with delay_beats=1 starts one beat
// after its note-on, so its first sounding frame tells the tempo it played at.
#include <cmath>
#include <fstream>

#include "RunProcess.h"
#include "catch.h"
#include "io/SmfBuilder.h"
#include "stream/SamplePool.h"
#include "stream/TestAudioFiles.h"

namespace tempo_render_tests {

using spindle::test::runProcess;
using spindle::test::scratchDir;
using spindle::test::TrackBuilder;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;

// The first frame above -60 dBFS of the render of `track` with `extra` arguments; -1 if none.
// The sine starts at phase 0, so the first frame heard is the one after the note's start.
long firstSounding(const std::filesystem::path& dir, const std::string& name, const TrackBuilder& track,
                   std::vector<std::string> extra) {
  const auto sfz = dir / "beat.sfz", midi = dir / (name + ".mid"), wav = dir / (name + ".wav");
  std::ofstream(sfz) << "<region> sample=*sine delay_beats=1 amp_veltrack=0\n";
  spindle::test::saveBytes(midi, spindle::test::buildSmf(0, 480, {track}));
  std::vector<std::string> args{kExe, "--sfz", sfz.string(), "--midi", midi.string(), "--wav", wav.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto run = runProcess(args, dir);
  INFO(run.out << run.err);
  REQUIRE(run.exitCode == 0);
  spindle::stream::SamplePool pool;
  const spindle::SampleData* data = pool.acquire(wav.string());
  REQUIRE(data);
  std::vector<float> left(static_cast<size_t>(data->totalFrames));
  data->readFrames(0, 0, data->totalFrames, left.data());
  for (size_t i = 0; i < left.size(); ++i)
    if (std::fabs(left[i]) > 1e-3f) return static_cast<long>(i);
  return -1;
}

TrackBuilder noteAt(uint32_t tick, TrackBuilder track = {}) {
  track.event(tick, {0x90, 60, 100}).event(1920, {0x80, 60, 0}).end();
  return track;
}

}  // namespace

TEST_CASE("spindle-render --tempo sets the tempo a beat lasts; the song's own tempo gives way to it", "[render][tempo]") {
  const auto dir = scratchDir("render-tempo");
  // One beat after the note-on at frame 0: 24000 frames at 120 BPM, 32000 at 90 (+1: the sine's 0).
  CHECK(firstSounding(dir, "default", noteAt(0), {}) == 24001);
  CHECK(firstSounding(dir, "set", noteAt(0), {"--tempo", "90"}) == 32001);
  TrackBuilder song;
  song.tempo(0, 600000);  // 100 BPM
  CHECK(firstSounding(dir, "song", noteAt(0, song), {}) == 28801);
  CHECK(firstSounding(dir, "both", noteAt(0, song), {"--tempo", "90"}) == 32001);
  const auto bad = runProcess({kExe, "--sfz", "x.sfz", "--midi", "x.mid", "--wav", "x.wav", "--tempo", "0"}, dir);
  CHECK(bad.exitCode == 2);
  CHECK(bad.err.find("invalid value '0' for --tempo (expected 1 to 999 BPM)") != std::string::npos);
}

TEST_CASE("spindle-render: MIDI clocks in the song outrank --tempo", "[render][tempo]") {
  const auto dir = scratchDir("render-clock");
  // Clocks every 20 ticks (24 to the quarter at 480 ticks) of a 120 BPM song: 120 BPM,
  // whatever --tempo says. The note-on comes with the fifth clock, at tick 80 (4000 frames).
  TrackBuilder clocks;
  clocks.event(0, {0xF7, 0x01, 0xFA});
  for (int k = 0; k < 5; ++k) clocks.event(k == 0 ? 0 : 20, {0xF7, 0x01, 0xF8});
  CHECK(firstSounding(dir, "clock", noteAt(0, clocks), {"--tempo", "90"}) == 28001);
}

}  // namespace tempo_render_tests
