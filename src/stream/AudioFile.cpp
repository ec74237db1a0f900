#include "stream/AudioFile.h"

#include <fcntl.h>
#include <sndfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <utility>

#include "stream/RiffCheck.h"

namespace spindle::stream {

// libsndfile reads through a descriptor we open ourselves, so that posix_fadvise can
// be applied to it. libsndfile never closes it (close_desc = SF_FALSE): the handle
// does, once, after sf_close, also when sf_open_fd failed.
struct AudioFileReader::Handle {
  SNDFILE* file = nullptr;
  SF_INFO info{};
  int fd = -1;
  ~Handle() {
    if (file) sf_close(file);
    if (fd >= 0) ::close(fd);
  }
};

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
  return nameOf(kContainers, format & SF_FORMAT_TYPEMASK) + " " +
         nameOf(kSubtypes, format & SF_FORMAT_SUBMASK);
}

}  // namespace

std::unique_ptr<AudioFileReader> AudioFileReader::open(const std::filesystem::path& path,
                                                       std::string& error) {
  auto handle = std::make_unique<Handle>();
  handle->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (handle->fd < 0) {
    error = "cannot open the file";
    return nullptr;
  }
  if (std::string problem = riffStructureProblem(handle->fd); !problem.empty()) {
    error = "malformed WAV file: " + problem;
    return nullptr;
  }
  handle->file = sf_open_fd(handle->fd, SFM_READ, &handle->info, SF_FALSE);
  if (!handle->file) {
    error = sf_strerror(nullptr);
    return nullptr;
  }
  if (handle->info.channels < 1 || handle->info.samplerate < 1) {
    error = "the file declares " + std::to_string(handle->info.channels) + " channels at " +
            std::to_string(handle->info.samplerate) + " Hz";
    return nullptr;
  }
  std::unique_ptr<AudioFileReader> reader(new AudioFileReader(std::move(handle)));
  if (!reader->settleLength(error)) return nullptr;
  reader->readInfo();
  return reader;
}

// libsndfile reports SF_COUNT_MAX frames when the header does not say (a FLAC stream
// written to a pipe has total_samples = 0): count them by decoding once, then rewind.
// A length past kMaxFileFrames, claimed or counted, is refused: trusting it would size
// a whole-file load beyond any memory.
bool AudioFileReader::settleLength(std::string& error) {
  SF_INFO& sf = handle_->info;
  if (sf.frames == SF_COUNT_MAX) {
    sf_count_t counted = 0, got = 0;
    while (counted <= kMaxFileFrames && (got = sf_readf_float(handle_->file, chunk_.get(), kChunkFrames)) > 0)
      counted += got;
    if (sf_seek(handle_->file, 0, SEEK_SET) != 0) {
      error = "the file does not state its length and cannot be rewound after counting it";
      return false;
    }
    sf.frames = counted;
  }
  if (sf.frames < 0 || sf.frames > kMaxFileFrames) {
    error = "the file claims " + std::to_string(sf.frames) + " frames (at most " + std::to_string(kMaxFileFrames) +
            " are accepted)";
    return false;
  }
  return true;
}

AudioFileReader::AudioFileReader(std::unique_ptr<Handle> handle) : handle_(std::move(handle)) {
  chunk_ = std::make_unique<float[]>(static_cast<std::size_t>(kChunkFrames * handle_->info.channels));
}

AudioFileReader::~AudioFileReader() = default;

void AudioFileReader::readInfo() {
  const SF_INFO& sf = handle_->info;
  info_.format = sf.format;
  info_.formatName = formatName(sf.format);
  info_.channels = sf.channels;
  info_.frames = sf.frames;
  info_.sampleRate = sf.samplerate;
  struct stat st {};
  if (::fstat(handle_->fd, &st) == 0 && sf.frames > 0)
    bytesPerFrame_ = static_cast<double>(st.st_size) / static_cast<double>(sf.frames);

  SF_INSTRUMENT instrument{};
  const bool hasInstrument =
      sf_command(handle_->file, SFC_GET_INSTRUMENT, &instrument, sizeof instrument) == SF_TRUE;
  if (hasInstrument && instrument.basenote > 0)  // basenote is a char: 1..127
    info_.rootKey = instrument.basenote;
  if (hasInstrument && instrument.loop_count > 0 && instrument.loops[0].mode != SF_LOOP_NONE) {
    // libsndfile reports the loop end one past the last looped frame (it adds 1 to
    // the smpl chunk's inclusive dwEnd); SFZ's loop_end is inclusive again.
    const int64_t start = instrument.loops[0].start;
    const int64_t end = std::min<int64_t>(int64_t{instrument.loops[0].end} - 1, sf.frames - 1);
    if (start >= 0 && end > start) {
      info_.loopStart = start;
      info_.loopEnd = end;
    }
  }
}

int64_t AudioFileReader::readPlanar(float* left, float* right, int64_t frames) {
  const int channels = handle_->info.channels;
  int64_t done = 0;
  while (done < frames) {
    const sf_count_t want = std::min(frames - done, kChunkFrames);
    const sf_count_t got = sf_readf_float(handle_->file, chunk_.get(), want);
    if (got <= 0) break;
    const float* in = chunk_.get();
    float* l = left + done;
    if (channels == 1) {
      std::copy_n(in, got, l);
    } else if (right) {
      float* r = right + done;
      for (sf_count_t i = 0; i < got; ++i) {
        l[i] = in[i * channels];
        r[i] = in[i * channels + 1];
      }
    } else {
      for (sf_count_t i = 0; i < got; ++i) l[i] = in[i * channels];
    }
    done += got;
    if (got < want) break;
  }
  if (done < frames && sf_error(handle_->file) != SF_ERR_NO_ERROR)
    lastError_ = sf_strerror(handle_->file);
  return done;
}

bool AudioFileReader::seek(int64_t frame) {
  return sf_seek(handle_->file, frame, SEEK_SET) == frame;
}

void AudioFileReader::adviseSequential() noexcept {
  ::posix_fadvise(handle_->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
}

void AudioFileReader::adviseWillNeed(int64_t frame, int64_t frames) noexcept {
  if (frames <= 0 || frame < 0) return;
  const auto offset = static_cast<off_t>(static_cast<double>(frame) * bytesPerFrame_);
  const auto length = static_cast<off_t>(static_cast<double>(frames) * bytesPerFrame_) + 1;
  ::posix_fadvise(handle_->fd, offset, length, POSIX_FADV_WILLNEED);
}

void AudioFileReader::dropCache() noexcept { ::posix_fadvise(handle_->fd, 0, 0, POSIX_FADV_DONTNEED); }

}  // namespace spindle::stream
