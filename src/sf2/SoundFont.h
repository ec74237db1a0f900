#pragma once
// SoundFont 2.04 (and SF3) file structure as read from disk: presets, instruments,
// their zones with generators and modulators, and the sample headers. Loader thread.
//
// readSoundFont() checks every chunk against its parent before reading it, every
// record table against its record size, and every bag/generator/modulator/sample index
// against the table it points into; a file that lies about a size or an index is
// refused with one error naming the file and the chunk. Two departures from the RIFF
// layout that real files have are read with a warning instead (sf2/Riff.h): an
// odd-sized chunk without its pad byte, and a trailing partial chunk. Sample data is
// not read: the file offsets of `smpl` (and `sm24`) are kept, so samples stream from
// the file by offset like any other sample.
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace spindle::sf2 {

// The generator numbers of the SoundFont 2.04 specification (section 8.1.2).
enum Gen : uint16_t {
  kStartAddrsOffset = 0, kEndAddrsOffset = 1, kStartloopAddrsOffset = 2, kEndloopAddrsOffset = 3,
  kStartAddrsCoarseOffset = 4, kModLfoToPitch = 5, kVibLfoToPitch = 6, kModEnvToPitch = 7,
  kInitialFilterFc = 8, kInitialFilterQ = 9, kModLfoToFilterFc = 10, kModEnvToFilterFc = 11,
  kEndAddrsCoarseOffset = 12, kModLfoToVolume = 13, kChorusEffectsSend = 15, kReverbEffectsSend = 16,
  kPan = 17, kDelayModLfo = 21, kFreqModLfo = 22, kDelayVibLfo = 23, kFreqVibLfo = 24,
  kDelayModEnv = 25, kAttackModEnv = 26, kHoldModEnv = 27, kDecayModEnv = 28, kSustainModEnv = 29,
  kReleaseModEnv = 30, kKeynumToModEnvHold = 31, kKeynumToModEnvDecay = 32, kDelayVolEnv = 33,
  kAttackVolEnv = 34, kHoldVolEnv = 35, kDecayVolEnv = 36, kSustainVolEnv = 37, kReleaseVolEnv = 38,
  kKeynumToVolEnvHold = 39, kKeynumToVolEnvDecay = 40, kInstrument = 41, kKeyRange = 43, kVelRange = 44,
  kStartloopAddrsCoarseOffset = 45, kKeynum = 46, kVelocity = 47, kInitialAttenuation = 48,
  kEndloopAddrsCoarseOffset = 50, kCoarseTune = 51, kFineTune = 52, kSampleID = 53, kSampleModes = 54,
  kScaleTuning = 56, kExclusiveClass = 57, kOverridingRootKey = 58, kEndOper = 60,
};
inline constexpr int kGeneratorCount = 61;

struct Range {
  uint8_t lo = 0, hi = 127;
};

// A modulator record (pmod/imod), as stored.
struct Modulator {
  uint16_t source = 0, destination = 0;
  int16_t amount = 0;
  uint16_t amountSource = 0, transform = 0;
};

// One zone: the generators it sets (value as the signed 16-bit amount; ranges apart)
// and its modulators. A global zone is the first zone of a preset or instrument that
// ends without kInstrument / kSampleID.
struct Zone {
  std::array<int16_t, kGeneratorCount> amount{};
  std::array<bool, kGeneratorCount> set{};
  Range keys, velocities;
  std::vector<Modulator> modulators;

  bool has(Gen g) const { return set[g]; }
  int16_t get(Gen g, int16_t fallback = 0) const { return set[g] ? amount[g] : fallback; }
};

struct Instrument {
  std::string name;
  std::optional<Zone> global;
  std::vector<Zone> zones;  // each with kSampleID set
};

struct Preset {
  std::string name;
  uint16_t program = 0, bank = 0;
  std::optional<Zone> global;
  std::vector<Zone> zones;  // each with kInstrument set
};

enum class SampleKind : uint16_t { Mono = 1, Right = 2, Left = 4, Linked = 8 };

struct SampleHeader {
  std::string name;
  uint32_t start = 0, end = 0, loopStart = 0, loopEnd = 0;  // frames into smpl (SF2); bytes (SF3 Ogg)
  uint32_t rate = 0;
  uint8_t originalKey = 60;
  int8_t correction = 0;  // cents
  uint16_t link = 0;
  uint16_t type = 1;      // SampleKind bits; 0x8000 = ROM
  bool compressed() const { return (type & 0x10) != 0; }  // SF3: Ogg Vorbis
  bool rom() const { return (type & 0x8000) != 0; }
};

struct SoundFont {
  std::filesystem::path path;
  uint16_t versionMajor = 2, versionMinor = 1;
  std::string name;  // INAM
  std::vector<Preset> presets;
  std::vector<Instrument> instruments;
  std::vector<SampleHeader> samples;
  uint64_t smplOffset = 0, smplBytes = 0;  // file position and size of the smpl data
  uint64_t sm24Offset = 0, sm24Bytes = 0;  // 0: no 24-bit extension (or one ignored: before 2.04, wrong size)
  // What the reader tolerated (a missing pad byte, a trailing partial chunk), one
  // sentence each naming the chunk; the instrument reports them as warnings.
  std::vector<std::string> warnings;
};

struct ReadResult {
  std::optional<SoundFont> font;
  std::string error;  // when !font: "<file>: <chunk>: what is wrong"
};

// True when `head` (the file's first 12 bytes or more) starts a RIFF 'sfbk' file.
bool looksLikeSoundFont(std::span<const uint8_t> head);

ReadResult readSoundFont(const std::filesystem::path& file);
// The same on bytes already in memory (the fuzz target, tests); `name` is used in errors.
ReadResult readSoundFont(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace spindle::sf2
