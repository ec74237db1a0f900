#include "sf2/Riff.h"

#include <cstring>

#include "stream/RiffPad.h"

namespace spindle::sf2 {

void MemorySource::read(uint64_t offset, std::span<uint8_t> dst) const {
  if (offset > bytes_.size() || dst.size() > bytes_.size() - offset) throw FormatError("read past the end of the file");
  if (dst.empty()) return;
  std::memcpy(dst.data(), bytes_.data() + offset, dst.size());
}

FileSource::FileSource(std::FILE* file) : file_(file) {
  if (std::fseek(file_, 0, SEEK_END) != 0) throw FormatError("cannot seek");
  const long end = std::ftell(file_);
  if (end < 0) throw FormatError("cannot tell the file's size");
  size_ = static_cast<uint64_t>(end);
}

void FileSource::read(uint64_t offset, std::span<uint8_t> dst) const {
  if (offset > size_ || dst.size() > size_ - offset) throw FormatError("read past the end of the file");
  if (std::fseek(file_, static_cast<long>(offset), SEEK_SET) != 0 ||
      std::fread(dst.data(), 1, dst.size(), file_) != dst.size())
    throw FormatError("read error");
}

namespace {

std::string nameOf(const Chunk& c) { return c.listType.empty() ? c.id : c.id + " " + c.listType; }

// The chunk whose header is at `at`, its size cut to what remains before `end` (with a
// warning) when it declares more.
Chunk readChunk(const ByteSource& src, uint64_t at, uint64_t end, const std::string& where,
                std::vector<std::string>& warnings) {
  uint8_t header[12] = {};
  src.read(at, std::span<uint8_t>(header, 8));
  Chunk c;
  c.id.assign(reinterpret_cast<const char*>(header), 4);
  c.offset = at + 8;
  c.size = le32(header + 4);
  const uint64_t remain = end - c.offset;
  if (c.id == "RIFF" || c.id == "LIST") {
    if (c.size < 4 || remain < 4) throw FormatError(where + ": " + c.id + " chunk too short for its type");
    src.read(c.offset, std::span<uint8_t>(header + 8, 4));
    c.listType.assign(reinterpret_cast<const char*>(header + 8), 4);
  }
  if (c.size > remain) {
    warnings.push_back(where + ": the last chunk, '" + nameOf(c) + "', is cut short: it declares " +
                       std::to_string(c.size) + " bytes, " + std::to_string(remain) + " remain; read as " +
                       std::to_string(remain));
    c.size = remain;
  }
  return c;
}

}  // namespace

void forEachChunk(const ByteSource& src, uint64_t begin, uint64_t size, const std::string& where,
                  std::vector<std::string>& warnings, const std::function<void(const Chunk&)>& visit) {
  const uint64_t end = begin + size;
  const auto readHeader = [&](uint64_t at, uint8_t(&header)[8]) {
    src.read(at, std::span<uint8_t>(header, 8));
    return true;
  };
  uint64_t at = begin;
  while (at < end) {
    if (end - at < 8) {
      warnings.push_back(where + ": " + std::to_string(end - at) + " stray bytes after the last chunk (skipped)");
      return;
    }
    const Chunk c = readChunk(src, at, end, where, warnings);
    visit(c);
    bool padMissing = false;
    at = stream::nextChunkOffset(c.offset + c.size, (c.size & 1) != 0, end, readHeader, padMissing);
    if (padMissing)
      warnings.push_back(where + ": chunk '" + nameOf(c) + "' has an odd size (" + std::to_string(c.size) +
                         " bytes) and no pad byte after it; the next chunk is read from the byte after it");
  }
}

std::vector<uint8_t> readPayload(const ByteSource& src, const Chunk& c) {
  std::vector<uint8_t> bytes(static_cast<size_t>(c.size));
  src.read(c.offset, bytes);
  return bytes;
}

}  // namespace spindle::sf2
