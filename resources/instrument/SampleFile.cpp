#include "SampleFile.h"

#include <sndfile.h>

#include <memory>
#include <stdexcept>

#include "Spec.h"

namespace spindle::instrument {

void writeFlac24(const std::filesystem::path& path, const std::vector<float>& frames) {
  SF_INFO info{};
  info.samplerate = kSampleRate;
  info.channels = kChannels;
  info.format = SF_FORMAT_FLAC | SF_FORMAT_PCM_24;
  std::unique_ptr<SNDFILE, decltype(&sf_close)> file(sf_open(path.c_str(), SFM_WRITE, &info), &sf_close);
  if (!file) throw std::runtime_error("cannot create " + path.string() + ": " + sf_strerror(nullptr));
  // Highest FLAC compression: the files ship with Spindle and are encoded only once.
  double compression = 1.0;
  sf_command(file.get(), SFC_SET_COMPRESSION_LEVEL, &compression, sizeof compression);
  const auto count = static_cast<sf_count_t>(frames.size());
  if (sf_writef_float(file.get(), frames.data(), count) != count) {
    throw std::runtime_error("short write to " + path.string() + ": " + sf_strerror(file.get()));
  }
  // Closing flushes the last FLAC frame, so its result matters too.
  if (sf_close(file.release()) != 0) throw std::runtime_error("cannot finish " + path.string());
}

}  // namespace spindle::instrument
