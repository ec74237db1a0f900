#pragma once
// WavWriter: a stereo WAV file written through libsndfile, block by block.
//
// Thread: the offline renderer's (any non-audio thread). Integer formats are
// clipped to full scale, not wrapped; no dither. The same blocks give the same bytes
// (no PEAK chunk, whose header carries a wall-clock time stamp).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spindle::io {

enum class WavFormat : uint8_t { Float32, Int16, Int24 };

// "f32", "s16", "s24" -> the format; nullopt for anything else.
std::optional<WavFormat> parseWavFormat(std::string_view name) noexcept;
const char* wavFormatName(WavFormat format) noexcept;

class WavWriter {
 public:
  // Creates (truncates) `path`; nullptr with `error` set (libsndfile's reason) on failure.
  static std::unique_ptr<WavWriter> create(const std::filesystem::path& path, int sampleRate,
                                           WavFormat format, std::string& error);
  ~WavWriter();  // closes the file
  WavWriter(const WavWriter&) = delete;
  WavWriter& operator=(const WavWriter&) = delete;

  // Appends `frames` frames of planar stereo. False on a write error (see error()).
  bool write(const float* left, const float* right, int64_t frames);
  // Flushes and closes; false when the file could not be completed.
  bool close();
  int64_t framesWritten() const noexcept { return framesWritten_; }
  const std::string& error() const noexcept { return error_; }

 private:
  struct Handle;
  explicit WavWriter(std::unique_ptr<Handle> handle);

  std::unique_ptr<Handle> handle_;
  std::vector<float> interleaved_;
  int64_t framesWritten_ = 0;
  std::string error_;
};

}  // namespace spindle::io
