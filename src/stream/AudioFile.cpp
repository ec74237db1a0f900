#include "stream/AudioFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "stream/AudioDecoder.h"
#include "stream/RiffCheck.h"

namespace spindle::stream {

// The reader opens the descriptor itself, so that posix_fadvise can be applied to it;
// the decoder reads through it and never closes it.
std::unique_ptr<AudioFileReader> AudioFileReader::open(const std::filesystem::path& path, std::string& error) {
  std::unique_ptr<AudioFileReader> reader(new AudioFileReader());
  reader->fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (reader->fd_ < 0) {
    error = "cannot open the file";
    return nullptr;
  }
  if (std::string problem = riffStructureProblem(reader->fd_); !problem.empty()) {
    error = "malformed WAV file: " + problem;
    return nullptr;
  }
  reader->decoder_ = detail::isNativeFlac(reader->fd_) ? detail::openFlac(reader->fd_, reader->info_, error)
                                                       : detail::openWithSndfile(reader->fd_, reader->info_, error);
  if (!reader->decoder_ || !reader->settleLength(error)) return nullptr;
  struct stat st {};
  if (::fstat(reader->fd_, &st) == 0 && reader->info_.frames > 0)
    reader->bytesPerFrame_ = static_cast<double>(st.st_size) / static_cast<double>(reader->info_.frames);
  return reader;
}

// A header that does not state the length (a FLAC stream written to a pipe has
// total_samples = 0): count the frames by decoding once, then rewind. A length past
// kMaxFileFrames, claimed or counted, is refused: trusting it would size a whole-file
// load beyond any memory.
bool AudioFileReader::settleLength(std::string& error) {
  if (info_.frames < 0) {
    std::vector<float> scratch(static_cast<std::size_t>(kChunkFrames));
    int64_t counted = 0, got = 0;
    while (counted <= kMaxFileFrames && (got = decoder_->readPlanar(scratch.data(), nullptr, kChunkFrames, lastError_)) > 0)
      counted += got;
    lastError_.clear();
    if (!decoder_->seek(0)) {
      error = "the file does not state its length and cannot be rewound after counting it";
      return false;
    }
    info_.frames = counted;
    if (info_.loopEnd >= counted) info_.loopEnd = counted - 1;
    if (info_.loopEnd <= info_.loopStart) info_.loopStart = info_.loopEnd = -1;
  }
  if (info_.frames > kMaxFileFrames) {
    error = "the file claims " + std::to_string(info_.frames) + " frames (at most " + std::to_string(kMaxFileFrames) +
            " are accepted)";
    return false;
  }
  return true;
}

AudioFileReader::~AudioFileReader() {
  decoder_.reset();
  if (fd_ >= 0) ::close(fd_);
}

int64_t AudioFileReader::readPlanar(float* left, float* right, int64_t frames) {
  return decoder_->readPlanar(left, right, frames, lastError_);
}

bool AudioFileReader::seek(int64_t frame) { return decoder_->seek(frame); }

void AudioFileReader::adviseSequential() noexcept { ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL); }

void AudioFileReader::adviseWillNeed(int64_t frame, int64_t frames) noexcept {
  if (frames <= 0 || frame < 0) return;
  const auto offset = static_cast<off_t>(static_cast<double>(frame) * bytesPerFrame_);
  const auto length = static_cast<off_t>(static_cast<double>(frames) * bytesPerFrame_) + 1;
  ::posix_fadvise(fd_, offset, length, POSIX_FADV_WILLNEED);
}

void AudioFileReader::dropCache() noexcept { ::posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED); }

}  // namespace spindle::stream
