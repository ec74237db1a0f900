// The libsndfile decoder behind AudioFileReader: WAV, AIFF, Ogg and every format the
// installed libsndfile reads except native FLAC (FlacDecoder.cpp).
#include <sndfile.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <vector>

#include "stream/AudioDecoder.h"

namespace spindle::stream::detail {

namespace {

struct FormatName {
  int code;
  const char* name;
};

// The short names libsndfile's own tools and python-soundfile print.
constexpr std::array<FormatName, 11> kContainers{{
    {SF_FORMAT_WAV, "WAV"}, {SF_FORMAT_WAVEX, "WAVEX"}, {SF_FORMAT_AIFF, "AIFF"},
    {SF_FORMAT_AU, "AU"}, {SF_FORMAT_RAW, "RAW"}, {SF_FORMAT_W64, "W64"},
    {SF_FORMAT_CAF, "CAF"}, {SF_FORMAT_FLAC, "FLAC"}, {SF_FORMAT_OGG, "OGG"},
    {SF_FORMAT_RF64, "RF64"}, {SF_FORMAT_SD2, "SD2"},
}};
constexpr std::array<FormatName, 11> kSubtypes{{
    {SF_FORMAT_PCM_S8, "PCM_S8"}, {SF_FORMAT_PCM_U8, "PCM_U8"}, {SF_FORMAT_PCM_16, "PCM_16"},
    {SF_FORMAT_PCM_24, "PCM_24"}, {SF_FORMAT_PCM_32, "PCM_32"}, {SF_FORMAT_FLOAT, "FLOAT"},
    {SF_FORMAT_DOUBLE, "DOUBLE"}, {SF_FORMAT_VORBIS, "VORBIS"}, {SF_FORMAT_OPUS, "OPUS"},
    {SF_FORMAT_ULAW, "ULAW"}, {SF_FORMAT_ALAW, "ALAW"},
}};

template <std::size_t N>
std::string nameOf(const std::array<FormatName, N>& table, int code) {
  for (const auto& entry : table)
    if (entry.code == code) return entry.name;
  return "0x" + std::to_string(code);
}

std::string formatName(int format) {
  return nameOf(kContainers, format & SF_FORMAT_TYPEMASK) + " " + nameOf(kSubtypes, format & SF_FORMAT_SUBMASK);
}

// A byte range of a file, as libsndfile's virtual I/O sees it: a file of its own that
// begins at `offset` (an SF3 sample's Ogg stream), with a zero byte inserted at each of
// `pads` (offsets in the range, ascending): the pad bytes a RIFF writer left out after
// odd-sized chunks (stream/RiffPad.h), so that libsndfile finds every chunk where the
// RIFF rule puts it. `size` counts the inserted bytes.
struct RangeIo {
  int fd;
  sf_count_t offset, size, position = 0;
  std::vector<sf_count_t> pads;

