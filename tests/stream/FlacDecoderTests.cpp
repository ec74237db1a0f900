// AudioFileReader on native FLAC, which libFLAC decodes directly (stream/FlacDecoder.cpp):
// checked frame for frame against libsndfile's own FLAC reader, the reference it replaced.
#include <malloc.h>
#include <sndfile.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "Fixtures.h"
#include "TestAudioFiles.h"
#include "catch.h"
#include "stream/AudioFile.h"

namespace flac_decoder_tests {

using spindle::stream::AudioFileReader;
namespace fs = std::filesystem;

namespace {

// Deterministic noise with a slow envelope: FLAC frames of very different sizes.
std::vector<float> noise(int64_t frames, int channels, uint32_t seed) {
  std::vector<float> out(static_cast<std::size_t>(frames * channels));
  uint32_t x = seed;
  for (std::size_t i = 0; i < out.size(); ++i) {
    x = x * 1664525u + 1013904223u;
    const float envelope = static_cast<float>((i / 3000) % 7) / 7.0f;
    out[i] = envelope * (static_cast<float>(x >> 8) / 8388608.0f - 1.0f);
  }
  return out;
}

void writeFlac(const fs::path& path, int bitsFormat, int channels, int64_t frames) {
  SF_INFO info{};
  info.samplerate = 44100;
  info.channels = channels;
  info.format = SF_FORMAT_FLAC | bitsFormat;
  SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
  REQUIRE(file);
  const auto data = noise(frames, channels, static_cast<uint32_t>(bitsFormat * 7 + channels));
  REQUIRE(sf_writef_float(file, data.data(), frames) == frames);
  sf_close(file);
}

// libsndfile's decoding of the whole file: the reference.
struct Reference {
  SF_INFO info{};
  std::vector<float> left, right;  // right only for two or more channels
};

Reference decodeWithSndfile(const fs::path& path) {
  Reference ref;
  SNDFILE* file = sf_open(path.c_str(), SFM_READ, &ref.info);
  REQUIRE(file);
  const int ch = ref.info.channels;
  std::vector<float> interleaved(static_cast<std::size_t>(ref.info.frames * ch));
  CHECK(sf_readf_float(file, interleaved.data(), ref.info.frames) == ref.info.frames);
  sf_close(file);
  for (sf_count_t i = 0; i < ref.info.frames; ++i) {
    ref.left.push_back(interleaved[static_cast<std::size_t>(i * ch)]);
    if (ch > 1) ref.right.push_back(interleaved[static_cast<std::size_t>(i * ch + 1)]);
  }
  return ref;
}

// Frames of [from, from + count) that differ from the reference, either channel.
int64_t mismatches(const Reference& ref, int64_t from, const std::vector<float>& left, const std::vector<float>& right,
                   int64_t count) {
  int64_t bad = 0;
  for (int64_t i = 0; i < count; ++i) {
    const auto at = static_cast<std::size_t>(from + i), j = static_cast<std::size_t>(i);
    if (left[j] != ref.left[at] || (!ref.right.empty() && right[j] != ref.right[at])) ++bad;
  }
  return bad;
}

// Reads the whole file in `step`-frame reads and counts frames unlike the reference.
int64_t wholeFileMismatches(AudioFileReader& reader, const Reference& ref, int64_t step) {
  std::vector<float> left(static_cast<std::size_t>(step)), right(static_cast<std::size_t>(step));
  int64_t at = 0, bad = 0, got = 0;
  while ((got = reader.readPlanar(left.data(), right.data(), step)) > 0) {
    bad += mismatches(ref, at, left, right, got);
    at += got;
  }
  CHECK(at == ref.info.frames);
  return bad;
}

// After seek(frame), `count` frames (fewer at the end) equal the reference's.
void checkSeek(AudioFileReader& reader, const Reference& ref, int64_t frame, int64_t count) {
  INFO("seek to " << frame);
  REQUIRE(reader.seek(frame));
  std::vector<float> left(static_cast<std::size_t>(count)), right(static_cast<std::size_t>(count));
  const int64_t expected = std::min(count, ref.info.frames - frame);
  REQUIRE(reader.readPlanar(left.data(), right.data(), count) == expected);
  CHECK(mismatches(ref, frame, left, right, expected) == 0);
}

}  // namespace

TEST_CASE("native FLAC decodes bit for bit as libsndfile decodes it: 8, 16, 24 bits; 1, 2, 3 channels") {
  const auto dir = spindle::test::scratchDir("flac-bits");
  for (const int bits : {SF_FORMAT_PCM_S8, SF_FORMAT_PCM_16, SF_FORMAT_PCM_24}) {
    for (const int channels : {1, 2, 3}) {
      INFO("format 0x" << std::hex << bits << std::dec << ", " << channels << " channels");
      const auto path = dir / ("f" + std::to_string(bits) + "-" + std::to_string(channels) + ".flac");
      writeFlac(path, bits, channels, 50000);
      const Reference ref = decodeWithSndfile(path);
      std::string error;
      const auto reader = AudioFileReader::open(path, error);
      REQUIRE(reader);
      CHECK(reader->info().format == ref.info.format);
      CHECK(reader->info().channels == channels);
      CHECK(reader->info().frames == 50000);
      CHECK(reader->info().sampleRate == 44100.0);
      CHECK(reader->info().formatName == (bits == SF_FORMAT_PCM_S8 ? "FLAC PCM_S8"
                                          : bits == SF_FORMAT_PCM_16 ? "FLAC PCM_16" : "FLAC PCM_24"));
      CHECK(reader->info().loopStart == -1);
      CHECK(wholeFileMismatches(*reader, ref, 1000) == 0);  // reads that cross FLAC frames
      CHECK(reader->lastError().empty());
    }
  }
}

TEST_CASE("FLAC seeks land on the frame asked for, also back from the end") {
  const auto path = spindle::test::scratchDir("flac-seek") / "stereo.flac";
  writeFlac(path, SF_FORMAT_PCM_24, 2, 100000);
  const Reference ref = decodeWithSndfile(path);
  std::string error;
  const auto reader = AudioFileReader::open(path, error);
  REQUIRE(reader);
  CHECK(wholeFileMismatches(*reader, ref, 65536) == 0);  // now at the end
  // Inside a FLAC frame, on frame boundaries (4096 frames each), the first and last.
  for (const int64_t frame : {int64_t{50000}, int64_t{0}, int64_t{1}, int64_t{4095}, int64_t{4096}, int64_t{4097},
                              int64_t{99999}, int64_t{77777}, int64_t{12}})
    checkSeek(*reader, ref, frame, 9000);
  REQUIRE(reader->seek(100000));  // the very end: nothing more to read
  std::vector<float> scratch(16);
  CHECK(reader->readPlanar(scratch.data(), nullptr, 16) == 0);
  CHECK_FALSE(reader->seek(100001));
  checkSeek(*reader, ref, 31415, 4000);  // a failed seek leaves the reader usable
}

TEST_CASE("FLAC frame boundaries: a reader goes back to one without a search, and reads 16 bits exactly") {
  const auto path = spindle::test::scratchDir("flac-boundary") / "stereo16.flac";
  writeFlac(path, SF_FORMAT_PCM_16, 2, 100000);
  const Reference ref = decodeWithSndfile(path);
  std::string error;
  const auto reader = AudioFileReader::open(path, error);
  REQUIRE(reader);
  REQUIRE(reader->reads16());
  // Read in 8192-frame steps, noting every boundary (a multiple of the 4096-frame block).
  std::vector<std::pair<int64_t, uint64_t>> starts;
  std::vector<int16_t> l16(8192), r16(8192);
  int64_t at = 0, bad = 0, got = 0;
  int64_t frame = 0;
  uint64_t byte = 0;
  while (reader->boundary(frame, byte) && (got = reader->readPlanar16(l16.data(), r16.data(), 8192)) > 0) {
    CHECK(frame == at);
    starts.emplace_back(frame, byte);
    for (int64_t i = 0; i < got; ++i) {
      const auto j = static_cast<std::size_t>(i), k = static_cast<std::size_t>(at + i);
      bad += static_cast<float>(l16[j]) / 32768.0f != ref.left[k] || static_cast<float>(r16[j]) / 32768.0f != ref.right[k];
    }
    at += got;
  }
  CHECK(bad == 0);
  CHECK(at == 100000);
  REQUIRE(starts.size() == 13);  // 0, 8192, ... 98304; at 100000 (the end) there is none
  std::vector<float> left(9000), right(9000);
  for (const std::size_t i : {std::size_t{5}, std::size_t{0}, std::size_t{12}, std::size_t{7}}) {
    const auto [first, offset] = starts[i];
    INFO("boundary at " << first);
    REQUIRE(reader->seekToBoundary(first, offset));
    const int64_t expected = std::min<int64_t>(9000, 100000 - first);
    REQUIRE(reader->readPlanar(left.data(), right.data(), 9000) == expected);
    CHECK(mismatches(ref, first, left, right, expected) == 0);
  }
  // A byte offset that is not the frame's start: the header check falls back to a search.
  REQUIRE(reader->seekToBoundary(starts[6].first, starts[3].second));
  REQUIRE(reader->readPlanar(left.data(), right.data(), 9000) == 9000);
  CHECK(mismatches(ref, starts[6].first, left, right, 9000) == 0);
}

TEST_CASE("a truncated FLAC file reads short and a corrupted one stops at the damage with an error") {
  const auto dir = spindle::test::scratchDir("flac-damage");
  writeFlac(dir / "whole.flac", SF_FORMAT_PCM_16, 2, 80000);
  const Reference ref = decodeWithSndfile(dir / "whole.flac");
  std::ifstream in(dir / "whole.flac", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.size() > 10000);

  std::ofstream(dir / "cut.flac", std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
  std::string corrupt = bytes;
  for (std::size_t i = corrupt.size() / 2; i < corrupt.size() / 2 + 64; ++i) corrupt[i] = static_cast<char>(~corrupt[i]);
  std::ofstream(dir / "bad.flac", std::ios::binary).write(corrupt.data(), static_cast<std::streamsize>(corrupt.size()));

  for (const char* name : {"cut.flac", "bad.flac"}) {
    INFO(name);
    std::string error;
    const auto reader = AudioFileReader::open(dir / name, error);
    REQUIRE(reader);
    CHECK(reader->info().frames == 80000);  // as the header says
    std::vector<float> left(80000), right(80000);
    const int64_t got = reader->readPlanar(left.data(), right.data(), 80000);
    CHECK(got > 20000);  // everything before the damage, which sits about half way
    CHECK(got < 60000);
    CHECK(mismatches(ref, 0, left, right, got) == 0);  // and nothing after it
    if (std::string(name) == "bad.flac") CHECK_THAT(reader->lastError(), Catch::Contains("corrupt FLAC stream"));
    checkSeek(*reader, ref, 1000, 5000);  // the part before the damage stays readable
  }
}

TEST_CASE("fixture FLAC files decode as libsndfile decodes them", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures);
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fixtures)) {
    if (entry.path().extension() != ".flac") continue;
    INFO(entry.path());
    const Reference ref = decodeWithSndfile(entry.path());
    std::string error;
    const auto reader = AudioFileReader::open(entry.path(), error);
    REQUIRE(reader);
    CHECK(reader->info().format == ref.info.format);
    CHECK(reader->info().frames == ref.info.frames);
    CHECK(wholeFileMismatches(*reader, ref, 4000) == 0);
    if (ref.info.frames > 2) checkSeek(*reader, ref, ref.info.frames / 2, 3000);
    ++files;
  }
  CHECK(files > 100);
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) && !defined(__has_feature)
#define SPINDLE_PLAIN_MALLOC 1
#elif defined(__has_feature)
#if !__has_feature(address_sanitizer) && !__has_feature(thread_sanitizer) && !__has_feature(realtime_sanitizer)
#define SPINDLE_PLAIN_MALLOC 1
#endif
#endif

