// Every audio file of the shared fixtures, loaded through the pool and checked
// against the manifests (format, channels, rate, frames as libsndfile 1.2 reads them).
#include <fstream>
#include <sstream>

#include "Fixtures.h"
#include "catch.h"
#include "core/Limits.h"
#include "stream/SamplePool.h"

namespace fixture_manifest_tests {

using spindle::SampleData;
using spindle::stream::PoolMessage;
using spindle::stream::SamplePool;

namespace {

struct ManifestRow {
  std::filesystem::path file;
  std::string format, subtype;
  int channels = 0;
  double rate = 0.0;
  int64_t frames = 0;
};

// Columns: path bytes sha256 format subtype channels samplerate frames seconds.
// An unreadable file has format ERROR and the error message in the subtype column.
std::vector<ManifestRow> readManifest(const std::filesystem::path& tsv, const std::filesystem::path& folder) {
  std::vector<ManifestRow> rows;
  std::ifstream in(tsv);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream fields(line);
    for (std::string cell; std::getline(fields, cell, '\t');) cells.push_back(cell);
    if (cells.size() < 5) continue;
    ManifestRow row{folder / cells[0], cells[3], cells[4]};
    if (row.format != "ERROR" && cells.size() >= 8) {
      row.channels = std::stoi(cells[5]);
      row.rate = std::stod(cells[6]);
      row.frames = std::stoll(cells[7]);
    }
    rows.push_back(row);
  }
  return rows;
}

bool guardsAreZero(const SampleData& data) {
  for (int c = 0; c < 2; ++c)
    for (int i = 1; i <= spindle::limits::kGuardFrames; ++i)
      if (data.frameAt(c, -i) != 0.0f || data.frameAt(c, data.framesInRam - 1 + i) != 0.0f) return false;
  return true;
}

void checkRow(SamplePool& pool, const ManifestRow& row) {
  INFO(row.file.string());
  const SampleData* data = pool.acquire(row.file.string());
  if (row.format == "ERROR") {
    CHECK(data == nullptr);
    const auto* record = pool.find(row.file.string());
    REQUIRE(record != nullptr);
    CHECK_FALSE(record->missing);
    CHECK(record->error.find(row.file.string()) != std::string::npos);
    return;
  }
  REQUIRE(data != nullptr);
  CHECK(data->totalFrames == row.frames);
  CHECK(data->framesInRam == row.frames);
  CHECK(pool.record(data->id).fileChannels == row.channels);
  CHECK(data->channels == std::min(row.channels, 2));
  CHECK(data->sampleRate == row.rate);
  CHECK(pool.record(data->id).formatName == row.format + " " + row.subtype);
  CHECK(guardsAreZero(*data));
}

}  // namespace

TEST_CASE("every fixture audio file loads with the manifest's frames, channels and rate", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures);
  int files = 0, errors = 0;
  for (const auto& entry : std::filesystem::directory_iterator(fixtures)) {
    const std::string name = entry.path().filename().string();
    const std::string suffix = ".audio-manifest.tsv";
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    const auto folder = fixtures / name.substr(0, name.size() - suffix.size());
    SamplePool pool;
    for (const ManifestRow& row : readManifest(entry.path(), folder)) {
      checkRow(pool, row);
      ++files;
      errors += row.format == "ERROR";
    }
    for (const PoolMessage& message : pool.messages()) CHECK(message.kind != PoolMessage::Kind::Missing);
  }
  CHECK(files > 400);   // 5 manifests, 446 files when this was written
  CHECK(errors >= 1);   // sfizz-testfiles/kick.wv (WavPack)
}

TEST_CASE("WavPack is not readable: the error names the file and libsndfile's reason", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "sfizz-testfiles/kick.wv", "sfizz-testfiles/kick.flac", "sfizz-testfiles/kick.wav");
  SamplePool pool;
  const std::string path = (fixtures / "sfizz-testfiles" / "kick.wv").string();
  CHECK(pool.acquire(path) == nullptr);
  REQUIRE(pool.messages().size() == 1);
  CHECK(pool.messages()[0].text == "cannot read sample file " + path + ": Format not recognised.");
  // The flac and wav versions of the same kick load fine.
  CHECK(pool.acquire((fixtures / "sfizz-testfiles" / "kick.flac").string()) != nullptr);
  CHECK(pool.acquire((fixtures / "sfizz-testfiles" / "kick.wav").string()) != nullptr);
}

// Expected loops were read from the files' smpl chunks with a separate RIFF walker
// (python struct, not libsndfile): dwStart, dwEnd inclusive.
TEST_CASE("smpl loops of fixture files, end inclusive as SFZ's loop_end", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "sfz-tests/samples");
  struct Expected {
    const char* file;
    int64_t start, end;
  };
  const Expected cases[] = {
      {"sfz-tests/samples/mono looped 1k.wav", 4499, 11554},
      {"sfz-tests/samples/stereo 400 looped.wav", 111, 551},
      {"sfz-tests/samples/stereo looped 1k.wav", 46547, 57600},
      {"sfizz-testfiles/looped_flute.wav", 77554, 186581},
      {"sfizz-testfiles/wavetable_with_loop_at_endings.wav", 0, 4095},  // dwEnd 4096: clamped
      {"sfizz-testfiles/root_key_38.wav", -1, -1},                     // smpl without loops
      {"sfz-tests/samples/440.wav", -1, -1},
  };
  SamplePool pool;
  for (const Expected& e : cases) {
    INFO(e.file);
    const SampleData* data = pool.acquire((fixtures / e.file).string());
    REQUIRE(data != nullptr);
    CHECK(data->loopStart == e.start);
    CHECK(data->loopEnd == e.end);
  }
}

}  // namespace fixture_manifest_tests
