#pragma once
// A sample stored inside a larger file: a SoundFont's samples are ranges of its one
// `smpl` chunk (raw 16-bit mono PCM, with the low bytes of 24-bit samples in `sm24`),
// and an SF3's are Ogg Vorbis streams laid end to end. Such a sample is named by its
// file's path with the range appended (slicePath), so every layer that keys samples by
// path (the pool, the block cache, the disk thread's readers) treats it as a file of
// its own; AudioFileReader::open decodes the range and nothing outside it.
//
//   "<file>#slice:<encoding>:<byte offset>:<count>:<rate>:<sm24 byte offset>"
//   count: frames for pcm16, bytes for vorbis; sm24 offset 0: no 24-bit extension.
//
// Thread: any (pure string functions).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spindle::stream {

enum class SliceEncoding : uint8_t { Pcm16, Vorbis };

struct SampleSlice {
  SliceEncoding encoding = SliceEncoding::Pcm16;
  uint64_t offset = 0;    // first byte of the sample in the file
  uint64_t count = 0;     // frames (Pcm16) or bytes (Vorbis)
  uint32_t rate = 44100;  // frames per second (Pcm16; a Vorbis stream states its own)
  uint64_t offset24 = 0;  // Pcm16: first byte of its sm24 low bytes; 0 = none
};

std::string slicePath(const std::string& file, const SampleSlice& slice);
// The file and the slice of a slice path; nullopt for a plain path.
std::optional<std::pair<std::string, SampleSlice>> parseSlicePath(std::string_view path);
// The file a path reads from: the path itself, or a slice path's file.
std::string fileOfPath(const std::string& path);
// The "#slice:..." suffix of a slice path ("" for a plain path), to name the same
// range in another path of the same file (a descriptor's /proc/self/fd entry).
std::string sliceSuffix(const std::string& path);

}  // namespace spindle::stream
