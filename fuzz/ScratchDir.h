#pragma once
// ScratchDir: one private temporary folder per fuzzing process, removed at exit.
// Targets that must go through the file system (#include resolution, libsndfile's
// format detection) write their inputs here and nowhere else.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace spindle::fuzz {

class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "spindle-fuzz.XXXXXX").string();
    if (!mkdtemp(pattern.data())) std::abort();
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const noexcept { return path_; }

  // Writes `bytes` to `name` inside the folder (replacing it); returns its path.
  std::filesystem::path write(const std::string& name, std::string_view bytes) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return file;
  }

 private:
  std::filesystem::path path_;
};

// The process's scratch folder (created on first use).
inline const ScratchDir& scratch() {
  static const ScratchDir dir;
  return dir;
}

}  // namespace spindle::fuzz