  static sf_count_t length(void* self) { return static_cast<RangeIo*>(self)->size; }
  static sf_count_t tell(void* self) { return static_cast<RangeIo*>(self)->position; }
  static sf_count_t seek(sf_count_t to, int whence, void* self) {
    auto& io = *static_cast<RangeIo*>(self);
    const sf_count_t base = whence == SEEK_CUR ? io.position : whence == SEEK_END ? io.size : 0;
    io.position = std::clamp<sf_count_t>(base + to, 0, io.size);
    return io.position;
  }
  // Pad k sits at pads[k] + k as libsndfile sees the range: before it, k bytes were
  // inserted, so the range's byte at position p is the file's at offset + p - k.
  static sf_count_t read(void* dst, sf_count_t count, void* self) {
    auto& io = *static_cast<RangeIo*>(self);
    auto* out = static_cast<char*>(dst);
    sf_count_t done = 0;
    while (done < count && io.position < io.size) {
      std::size_t k = 0;
      while (k < io.pads.size() && io.pads[k] + static_cast<sf_count_t>(k) < io.position) ++k;
      const sf_count_t nextPad = k < io.pads.size() ? io.pads[k] + static_cast<sf_count_t>(k) : io.size;
      if (io.position == nextPad) {
        out[done++] = 0;
        ++io.position;
        continue;
      }
      const sf_count_t want = std::min(count - done, nextPad - io.position);
      const off_t at = static_cast<off_t>(io.offset + io.position - static_cast<sf_count_t>(k));
      const ssize_t got = ::pread(io.fd, out + done, static_cast<size_t>(want), at);
      if (got <= 0) break;
      done += got;
      io.position += got;
    }
    return done;
  }
  static sf_count_t write(const void*, sf_count_t, void*) { return 0; }
};

// Reads interleaved float through a kChunkFrames chunk and splits off two channels.
class SndfileDecoder final : public AudioDecoder {
 public:
  SndfileDecoder(SNDFILE* file, int channels, std::unique_ptr<RangeIo> range = nullptr)
      : file_(file),
        channels_(channels),
        chunk_(std::make_unique<float[]>(static_cast<std::size_t>(AudioFileReader::kChunkFrames * channels))),
        range_(std::move(range)) {}
  ~SndfileDecoder() override { sf_close(file_); }
  SndfileDecoder(const SndfileDecoder&) = delete;
  SndfileDecoder& operator=(const SndfileDecoder&) = delete;

  int64_t readPlanar(float* left, float* right, int64_t frames, std::string& error) override;
  bool seek(int64_t frame) override { return sf_seek(file_, frame, SEEK_SET) == frame; }
  // PCM_16: libsndfile's float is the short / 32768 (an exact power-of-two scale).
  bool reads16() const noexcept override { return pcm16_; }
  int64_t readPlanar16(int16_t* left, int16_t* right, int64_t frames, std::string& error) override;
  void setPcm16(bool pcm16) {
    pcm16_ = pcm16;
    if (pcm16) shorts_ = std::make_unique<int16_t[]>(static_cast<std::size_t>(AudioFileReader::kChunkFrames * channels_));
  }

 private:
  template <typename T, typename Read>
  int64_t readChunks(T* chunk, T* left, T* right, int64_t frames, std::string& error, Read read);

