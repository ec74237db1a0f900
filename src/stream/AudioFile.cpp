#include "stream/AudioFile.h"

#include <fcntl.h>
#include <sndfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "stream/AudioDecoder.h"
#include "stream/RiffCheck.h"

namespace spindle::stream {

// The reader opens the descriptor itself, so that posix_fadvise can be applied to it;
// the decoder reads through it and never closes it. A slice path (stream/SampleSlice.h)
// opens its file and decodes only the slice's range.
std::unique_ptr<AudioFileReader> AudioFileReader::open(const std::filesystem::path& path, std::string& error) {
  const auto sliced = parseSlicePath(path.native());
  std::unique_ptr<AudioFileReader> reader(new AudioFileReader());
  reader->fd_ = ::open(sliced ? sliced->first.c_str() : path.c_str(), O_RDONLY | O_CLOEXEC);
  if (reader->fd_ < 0) {
    error = "cannot open the file";
    return nullptr;
  }
  struct stat st {};
  const auto fileBytes = ::fstat(reader->fd_, &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
  if (sliced) {
    if (!reader->openSlice(sliced->second, fileBytes, error)) return nullptr;
  } else if (!reader->openWhole(fileBytes, error)) {
    return nullptr;
  }
  if (!reader->decoder_ || !reader->settleLength(error)) return nullptr;
  if (reader->info_.frames > 0)
    reader->bytesPerFrame_ = static_cast<double>(reader->rangeBytes_) / static_cast<double>(reader->info_.frames);
  return reader;
}

// A whole file, its RIFF chunks checked first (stream/RiffCheck.h). Where its writer left
// out the pad byte after an odd-sized chunk, libsndfile reads it with the byte put back,
// and the info's warning says so.
bool AudioFileReader::openWhole(uint64_t fileBytes, std::string& error) {
  std::vector<uint64_t> pads;
  if (std::string problem = riffStructureProblem(fd_, pads); !problem.empty()) {
    error = "malformed WAV file: " + problem;
    return false;
  }
  rangeBytes_ = fileBytes;
  if (detail::isNativeFlac(fd_)) decoder_ = detail::openFlac(fd_, info_, error);
  else if (pads.empty()) decoder_ = detail::openWithSndfile(fd_, info_, error);
  else decoder_ = detail::openWithSndfileRange(fd_, 0, fileBytes, info_, error, pads);
  if (decoder_ && !pads.empty())
    info_.warning = "the RIFF pad byte after an odd-sized chunk is missing at byte " + std::to_string(pads.front()) +
                    (pads.size() > 1 ? " (and " + std::to_string(pads.size() - 1) + " more)" : "") +
                    "; read as if it were there";
  return decoder_ != nullptr;
}

// A slice must lie inside its file: a SoundFont whose sample headers point past its
// sample data is refused here rather than read short later.
bool AudioFileReader::openSlice(const SampleSlice& slice, uint64_t fileBytes, std::string& error) {
  const bool pcm = slice.encoding == SliceEncoding::Pcm16;
  const uint64_t bytes = pcm ? slice.count * 2 : slice.count;
  const bool inside = slice.offset <= fileBytes && bytes <= fileBytes - slice.offset &&
                      (!pcm || !slice.offset24 || (slice.offset24 <= fileBytes && slice.count <= fileBytes - slice.offset24));
  if (!inside) {
    error = "the sample's range (" + std::to_string(bytes) + " bytes at " + std::to_string(slice.offset) +
            ") lies outside the file";
    return false;
  }
  rangeOffset_ = slice.offset;
  rangeBytes_ = bytes;
  decoder_ = pcm ? detail::openPcm16Slice(fd_, slice, info_, error)
                 : detail::openWithSndfileRange(fd_, slice.offset, slice.count, info_, error);
  return decoder_ != nullptr;
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

bool AudioFileReader::seeksExactly() const noexcept {
  const int sub = info_.format & SF_FORMAT_SUBMASK;
  return sub != SF_FORMAT_VORBIS && sub != SF_FORMAT_OPUS;
}

bool AudioFileReader::reads16() const noexcept { return decoder_->reads16(); }

int64_t AudioFileReader::readPlanar16(int16_t* left, int16_t* right, int64_t frames) {
  return decoder_->readPlanar16(left, right, frames, lastError_);
}

bool AudioFileReader::boundary(int64_t& frame, uint64_t& byte) { return decoder_->boundary(frame, byte); }

bool AudioFileReader::seekToBoundary(int64_t frame, uint64_t byte) { return decoder_->seekToBoundary(frame, byte); }

void AudioFileReader::adviseSequential() noexcept { ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL); }

void AudioFileReader::adviseWillNeed(int64_t frame, int64_t frames) noexcept {
  if (frames <= 0 || frame < 0) return;
  const auto offset = static_cast<off_t>(rangeOffset_ + static_cast<uint64_t>(static_cast<double>(frame) * bytesPerFrame_));
  const auto length = static_cast<off_t>(static_cast<double>(frames) * bytesPerFrame_) + 1;
  ::posix_fadvise(fd_, offset, length, POSIX_FADV_WILLNEED);
}

void AudioFileReader::dropCache() noexcept {
  ::posix_fadvise(fd_, static_cast<off_t>(rangeOffset_), static_cast<off_t>(rangeBytes_), POSIX_FADV_DONTNEED);
}

}  // namespace spindle::stream
