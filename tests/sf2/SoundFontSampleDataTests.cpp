// Sample data inside the font: 24-bit samples (smpl words + sm24 low bytes) decoded
// from their slice paths, and SF3 samples (Ogg Vorbis made here with libsndfile)
// loaded, played and measured against the same sine stored as 16-bit PCM.
#include <sndfile.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "Sf2PlaybackSupport.h"
#include "stream/AudioFile.h"

namespace sound_font_sample_data_tests {

namespace sf2 = spindle::sf2;
using spindle::test::centsBetween;
using spindle::test::FontPlayer;
using spindle::test::hzOver;
using spindle::test::loopedSine;
using spindle::test::noteOn;
using spindle::test::rmsDb;
using spindle::test::Sf2Sample;
using spindle::test::Sf2Spec;

namespace {

Sf2Spec fontOf(std::vector<Sf2Sample> samples) {
  Sf2Spec s;
  s.samples = std::move(samples);
  for (uint16_t i = 0; i < s.samples.size(); ++i) {
    s.instruments.push_back({s.samples[i].name, {{{{sf2::kSampleModes, 1}, {sf2::kSampleID, i}}, {}}}});
    s.presets.push_back({s.samples[i].name, i, 0, {{{{sf2::kInstrument, i}}, {}}}});
  }
  return s;
}

// The first `frames` frames of sample table entry `index`, decoded from its slice path.
std::vector<float> decode(const spindle::instrument::Instrument& inst, size_t index, int64_t frames) {
  REQUIRE(index < inst.samples.size());
  std::string error;
  auto reader = spindle::stream::AudioFileReader::open(inst.samples[index], error);
  INFO(inst.samples[index] << ": " << error);
  REQUIRE(reader);
  CHECK(reader->info().channels == 1);
  std::vector<float> out(static_cast<size_t>(frames));
  REQUIRE(reader->readPlanar(out.data(), nullptr, frames) == frames);
  return out;
}

// `frames` as an Ogg Vorbis stream, through a temporary file libsndfile writes.
std::vector<uint8_t> encodeVorbis(const std::vector<int16_t>& frames, int rate, const std::filesystem::path& file) {
  SF_INFO info{};
  info.samplerate = rate;
  info.channels = 1;
  info.format = SF_FORMAT_OGG | SF_FORMAT_VORBIS;
  SNDFILE* out = sf_open(file.c_str(), SFM_WRITE, &info);
  REQUIRE(out);
  double quality = 0.9;  // libsndfile's VBR quality 0..1: near transparent for a sine
  sf_command(out, SFC_SET_VBR_ENCODING_QUALITY, &quality, sizeof(quality));
  CHECK(sf_write_short(out, frames.data(), static_cast<sf_count_t>(frames.size())) ==
        static_cast<sf_count_t>(frames.size()));
  sf_close(out);
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("24-bit samples: sm24 low bytes under the smpl words, scaled by 2^23", "[sf2][samples]") {
  Sf2Sample low = loopedSine("low", 441.0, 22050, 60, 100, 0.0);  // 16-bit words all 0
  low.low24.assign(100, 0x40);
  Sf2Sample minus = low;
  minus.name = "minus";
  minus.frames.assign(100, -1);  // word 0xFFFF, low byte 0xFF: -1 in 24 bits
  minus.low24.assign(100, 0xFF);
  Sf2Sample plain = low;
  plain.name = "plain";
  plain.frames.assign(100, 256);
  plain.low24.clear();  // sm24 gives it zeros
  const auto inst = spindle::test::loadFont(fontOf({low, minus, plain}), "sf2-sm24");
  for (float v : decode(inst, 0, 100)) REQUIRE(v == 64.0f / 8388608.0f);
  for (float v : decode(inst, 1, 100)) REQUIRE(v == -1.0f / 8388608.0f);
  for (float v : decode(inst, 2, 100)) REQUIRE(v == 256.0f * 256.0f / 8388608.0f);
}

TEST_CASE("sm24 is ignored below version 2.04 and when its size is not half of smpl's", "[sf2][samples]") {
  Sf2Sample low = loopedSine("low", 441.0, 22050, 60, 100, 0.0);
  low.frames.assign(100, 1);
  low.low24.assign(100, 0x40);
  Sf2Spec old = fontOf({low});
  old.versionMinor = 1;  // 2.01
  for (float v : decode(spindle::test::loadFont(old, "sf2-sm24-201"), 0, 100)) REQUIRE(v == 1.0f / 32768.0f);
  // A 2.04 file whose sm24 lacks its last two bytes (RIFF, LIST and chunk sizes agree).
  std::vector<uint8_t> bytes = spindle::test::writeSf2(fontOf({low}));
  const auto find = [&](const char* tag) {
    return static_cast<size_t>(std::search(bytes.begin(), bytes.end(), tag, tag + 4) - bytes.begin());
  };
  const auto shrink = [&](size_t sizeAt) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t{bytes[sizeAt + static_cast<size_t>(i)]} << (8 * i);
    v -= 2;
    for (int i = 0; i < 4; ++i) bytes[sizeAt + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
  };
  const size_t sm24 = find("sm24"), sdta = find("sdta");
  REQUIRE(sm24 < bytes.size());
  shrink(4), shrink(sdta - 4), shrink(sm24 + 4);
  const uint32_t payload = uint32_t{bytes[sm24 + 4]} | uint32_t{bytes[sm24 + 5]} << 8;
  bytes.erase(bytes.begin() + static_cast<long>(sm24 + 8 + payload), bytes.begin() + static_cast<long>(sm24 + 10 + payload));
  const auto path = spindle::test::scratchDir("sf2-sm24-short") / "short.sf2";
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  const auto inst = sf2::loadSoundFont(path);
  REQUIRE(inst.ok);
  for (float v : decode(inst, 0, 100)) REQUIRE(v == 1.0f / 32768.0f);
}

TEST_CASE("without sm24 the words decode as 16-bit, scaled by 2^15", "[sf2][samples]") {
  Sf2Sample s = loopedSine("words", 441.0, 22050, 60, 100, 0.0);
  s.frames.assign(100, -16384);
  const auto inst = spindle::test::loadFont(fontOf({s}), "sf2-16bit");
  for (float v : decode(inst, 0, 100)) REQUIRE(v == -0.5f);
}

TEST_CASE("an SF3 Ogg Vorbis sample plays at the pitch and level of the same sine in 16-bit PCM", "[sf2][samples]") {
  const auto dir = spindle::test::scratchDir("sf2-vorbis-encode");
  Sf2Sample pcm = loopedSine("sine", 441.0, 22050, 69, 22050, 0.5);
  Sf2Sample ogg = pcm;
  ogg.vorbis = encodeVorbis(pcm.frames, 22050, dir / "sine.ogg");
  REQUIRE(ogg.vorbis.size() > 100);
  Sf2Spec sf3 = fontOf({ogg});
  sf3.versionMajor = 3, sf3.versionMinor = 1;
  const FontPlayer compressed(sf3, "sf2-vorbis");
  const FontPlayer reference(fontOf({pcm}), "sf2-vorbis-pcm");
  const auto a = compressed.play({noteOn(0, 81, 127)}, 48000);
  const auto b = reference.play({noteOn(0, 81, 127)}, 48000);
  CHECK(std::abs(centsBetween(hzOver(a->left, 0.2, 0.9), 882.0)) < 1.0);
  const double pcmDb = rmsDb(b->left, 0.2, 0.9);
  // The PCM reference: a 0.5 sine (-9.03 dB RMS), -3.01 dB pan middle, +1.51 dB of the
  // filter's gain at Q 0, and CC7's default 100 as (100/127)^2.
  CHECK(pcmDb == Approx(20.0 * std::log10(0.5 / std::sqrt(2.0)) - 3.0103 + 1.50515 + 40.0 * std::log10(100.0 / 127.0))
                     .margin(0.1));
  CHECK(rmsDb(a->left, 0.2, 0.9) == Approx(pcmDb).margin(0.5));
  CHECK(rmsDb(a->left, 0.0, 0.02) > pcmDb - 10.0);  // sounding from the start
}

namespace {

// A sine in Ogg Vorbis whose byte count is odd (libsndfile's streams vary in size with
// the frame count; a few lengths give an odd one).
Sf2Sample oddSizedVorbis(const std::filesystem::path& dir) {
  for (int frames = 22050; frames < 22050 + 64; ++frames) {
    Sf2Sample s = loopedSine("sine", 441.0, 22050, 69, frames, 0.5);
    s.vorbis = encodeVorbis(s.frames, 22050, dir / "sine.ogg");
    if (s.vorbis.size() % 2 == 1) return s;
  }
  FAIL("no odd-sized Ogg Vorbis stream");
  return {};
}

size_t chunkAt(const std::vector<uint8_t>& bytes, const char* tag) {
  return static_cast<size_t>(std::search(bytes.begin(), bytes.end(), tag, tag + 4) - bytes.begin());
}

}  // namespace

TEST_CASE("an SF3 whose sample chunk has an odd size and no pad byte plays frame for frame as the padded one",
          "[sf2][samples]") {
  Sf2Spec padded = fontOf({oddSizedVorbis(spindle::test::scratchDir("sf2-odd-smpl-encode"))});
  padded.versionMajor = 3, padded.versionMinor = 1;
  padded.name = "odd sf3";  // INAM of 8 bytes: the sample data is the only odd chunk
  padded.padVorbis = false;
  Sf2Spec unpadded = padded;
  unpadded.padChunks = false;
  const std::vector<uint8_t> bytes = spindle::test::writeSf2(unpadded);
  const size_t smpl = chunkAt(bytes, "smpl");
  const uint32_t smplSize = uint32_t{bytes[smpl + 4]} | uint32_t{bytes[smpl + 5]} << 8 | uint32_t{bytes[smpl + 6]} << 16;
  REQUIRE(smplSize % 2 == 1);
  REQUIRE(std::equal(bytes.begin() + static_cast<long>(smpl + 8 + smplSize),
                     bytes.begin() + static_cast<long>(smpl + 12 + smplSize), "LIST"));  // no pad byte
  REQUIRE(bytes.size() + 1 == spindle::test::writeSf2(padded).size());  // smpl's pad byte

  // The one diagnostic the padded font does not have: the warning naming the chunk.
  const auto inst = spindle::test::loadFont(unpadded, "sf2-odd-smpl");
  const auto reference = spindle::test::loadFont(padded, "sf2-odd-smpl-padded");
  REQUIRE(inst.diagnostics.size() == reference.diagnostics.size() + 1);
  const auto& warning = inst.diagnostics[0];
  CHECK(warning.severity == spindle::instrument::Diagnostic::Severity::Warning);
  CHECK(warning.message == "sfbk: chunk 'LIST sdta' has an odd size (" + std::to_string(smplSize + 12) +
                               " bytes) and no pad byte after it; the next chunk is read from the byte after it");
  for (size_t i = 0; i < reference.diagnostics.size(); ++i)
    CHECK(inst.diagnostics[i + 1].message == reference.diagnostics[i].message);

  const auto a = FontPlayer(unpadded, "sf2-odd-smpl").play({noteOn(0, 69, 100)}, 24000);
  const auto b = FontPlayer(padded, "sf2-odd-smpl-padded").play({noteOn(0, 69, 100)}, 24000);
  CHECK(rmsDb(a->left, 0.05, 0.45) > -20.0);
  CHECK(a->left == b->left);
  CHECK(a->right == b->right);
}

}  // namespace sound_font_sample_data_tests
