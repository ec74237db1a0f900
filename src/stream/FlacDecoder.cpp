// The libFLAC decoder behind AudioFileReader, for native FLAC files.
//
// Why not libsndfile: its FLAC reader callocs FLAC__MAX_BLOCK_SIZE (65535) frames per
// channel, 512 KiB for a stereo file, whatever the file's block size; with a reader per
// stream plus the disk thread's cache of idle ones that was most of the disk thread's
// memory, and its high-water mark crept up with every new peak of open streams.
//
// Here one decoded frame (the file's own block size, 4096 frames for most encoders) is
// kept as planar integers and handed out as asked for, as float or (16 bits or fewer)
// as 16-bit integers. libFLAC's own state is ~64 KiB.
//
// Seeking: libFLAC's seek_absolute bisects the file, decoding a frame at every probe
// when the file has no seek table (libsndfile writes none): 0.26 ms a seek, 40 % of
// the decoding time of the dense piano bench. boundary() reports where a FLAC frame
// starts (its first file frame and byte offset) once the reader stands there, and
// seekToBoundary() goes back to such a frame by lseek and a flush, no search.
#include <FLAC/stream_decoder.h>
#include <sndfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "stream/AudioDecoder.h"

namespace spindle::stream::detail {

namespace {

struct DecoderDelete {
  void operator()(FLAC__StreamDecoder* decoder) const noexcept { FLAC__stream_decoder_delete(decoder); }
};

std::string formatNameFor(unsigned bits) {
  return bits == 8 ? "FLAC PCM_S8" : "FLAC PCM_" + std::to_string(bits);
}

int formatCodeFor(unsigned bits) {
  switch (bits) {
    case 8: return SF_FORMAT_FLAC | SF_FORMAT_PCM_S8;
    case 16: return SF_FORMAT_FLAC | SF_FORMAT_PCM_16;
    case 24: return SF_FORMAT_FLAC | SF_FORMAT_PCM_24;
    case 32: return SF_FORMAT_FLAC | SF_FORMAT_PCM_32;
    default: return SF_FORMAT_FLAC;
  }
}

class FlacDecoder final : public AudioDecoder {
 public:
  explicit FlacDecoder(int fd) : fd_(fd), decoder_(FLAC__stream_decoder_new()) {}
  FlacDecoder(const FlacDecoder&) = delete;
  FlacDecoder& operator=(const FlacDecoder&) = delete;

  // Reads the metadata and fills `info`; false with `error` set when the file is not
  // a FLAC stream this decoder can play.
  bool init(AudioFileInfo& info, std::string& error);
  int64_t readPlanar(float* left, float* right, int64_t frames, std::string& error) override;
  bool seek(int64_t frame) override;
  bool reads16() const noexcept override { return streamInfo_.bits_per_sample <= 16; }
  int64_t readPlanar16(int16_t* left, int16_t* right, int64_t frames, std::string& error) override;
  bool boundary(int64_t& frame, uint64_t& byte) override;
  bool seekToBoundary(int64_t frame, uint64_t byte) override;

 private:
  // Hands out buffered frames through `put(from, n, done)`, decoding more as needed.
  template <typename Put>
  int64_t deliver(int64_t frames, std::string& error, Put put);
  bool rewind();
  bool decodeOneFrame();
  void keepFrame(const FLAC__Frame* frame, const FLAC__int32* const buffer[]);
  std::string stateText() const;

  static FLAC__StreamDecoderReadStatus onRead(const FLAC__StreamDecoder*, FLAC__byte buffer[], size_t* bytes,
                                              void* self);
  static FLAC__StreamDecoderSeekStatus onSeek(const FLAC__StreamDecoder*, FLAC__uint64 offset, void* self);
  static FLAC__StreamDecoderTellStatus onTell(const FLAC__StreamDecoder*, FLAC__uint64* offset, void* self);
  static FLAC__StreamDecoderLengthStatus onLength(const FLAC__StreamDecoder*, FLAC__uint64* length, void* self);
  static FLAC__bool onEof(const FLAC__StreamDecoder*, void* self);
  static FLAC__StreamDecoderWriteStatus onWrite(const FLAC__StreamDecoder*, const FLAC__Frame* frame,
                                                const FLAC__int32* const buffer[], void* self);
  static void onMetadata(const FLAC__StreamDecoder*, const FLAC__StreamMetadata* metadata, void* self);
  static void onError(const FLAC__StreamDecoder*, FLAC__StreamDecoderErrorStatus status, void* self);