  SNDFILE* file_;
  int channels_;
  bool pcm16_ = false;
  std::unique_ptr<float[]> chunk_;  // kChunkFrames * channels interleaved
  std::unique_ptr<int16_t[]> shorts_;  // the same for readPlanar16 (PCM_16 only)
  std::unique_ptr<RangeIo> range_;  // a range's virtual I/O, read by file_ until it closes
};

template <typename T, typename Read>
int64_t SndfileDecoder::readChunks(T* chunk, T* left, T* right, int64_t frames, std::string& error, Read read) {
  int64_t done = 0;
  while (done < frames) {
    const sf_count_t want = std::min(frames - done, AudioFileReader::kChunkFrames);
    const sf_count_t got = read(chunk, want);
    if (got <= 0) break;
    const T* in = chunk;
    T* l = left + done;
    if (channels_ == 1) {
      std::copy_n(in, got, l);
    } else if (right) {
      T* r = right + done;
      for (sf_count_t i = 0; i < got; ++i) {
        l[i] = in[i * channels_];
        r[i] = in[i * channels_ + 1];
      }
    } else {
      for (sf_count_t i = 0; i < got; ++i) l[i] = in[i * channels_];
    }
    done += got;
    if (got < want) break;
  }
  if (done < frames && sf_error(file_) != SF_ERR_NO_ERROR) error = sf_strerror(file_);
  return done;
}

int64_t SndfileDecoder::readPlanar(float* left, float* right, int64_t frames, std::string& error) {
  return readChunks(chunk_.get(), left, right, frames, error,
                    [this](float* chunk, sf_count_t want) { return sf_readf_float(file_, chunk, want); });
}

int64_t SndfileDecoder::readPlanar16(int16_t* left, int16_t* right, int64_t frames, std::string& error) {
  if (!pcm16_) return -1;
  return readChunks(shorts_.get(), left, right, frames, error,
                    [this](int16_t* chunk, sf_count_t want) { return sf_readf_short(file_, chunk, want); });
}

// The first sustain loop and the root key of a WAV smpl chunk or AIFF markers.
void readInstrument(SNDFILE* file, AudioFileInfo& info) {
  SF_INSTRUMENT instrument{};
  if (sf_command(file, SFC_GET_INSTRUMENT, &instrument, sizeof instrument) != SF_TRUE) return;
  if (instrument.basenote > 0) info.rootKey = instrument.basenote;  // a char: 1..127
  if (instrument.loop_count > 0 && instrument.loops[0].mode != SF_LOOP_NONE) {
    // libsndfile reports the loop end one past the last looped frame (it adds 1 to
    // the smpl chunk's inclusive dwEnd); SFZ's loop_end is inclusive again.
    const int64_t start = instrument.loops[0].start;
    // (AudioFileReader clamps it again once a length the header did not state is counted.)
    int64_t end = int64_t{instrument.loops[0].end} - 1;
    if (info.frames >= 0) end = std::min(end, info.frames - 1);
    if (start >= 0 && end > start) {
      info.loopStart = start;
      info.loopEnd = end;
    }
  }
}

// What both openers share once libsndfile has the file open (or failed to).
std::unique_ptr<AudioDecoder> adopt(SNDFILE* file, const SF_INFO& sf, AudioFileInfo& info, std::string& error,
                                    std::unique_ptr<RangeIo> range) {
  if (!file) {
    error = sf_strerror(nullptr);
    return nullptr;
  }
  if (sf.channels < 1 || sf.samplerate < 1) {
    error = "the file declares " + std::to_string(sf.channels) + " channels at " + std::to_string(sf.samplerate) +
            " Hz";
    sf_close(file);
    return nullptr;
  }
  info.format = sf.format;
  info.formatName = formatName(sf.format);
  info.channels = sf.channels;
  info.sampleRate = sf.samplerate;
  // SF_COUNT_MAX: the header does not say (a FLAC stream written to a pipe).
  info.frames = sf.frames == SF_COUNT_MAX ? -1 : sf.frames;
  readInstrument(file, info);
  auto decoder = std::make_unique<SndfileDecoder>(file, sf.channels, std::move(range));
  decoder->setPcm16((sf.format & SF_FORMAT_SUBMASK) == SF_FORMAT_PCM_16);
  return decoder;
}

}  // namespace

std::unique_ptr<AudioDecoder> openWithSndfile(int fd, AudioFileInfo& info, std::string& error) {
  SF_INFO sf{};
  // libsndfile never closes the descriptor (close_desc = SF_FALSE): the reader does.
  return adopt(sf_open_fd(fd, SFM_READ, &sf, SF_FALSE), sf, info, error, nullptr);
}

std::unique_ptr<AudioDecoder> openWithSndfileRange(int fd, uint64_t offset, uint64_t bytes, AudioFileInfo& info,
                                                   std::string& error, const std::vector<uint64_t>& pads) {
  auto range = std::make_unique<RangeIo>(RangeIo{
      fd, static_cast<sf_count_t>(offset), static_cast<sf_count_t>(bytes + pads.size()), 0, {}});
  for (uint64_t pad : pads) range->pads.push_back(static_cast<sf_count_t>(pad));
  SF_VIRTUAL_IO io{&RangeIo::length, &RangeIo::seek, &RangeIo::read, &RangeIo::write, &RangeIo::tell};
  SF_INFO sf{};
  SNDFILE* file = sf_open_virtual(&io, SFM_READ, &sf, range.get());
  return adopt(file, sf, info, error, std::move(range));
}

}  // namespace spindle::stream::detail
