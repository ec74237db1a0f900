#pragma once
// RIFF chunk walking for the SoundFont reader, bounds-checked: a chunk is only ever
// read inside its parent.
// Loader thread.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace spindle::sf2 {

// A format error; the message names the chunk. The reader adds the file name.
struct FormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Random access to the bytes of a file or of a buffer.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual uint64_t size() const = 0;
  // Reads exactly dst.size() bytes at offset, or throws FormatError.
  virtual void read(uint64_t offset, std::span<uint8_t> dst) const = 0;
};

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  uint64_t size() const override { return bytes_.size(); }
  void read(uint64_t offset, std::span<uint8_t> dst) const override;

 private:
  std::span<const uint8_t> bytes_;
};

class FileSource final : public ByteSource {
 public:
  explicit FileSource(std::FILE* file);  // not owned
  uint64_t size() const override { return size_; }
  void read(uint64_t offset, std::span<uint8_t> dst) const override;

 private:
  std::FILE* file_;
  uint64_t size_ = 0;
};

struct Chunk {
  std::string id;         // four characters
  uint64_t offset = 0;    // of the payload
  uint64_t size = 0;      // of the payload, as declared
  std::string listType;   // for RIFF and LIST: the form type; else empty
  uint64_t body() const { return listType.empty() ? offset : offset + 4; }
  uint64_t bodySize() const { return listType.empty() ? size : size - 4; }
};

// Calls visit for each chunk in [begin, begin + size) of src. Chunks are padded to an
// even size; a pad byte left out after an odd-sized chunk is tolerated
// (stream/RiffPad.h). A trailing partial chunk is tolerated too: fewer than 8 bytes
// after the last chunk are skipped, and a last chunk whose payload runs past the range
// is visited with the bytes that remain. Each tolerance adds a sentence to `warnings`.
// Throws FormatError when a header cannot be read or a list is too short for its type.
void forEachChunk(const ByteSource& src, uint64_t begin, uint64_t size, const std::string& where,
                  std::vector<std::string>& warnings, const std::function<void(const Chunk&)>& visit);

// The chunk's payload (a pdta or INFO sub-chunk; small by construction of the caller).
std::vector<uint8_t> readPayload(const ByteSource& src, const Chunk& c);

// Little-endian reads from a record.
inline uint16_t le16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
inline uint32_t le32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) | (static_cast<uint32_t>(p[2]) << 16) |
         (static_cast<uint32_t>(p[3]) << 24);
}

}  // namespace spindle::sf2
