// Regression test for the hang fuzz_audio_file found: libsndfile 1.2.0 never returns
// from sf_open on this 510-byte WAV, whose LIST chunk holds a sub-chunk that runs past
// the end of the list. The reader must refuse it, naming the problem, and return.
#include <fstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "catch.h"
#include "stream/AudioFile.h"
#include "stream/RiffCheck.h"
#include "stream/SamplePool.h"

namespace riff_check_tests {

namespace {

std::string fromHex(const std::string& hex) {
  std::string bytes;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return bytes;
}

const std::string kHangingWav = fromHex(
    "52494646e480000057415645666d7420100000000300520080bb000000dc050008004000666163740400000000100000"
    "4c49535444000000494e464f49534654240000004c6f6f704175646974ffffffffffffffffffffffffffffffffffffff"
    "ffffffffffffffffffffffffffffffffffffffffbfffffffffffffffffffffffffffffffffffffffffffffffffffffff"
    "ffffffffffffffffffffffffffffffffffffffffffffff696f6e65657220286c6962736e6466696c652d312e302e3238"
    "2900005249464694f2020057415645666d742010000000010001000077010000ee020002001000737bee123e2c0e0000"
    "637565200400000000000000736d706c3c000000000000000000000061000000b0280000300000000000000000000000"
    "00000000010000000000000000000000000000008f170100836d01000000000000000061008000006d706c3c00000000"
    "00000000000000b028000030000000000000000000000000000000010000000000000000000000000000008f17010083"
    "6d010000000000000000006461746100ee02005700f30049ff9500f6002f00f8fe8affba00ffffffffffffffffdc00ce"
    "009f25da72274646943f50ae997bb3f0bf291938590c00ff1102f90c55766cee5e8dd1da0f000bb70ac4f0664c0684ef"
    "ffffffffffffff000000a82400000000bdae3faf0949000000000000001d");

}  // namespace

TEST_CASE("a WAV whose LIST sub-chunk overruns the list is refused before libsndfile opens it") {
  const auto file = std::filesystem::temp_directory_path() / ("spindle-list-overrun-" + std::to_string(::getpid()) + ".wav");
  { std::ofstream(file, std::ios::binary) << kHangingWav; }
  REQUIRE(std::filesystem::file_size(file) == 510);

  std::string error;
  CHECK(spindle::stream::AudioFileReader::open(file, error) == nullptr);
  CHECK(error.find("malformed WAV file") != std::string::npos);
  CHECK(error.find("LIST chunk") != std::string::npos);

  spindle::stream::SamplePool pool;
  CHECK(pool.acquire(file.string()) == nullptr);
  REQUIRE(pool.messages().size() == 1);
  CHECK(pool.messages()[0].text.find(file.string()) != std::string::npos);
  std::filesystem::remove(file);
}

namespace {

std::string le32(uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[static_cast<size_t>(i)] = static_cast<char>(v >> (8 * i));
  return s;
}
std::string chunk(const std::string& id, const std::string& payload) { return id + le32(static_cast<uint32_t>(payload.size())) + payload; }

// A WAVE form: fmt (16-bit mono PCM at 44.1 kHz), `middle`, and 4 frames of data.
std::string wav(const std::string& middle) {
  const std::string body = "WAVE" + chunk("fmt ", fromHex("0100010044ac00008858010002001000")) +
                           middle + chunk("data", std::string(8, '\0'));
  return chunk("RIFF", body);
}

const std::string kUnpadded = chunk("junk", "abc");  // an odd size, no pad byte after it

std::string problemOf(const std::string& bytes, const std::string& name) {
  const auto file = std::filesystem::temp_directory_path() / (name + std::to_string(::getpid()) + ".wav");
  { std::ofstream(file, std::ios::binary) << bytes; }
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  std::vector<uint64_t> missingPads;
  std::string problem = spindle::stream::riffStructureProblem(fd, missingPads);
  ::close(fd);
  std::filesystem::remove(file);
  return problem;
}

}  // namespace

TEST_CASE("the WAV check walks past odd-sized chunks that have no pad byte") {
  // Inside the LIST too: ISFT holds 5 bytes and INAM follows at once.
  const std::string sound = chunk("LIST", "INFO" + chunk("ISFT", "tool!") + chunk("INAM", "name"));
  CHECK(problemOf(wav(sound), "spindle-unpadded-list-").empty());
  CHECK(problemOf(wav(kUnpadded + sound), "spindle-unpadded-").empty());
  // The same walk finds a LIST after the unpadded chunk and what is wrong inside it.
  const std::string overrun = "LIST" + le32(16) + "INFO" + "ISFT" + le32(40) + "tool";
  const std::string problem = problemOf(wav(kUnpadded + overrun), "spindle-unpadded-overrun-");
  CHECK(problem == "its LIST chunk has a sub-chunk at byte 59 that runs past the end of the list");
}

TEST_CASE("a WAV chunk before the data that runs past the end of the file is named; a long data chunk is not") {
  // fmt ends at byte 36: the LIST there declares 2 GiB, and libsndfile would look for
  // the data chunk after them.
  const std::string hugeList = "LIST" + le32(0x80000000u) + "INFO";
  const std::string file = wav(hugeList);
  CHECK(problemOf(file, "spindle-huge-list-") == "its 'LIST' chunk at byte 36 declares 2147483648 bytes, past the "
                                                  "end of the file (" + std::to_string(file.size()) +
                                                  " bytes), before any 'data' chunk");
  std::string cutShort = wav("");
  cutShort.replace(40, 4, le32(1000));  // the data chunk's size: 1000 bytes, 8 in the file
  CHECK(problemOf(cutShort, "spindle-long-data-").empty());
}

namespace {

// 100 frames of a 16-bit mono ramp, then `after` (chunks after the data).
std::string rampWav(const std::string& before, const std::string& after) {
  std::string frames;
  for (int i = 0; i < 100; ++i) frames += le32(static_cast<uint32_t>(i * 300)).substr(0, 2);
  const std::string body = "WAVE" + chunk("fmt ", fromHex("0100010044ac00008858010002001000")) + before +
                           chunk("data", frames) + after;
  return chunk("RIFF", body);
}

// A smpl chunk with one forward loop over frames [20, 80].
std::string smplLoop() {
  std::string payload = le32(0) + le32(0) + le32(22675) + le32(60) + le32(0) + le32(0) + le32(0) + le32(1) + le32(0);
  payload += le32(0) + le32(0) + le32(20) + le32(80) + le32(0) + le32(0);
  return chunk("smpl", payload);
}

struct Read {
  spindle::stream::AudioFileInfo info;
  std::vector<float> frames;
};

Read readWav(const std::string& bytes, const std::string& name) {
  const auto file = std::filesystem::temp_directory_path() / (name + std::to_string(::getpid()) + ".wav");
  { std::ofstream(file, std::ios::binary) << bytes; }
  std::string error;
  auto reader = spindle::stream::AudioFileReader::open(file, error);
  REQUIRE(reader);
  Read out{reader->info(), std::vector<float>(200, -1.0f)};
  out.frames.resize(static_cast<size_t>(reader->readPlanar(out.frames.data(), nullptr, 200)));
  std::filesystem::remove(file);
  return out;
}

}  // namespace

TEST_CASE("a WAV whose writer left out pad bytes reads as the same file with them, frame for frame, with a warning") {
  // Before the data: libsndfile alone would read the data chunk's header a byte late.
  const Read padded = readWav(rampWav(chunk("junk", "abc") + '\0', ""), "spindle-padded-");
  const Read unpadded = readWav(rampWav(chunk("junk", "abc"), ""), "spindle-unpadded-read-");
  REQUIRE(padded.frames.size() == 100);
  CHECK(padded.info.warning.empty());
  CHECK(unpadded.info.frames == 100);
  CHECK(unpadded.frames == padded.frames);
  CHECK(unpadded.frames[99] == padded.frames[99]);
  CHECK(padded.frames[99] == 29700.0f / 32768.0f);
  CHECK(unpadded.info.warning == "the RIFF pad byte after an odd-sized chunk is missing at byte 47; read as if it were "
                                 "there");
  // After the data: the loop in a smpl chunk that follows an unpadded chunk.
  const Read loopPadded = readWav(rampWav("", chunk("junk", "xyz") + '\0' + smplLoop()), "spindle-loop-padded-");
  const Read loopUnpadded = readWav(rampWav(chunk("junk", "abc"), chunk("junk", "xyz") + smplLoop()),
                                    "spindle-loop-unpadded-");
  CHECK(loopPadded.info.loopStart == 20);
  CHECK(loopPadded.info.loopEnd == 80);
  CHECK(loopUnpadded.info.loopStart == 20);
  CHECK(loopUnpadded.info.loopEnd == 80);
  CHECK(loopUnpadded.frames == padded.frames);
  CHECK(loopUnpadded.info.warning.find("missing at byte 47 (and 1 more)") != std::string::npos);
}

TEST_CASE("the sample pool reports a missing pad byte once, naming the file, and plays the sample") {
  const auto file = std::filesystem::temp_directory_path() / ("spindle-pool-unpadded-" + std::to_string(::getpid()) + ".wav");
  { std::ofstream(file, std::ios::binary) << rampWav(chunk("junk", "abc"), ""); }
  spindle::stream::SamplePool pool;
  const auto* sample = pool.acquire(file.string());
  REQUIRE(sample != nullptr);
  CHECK(sample->totalFrames == 100);
  REQUIRE(pool.messages().size() == 1);
  CHECK(pool.messages()[0].kind == spindle::stream::PoolMessage::Kind::Warning);
  CHECK(pool.messages()[0].text == "sample file " + file.string() +
                                       ": the RIFF pad byte after an odd-sized chunk is missing at byte 47; read as if "
                                       "it were there");
  std::filesystem::remove(file);
}

}  // namespace riff_check_tests
