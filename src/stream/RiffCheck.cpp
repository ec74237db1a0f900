#include "stream/RiffCheck.h"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstring>

namespace spindle::stream {

namespace {

constexpr int kMaxChunks = 100000;  // bounds the walk on a file of tiny chunks

struct ChunkHeader {
  char id[4];
  uint32_t size;
};

bool readHeader(int fd, int64_t offset, ChunkHeader& out) {
  std::array<unsigned char, 8> b{};
  if (::pread(fd, b.data(), b.size(), offset) != static_cast<ssize_t>(b.size())) return false;
  std::memcpy(out.id, b.data(), 4);
  out.size = uint32_t{b[4]} | uint32_t{b[5]} << 8 | uint32_t{b[6]} << 16 | uint32_t{b[7]} << 24;
  return true;
}

// The sub-chunks of the LIST chunk whose data (after its 4-byte list type) spans
// [begin, end): each must end inside the list.
std::string listProblem(int fd, int64_t begin, int64_t end) {
  int64_t at = begin;
  for (int n = 0; at + 8 <= end && n < kMaxChunks; ++n) {
    ChunkHeader sub{};
    if (!readHeader(fd, at, sub)) return {};
    const int64_t next = at + 8 + sub.size + (sub.size & 1);
    if (at + 8 + int64_t{sub.size} > end)
      return "its LIST chunk has a sub-chunk at byte " + std::to_string(at) + " that runs past the end of the list";
    at = next;
  }
  return {};
}

}  // namespace

std::string riffStructureProblem(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return {};
  std::array<char, 12> head{};
  if (::pread(fd, head.data(), head.size(), 0) != static_cast<ssize_t>(head.size())) return {};
  if (std::memcmp(head.data(), "RIFF", 4) != 0 || std::memcmp(head.data() + 8, "WAVE", 4) != 0) return {};
  const int64_t fileSize = st.st_size;
  int64_t at = 12;
  for (int n = 0; at + 8 <= fileSize && n < kMaxChunks; ++n) {
    ChunkHeader chunk{};
    if (!readHeader(fd, at, chunk)) return {};
    const int64_t dataEnd = at + 8 + int64_t{chunk.size};
    if (std::memcmp(chunk.id, "LIST", 4) == 0 && chunk.size >= 4) {
      std::string problem = listProblem(fd, at + 12, dataEnd < fileSize ? dataEnd : fileSize);
      if (!problem.empty()) return problem;
    }
    at = dataEnd + (chunk.size & 1);
  }
  return {};
}

}  // namespace spindle::stream