TEST_CASE("an open FLAC reader holds memory for its own block size, not FLAC's largest") {
#ifndef SPINDLE_PLAIN_MALLOC
  SPINDLE_SKIP_CASE("a sanitizer's allocator does not report through mallinfo2");
#else
  const auto path = spindle::test::scratchDir("flac-memory") / "stereo.flac";
  writeFlac(path, SF_FORMAT_PCM_16, 2, 60000);
  constexpr int kReaders = 16;
  const auto inUse = [] {
    const struct mallinfo2 m = mallinfo2();
    return static_cast<int64_t>(m.uordblks + m.hblkhd);
  };
  std::vector<std::unique_ptr<AudioFileReader>> readers;
  readers.reserve(kReaders);
  std::vector<float> left(20000), right(20000);
  const int64_t before = inUse();
  for (int i = 0; i < kReaders; ++i) {
    std::string error;
    readers.push_back(AudioFileReader::open(path, error));
    REQUIRE(readers.back());
    // As a stream does: seek past the preloaded head, then read on.
    REQUIRE(readers.back()->seek(512));
    REQUIRE(readers.back()->readPlanar(left.data(), right.data(), 20000) == 20000);
  }
  const int64_t perReader = (inUse() - before) / kReaders;
  // libsndfile's FLAC reader, once it had seeked, held 2 x 65535 x 4 bytes of decode
  // buffers alone (over 600 KiB in all); this one holds one 4096-frame block and
  // libFLAC's own state.
  INFO("bytes per open FLAC reader: " << perReader);
  CHECK(perReader < 160 * 1024);
  CHECK(perReader > 4096 * 2 * 4);  // at least the decoded block: the measure is real
#endif
}

}  // namespace flac_decoder_tests
