#include "io/WavWriter.h"

#include <sndfile.h>

#include <algorithm>
#include <utility>

namespace spindle::io {

struct WavWriter::Handle {
  SNDFILE* file = nullptr;
  ~Handle() {
    if (file) sf_close(file);
  }
};

namespace {
constexpr int64_t kChunkFrames = 4096;

int subtypeOf(WavFormat format) noexcept {
  switch (format) {
    case WavFormat::Int16: return SF_FORMAT_PCM_16;
    case WavFormat::Int24: return SF_FORMAT_PCM_24;
    case WavFormat::Float32: break;
  }
  return SF_FORMAT_FLOAT;
}
}  // namespace

std::optional<WavFormat> parseWavFormat(std::string_view name) noexcept {
  if (name == "f32") return WavFormat::Float32;
  if (name == "s16") return WavFormat::Int16;
  if (name == "s24") return WavFormat::Int24;
  return std::nullopt;
}

const char* wavFormatName(WavFormat format) noexcept {
  switch (format) {
    case WavFormat::Int16: return "s16";
    case WavFormat::Int24: return "s24";
    case WavFormat::Float32: break;
  }
  return "f32";
}

std::unique_ptr<WavWriter> WavWriter::create(const std::filesystem::path& path, int sampleRate,
                                             WavFormat format, std::string& error) {
  SF_INFO info{};
  info.samplerate = sampleRate;
  info.channels = 2;
  info.format = SF_FORMAT_WAV | subtypeOf(format);
  auto handle = std::make_unique<Handle>();
  handle->file = sf_open(path.c_str(), SFM_WRITE, &info);
  if (!handle->file) {
    error = sf_strerror(nullptr);
    return nullptr;
  }
  // Float to integer conversion saturates instead of wrapping around.
  sf_command(handle->file, SFC_SET_CLIPPING, nullptr, SF_TRUE);
  // No PEAK chunk: libsndfile stamps it with the wall-clock second, so two renders of the
  // same song would differ in their header whenever they straddle a second.
  sf_command(handle->file, SFC_SET_ADD_PEAK_CHUNK, nullptr, SF_FALSE);
  return std::unique_ptr<WavWriter>(new WavWriter(std::move(handle)));
}

WavWriter::WavWriter(std::unique_ptr<Handle> handle)
    : handle_(std::move(handle)), interleaved_(static_cast<std::size_t>(2 * kChunkFrames)) {}

WavWriter::~WavWriter() = default;

bool WavWriter::write(const float* left, const float* right, int64_t frames) {
  if (!handle_) {
    error_ = "write after close";
    return false;
  }
  for (int64_t done = 0; done < frames;) {
    const int64_t count = std::min(frames - done, kChunkFrames);
    for (int64_t i = 0; i < count; ++i) {
      interleaved_[static_cast<std::size_t>(2 * i)] = left[done + i];
      interleaved_[static_cast<std::size_t>(2 * i + 1)] = right[done + i];
    }
    if (sf_writef_float(handle_->file, interleaved_.data(), count) != count) {
      error_ = sf_strerror(handle_->file);
      return false;
    }
    done += count;
    framesWritten_ += count;
  }
  return true;
}

bool WavWriter::close() {
  if (!handle_) return error_.empty();
  const int status = sf_close(handle_->file);
  handle_->file = nullptr;
  handle_.reset();
  if (status != 0) error_ = sf_error_number(status);
  return status == 0;
}

}  // namespace spindle::io
