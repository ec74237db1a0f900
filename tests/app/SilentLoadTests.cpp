// No silent loads: in every format, an instrument with no playable region, and one none
// of whose samples loads, is refused by spindle-render with an error naming the file
// and exit status 1 (formats/SilentLoad.h).
#include <fstream>

#include "../sf2/Sf2Writer.h"
#include "RunProcess.h"
#include "catch.h"
#include "io/SmfBuilder.h"
#include "stream/TestAudioFiles.h"

namespace silent_load_tests {

using spindle::test::runProcess;
using spindle::test::scratchDir;
namespace fs = std::filesystem;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;

fs::path writeText(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
  return file;
}

// spindle-render on `instrument` exits 1, its stderr naming the file with `error`.
void checkRefused(const fs::path& instrument, const std::string& error) {
  const fs::path dir = instrument.parent_path();
  spindle::test::TrackBuilder track;
  track.event(0, {0x90, 60, 100}).event(480, {0x80, 60, 0}).end();
  spindle::test::saveBytes(dir / "note.mid", spindle::test::buildSmf(0, 480, {track}));
  const auto run = runProcess({kExe, "--instrument", instrument.string(), "--midi", (dir / "note.mid").string(),
                               "--wav", (dir / "out.wav").string()}, dir);
  INFO(run.out << run.err);
  CHECK(run.exitCode == 1);
  CHECK(run.err.find(instrument.string() + ": error: " + error) != std::string::npos);
  CHECK(run.err.find("spindle-render: cannot load instrument " + instrument.string()) != std::string::npos);
}

const std::string kNoRegion = "no playable region: nothing in this instrument would sound";
const std::string kNoSample = "none of its 1 sample could be loaded: nothing would sound";

std::string kit(const std::string& instrument) {
  return "<drumkit_info><name>K</name><instrumentList><instrument><name>Kick</name>" + instrument +
         "</instrument></instrumentList></drumkit_info>";
}

}  // namespace

TEST_CASE("SFZ: no region, or none of its samples, is an error and exit 1", "[app][silent]") {
  const auto dir = scratchDir("silent-sfz");
  checkRefused(writeText(dir / "headers.sfz", "<control> default_path=x/\n<group> volume=3\n"), kNoRegion);
  checkRefused(writeText(dir / "missing.sfz", "<region> sample=gone.wav\n"), kNoSample);
  writeText(dir / "text.wav", "not audio at all");
  checkRefused(writeText(dir / "unreadable.sfz", "<region> sample=text.wav\n"), kNoSample);
}

TEST_CASE("DecentSampler: no region, or none of its samples, is an error and exit 1", "[app][silent]") {
  const auto dir = scratchDir("silent-dspreset");
  checkRefused(writeText(dir / "empty.dspreset", "<DecentSampler><groups><group/></groups></DecentSampler>"), kNoRegion);
  checkRefused(writeText(dir / "missing.dspreset",
                         "<DecentSampler><groups><group><sample path=\"gone.wav\"/></group></groups></DecentSampler>"),
               kNoSample);
}

TEST_CASE("Hydrogen: no region, or none of its samples, is an error and exit 1", "[app][silent]") {
  const auto dir = scratchDir("silent-hydrogen");
  fs::create_directories(dir / "empty");
  fs::create_directories(dir / "missing");
  checkRefused(writeText(dir / "empty" / "drumkit.xml", kit("")), kNoRegion);
  checkRefused(writeText(dir / "missing" / "drumkit.xml", kit("<filename>gone.wav</filename>")), kNoSample);
}

TEST_CASE("SoundFont: no region, or none of its samples, is an error and exit 1", "[app][silent]") {
  const auto dir = scratchDir("silent-sf2");
  spindle::test::Sf2Spec font;
  font.samples.push_back({"empty", {}, 44100, 60, 0, 0, 0, {}, {}});  // no frames: its zones are skipped
  font.instruments.push_back({"I", {{{{53, 0}}, {}}}});               // kSampleID 0
  font.presets.push_back({"P", 0, 0, {{{{41, 0}}, {}}}});             // kInstrument 0
  const auto save = [&](const spindle::test::Sf2Spec& spec, const std::string& name) {
    const std::vector<uint8_t> bytes = spindle::test::writeSf2(spec);
    std::ofstream(dir / name, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                      static_cast<std::streamsize>(bytes.size()));
    return dir / name;
  };
  checkRefused(save(font, "empty.sf2"), kNoRegion);
  font.versionMajor = 3;
  font.samples[0].vorbis.assign(200, 0x5A);  // an SF3 sample that is no Ogg Vorbis stream
  checkRefused(save(font, "undecodable.sf3"), kNoSample);
}

}  // namespace silent_load_tests