  int fd_;
  std::unique_ptr<FLAC__StreamDecoder, DecoderDelete> decoder_;
  FLAC__StreamMetadata_StreamInfo streamInfo_{};
  bool haveStreamInfo_ = false;
  bool fileEnded_ = false;  // the last read() returned 0
  bool pastEnd_ = false;    // seek()ed to the very end: reads return nothing
  std::string error_;       // a decoding or read error: reads stop until the next seek
  std::vector<FLAC__int32> left_, right_;  // the decoded frame, first two channels
  int64_t frameLength_ = 0, framePos_ = 0;
  unsigned frameBits_ = 16;        // bits per sample of the decoded frame
  int64_t nextStart_ = 0;          // file frame of the next frame libFLAC delivers
  int64_t headerStart_ = -1;       // the first file frame the decoded frame's header states
};

bool FlacDecoder::init(AudioFileInfo& info, std::string& error) {
  if (!decoder_ || FLAC__stream_decoder_init_stream(decoder_.get(), onRead, onSeek, onTell, onLength, onEof, onWrite,
                                                    onMetadata, onError, this) != FLAC__STREAM_DECODER_INIT_STATUS_OK) {
    error = "the FLAC decoder could not start";
    return false;
  }
  if (!FLAC__stream_decoder_process_until_end_of_metadata(decoder_.get()) || !haveStreamInfo_) {
    error = "malformed FLAC file: " + (error_.empty() ? std::string("no readable STREAMINFO block") : error_);
    return false;
  }
  const auto& si = streamInfo_;
  if (si.channels < 1 || si.sample_rate < 1 || si.bits_per_sample < 4 || si.bits_per_sample > 32) {
    error = "the file declares " + std::to_string(si.channels) + " channels of " +
            std::to_string(si.bits_per_sample) + " bits at " + std::to_string(si.sample_rate) + " Hz";
    return false;
  }
  info.format = formatCodeFor(si.bits_per_sample);
  info.formatName = formatNameFor(si.bits_per_sample);
  info.channels = static_cast<int>(si.channels);
  info.sampleRate = si.sample_rate;
  info.frames = si.total_samples > 0 ? static_cast<int64_t>(si.total_samples) : -1;
  error_.clear();
  return true;
}

template <typename Put>
int64_t FlacDecoder::deliver(int64_t frames, std::string& error, Put put) {
  int64_t done = 0;
  while (done < frames && !pastEnd_) {
    if (framePos_ < frameLength_) {
      const int64_t n = std::min(frames - done, frameLength_ - framePos_);
      put(framePos_, n, done);
      framePos_ += n;
      done += n;
    } else if (!error_.empty() || !decodeOneFrame()) {
      break;
    }
  }
  if (done < frames && !error_.empty()) error = error_;
  return done;
}

int64_t FlacDecoder::readPlanar(float* left, float* right, int64_t frames, std::string& error) {
  // libsndfile's scale, so that both readers agree bit for bit: exact for up to 24 bits.
  const bool stereo = right && streamInfo_.channels > 1;
  return deliver(frames, error, [&](int64_t from, int64_t n, int64_t at) {
    const float scale = 1.0f / static_cast<float>(int64_t{1} << (frameBits_ - 1));
    const auto toFloat = [scale](FLAC__int32 v) { return static_cast<float>(v) * scale; };
    std::transform(left_.data() + from, left_.data() + from + n, left + at, toFloat);
    if (stereo) std::transform(right_.data() + from, right_.data() + from + n, right + at, toFloat);
  });
}

int64_t FlacDecoder::readPlanar16(int16_t* left, int16_t* right, int64_t frames, std::string& error) {
  if (!reads16()) return -1;
  const bool stereo = right && streamInfo_.channels > 1;
  return deliver(frames, error, [&](int64_t from, int64_t n, int64_t at) {
    const unsigned shift = 16 - std::min(frameBits_, 16u);  // v / 2^(bits-1) == (v << shift) / 32768
    const auto to16 = [shift](FLAC__int32 v) { return static_cast<int16_t>(static_cast<uint32_t>(v) << shift); };
    std::transform(left_.data() + from, left_.data() + from + n, left + at, to16);
    if (stereo) std::transform(right_.data() + from, right_.data() + from + n, right + at, to16);
  });
}

bool FlacDecoder::boundary(int64_t& frame, uint64_t& byte) {
  if (framePos_ < frameLength_ || pastEnd_ || !error_.empty()) return false;
  FLAC__uint64 at = 0;
  if (!FLAC__stream_decoder_get_decode_position(decoder_.get(), &at)) return false;
  frame = nextStart_;
  byte = at;
  return true;
}

bool FlacDecoder::seekToBoundary(int64_t frame, uint64_t byte) {
  error_.clear();
  frameLength_ = framePos_ = 0;
  pastEnd_ = false;
  fileEnded_ = false;
  if (::lseek(fd_, static_cast<off_t>(byte), SEEK_SET) < 0 || !FLAC__stream_decoder_flush(decoder_.get()))
    return seek(frame);
  nextStart_ = frame;
  headerStart_ = -1;
  if (!decodeOneFrame() || headerStart_ != frame) return seek(frame);
  return true;
}

// One more frame into left_/right_; false at the end of the stream or on an error.
bool FlacDecoder::decodeOneFrame() {
  while (framePos_ >= frameLength_) {
    if (FLAC__stream_decoder_get_state(decoder_.get()) == FLAC__STREAM_DECODER_END_OF_STREAM) return false;
    if (!FLAC__stream_decoder_process_single(decoder_.get())) {
      if (error_.empty()) error_ = stateText();
      return false;
    }
    if (!error_.empty()) return false;
  }
  return true;
}

bool FlacDecoder::seek(int64_t frame) {
  error_.clear();
  frameLength_ = framePos_ = 0;
  pastEnd_ = false;
  nextStart_ = frame;
  const auto total = static_cast<int64_t>(streamInfo_.total_samples);
  if (frame < 0 || (total > 0 && frame > total)) return false;
  if (total > 0 && frame == total) return pastEnd_ = true;
  if (frame == 0 || total == 0) {
    // With no stated length libFLAC cannot bisect: rewind and decode up to the frame.
    if (!rewind()) return false;
    for (int64_t skipped = 0; skipped < frame;) {
      if (!decodeOneFrame()) return false;
      const int64_t n = std::min(frame - skipped, frameLength_ - framePos_);
      framePos_ += n;
      skipped += n;
    }
    return true;
  }
  if (FLAC__stream_decoder_get_state(decoder_.get()) == FLAC__STREAM_DECODER_ABORTED)
    FLAC__stream_decoder_flush(decoder_.get());
  if (FLAC__stream_decoder_seek_absolute(decoder_.get(), static_cast<FLAC__uint64>(frame))) return error_.empty();
  // A failed seek leaves the decoder in SEEK_ERROR until it is flushed.
  FLAC__stream_decoder_flush(decoder_.get());
  frameLength_ = framePos_ = 0;
  return false;
}

bool FlacDecoder::rewind() {
  fileEnded_ = false;
  nextStart_ = 0;
  return FLAC__stream_decoder_reset(decoder_.get()) &&
         FLAC__stream_decoder_process_until_end_of_metadata(decoder_.get()) && error_.empty();
}

void FlacDecoder::keepFrame(const FLAC__Frame* frame, const FLAC__int32* const buffer[]) {
  const auto length = static_cast<std::size_t>(frame->header.blocksize);
  frameBits_ = frame->header.bits_per_sample;
  const auto& number = frame->header.number;
  headerStart_ = number.sample_number;
  if (frame->header.number_type == FLAC__FRAME_NUMBER_TYPE_FRAME_NUMBER)
    headerStart_ = int64_t{number.frame_number} * streamInfo_.max_blocksize;
  if (left_.size() < length) left_.resize(length);
  std::copy_n(buffer[0], length, left_.begin());
  if (streamInfo_.channels > 1) {  // a (malformed) mono frame in a stereo stream: silent right
    if (right_.size() < length) right_.resize(length);
    if (frame->header.channels > 1) std::copy_n(buffer[1], length, right_.begin());
    else std::fill_n(right_.begin(), length, 0);
  }
  frameLength_ = static_cast<int64_t>(length);
  framePos_ = 0;
  nextStart_ += frameLength_;
}

std::string FlacDecoder::stateText() const {
  return std::string("the FLAC decoder stopped: ") +
         FLAC__StreamDecoderStateString[FLAC__stream_decoder_get_state(decoder_.get())];
}

FLAC__StreamDecoderReadStatus FlacDecoder::onRead(const FLAC__StreamDecoder*, FLAC__byte buffer[], size_t* bytes,
                                                  void* self) {
  auto& d = *static_cast<FlacDecoder*>(self);
  ssize_t got = 0;
  do got = ::read(d.fd_, buffer, *bytes);
  while (got < 0 && errno == EINTR);
  if (got < 0) {
    d.error_ = std::strerror(errno);
    *bytes = 0;
    return FLAC__STREAM_DECODER_READ_STATUS_ABORT;
  }
  *bytes = static_cast<size_t>(got);
  d.fileEnded_ = got == 0;
  return got == 0 ? FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM : FLAC__STREAM_DECODER_READ_STATUS_CONTINUE;
}

FLAC__StreamDecoderSeekStatus FlacDecoder::onSeek(const FLAC__StreamDecoder*, FLAC__uint64 offset, void* self) {
  auto& d = *static_cast<FlacDecoder*>(self);
  d.fileEnded_ = false;
  return ::lseek(d.fd_, static_cast<off_t>(offset), SEEK_SET) < 0 ? FLAC__STREAM_DECODER_SEEK_STATUS_ERROR
                                                                   : FLAC__STREAM_DECODER_SEEK_STATUS_OK;
}

FLAC__StreamDecoderTellStatus FlacDecoder::onTell(const FLAC__StreamDecoder*, FLAC__uint64* offset, void* self) {
  const off_t at = ::lseek(static_cast<FlacDecoder*>(self)->fd_, 0, SEEK_CUR);
  if (at < 0) return FLAC__STREAM_DECODER_TELL_STATUS_ERROR;
  *offset = static_cast<FLAC__uint64>(at);
  return FLAC__STREAM_DECODER_TELL_STATUS_OK;
}

FLAC__StreamDecoderLengthStatus FlacDecoder::onLength(const FLAC__StreamDecoder*, FLAC__uint64* length, void* self) {
  struct stat st {};
  if (::fstat(static_cast<FlacDecoder*>(self)->fd_, &st) != 0) return FLAC__STREAM_DECODER_LENGTH_STATUS_ERROR;
  *length = static_cast<FLAC__uint64>(st.st_size);
  return FLAC__STREAM_DECODER_LENGTH_STATUS_OK;
}

FLAC__bool FlacDecoder::onEof(const FLAC__StreamDecoder*, void* self) {
  return static_cast<FlacDecoder*>(self)->fileEnded_;
}

FLAC__StreamDecoderWriteStatus FlacDecoder::onWrite(const FLAC__StreamDecoder*, const FLAC__Frame* frame,
                                                    const FLAC__int32* const buffer[], void* self) {
  auto& d = *static_cast<FlacDecoder*>(self);
  // A frame after an error (libFLAC sends a corrupt frame as silence) is not played:
  // the read ends at the last good frame, as libsndfile's does.
  if (d.error_.empty()) d.keepFrame(frame, buffer);
  return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE;
}

void FlacDecoder::onMetadata(const FLAC__StreamDecoder*, const FLAC__StreamMetadata* metadata, void* self) {
  auto& d = *static_cast<FlacDecoder*>(self);
  if (metadata->type != FLAC__METADATA_TYPE_STREAMINFO) return;
  d.streamInfo_ = metadata->data.stream_info;
  d.haveStreamInfo_ = true;
}

void FlacDecoder::onError(const FLAC__StreamDecoder*, FLAC__StreamDecoderErrorStatus status, void* self) {
  auto& d = *static_cast<FlacDecoder*>(self);
  if (d.error_.empty()) d.error_ = std::string("corrupt FLAC stream: ") + FLAC__StreamDecoderErrorStatusString[status];
}

}  // namespace

bool isNativeFlac(int fd) noexcept {
  char magic[4] = {};
  return ::pread(fd, magic, sizeof magic, 0) == static_cast<ssize_t>(sizeof magic) &&
         std::memcmp(magic, "fLaC", sizeof magic) == 0;
}

std::unique_ptr<AudioDecoder> openFlac(int fd, AudioFileInfo& info, std::string& error) {
  auto decoder = std::make_unique<FlacDecoder>(fd);
  if (!decoder->init(info, error)) return nullptr;
  return decoder;
}

}  // namespace spindle::stream::detail
