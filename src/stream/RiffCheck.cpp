#include "stream/RiffCheck.h"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstring>

#include "stream/RiffPad.h"

namespace spindle::stream {

namespace {

constexpr int kMaxChunks = 100000;  // bounds the walk on a file of tiny chunks

struct ChunkHeader {
  char id[4];
  uint32_t size;
};

bool readBytes(int fd, uint64_t offset, uint8_t (&out)[8]) {
  return ::pread(fd, out, sizeof out, static_cast<off_t>(offset)) == static_cast<ssize_t>(sizeof out);
}

bool readHeader(int fd, int64_t offset, ChunkHeader& out) {
  uint8_t b[8] = {};
  if (!readBytes(fd, static_cast<uint64_t>(offset), b)) return false;
  std::memcpy(out.id, b, 4);
  out.size = uint32_t{b[4]} | uint32_t{b[5]} << 8 | uint32_t{b[6]} << 16 | uint32_t{b[7]} << 24;
  return true;
}

// Where the chunk after `chunk` (its header at `at`) starts inside a parent ending at
// `end`: after its pad byte, or right after it when a writer left the pad out (then
// added to `missingPads`, when given).
int64_t nextChunk(int fd, int64_t at, const ChunkHeader& chunk, int64_t end, std::vector<uint64_t>* missingPads) {
  bool padMissing = false;
  const auto read = [fd](uint64_t offset, uint8_t(&header)[8]) { return readBytes(fd, offset, header); };
  const auto payloadEnd = static_cast<uint64_t>(at + 8 + int64_t{chunk.size});
  const uint64_t next = nextChunkOffset(payloadEnd, (chunk.size & 1) != 0, static_cast<uint64_t>(end), read, padMissing);
  if (padMissing && missingPads) missingPads->push_back(payloadEnd);
  return static_cast<int64_t>(next);
}

// The sub-chunks of the LIST chunk whose data (after its 4-byte list type) spans
// [begin, end): each must end inside the list.
std::string listProblem(int fd, int64_t begin, int64_t end) {
  int64_t at = begin;
  for (int n = 0; at + 8 <= end && n < kMaxChunks; ++n) {
    ChunkHeader sub{};
    if (!readHeader(fd, at, sub)) return {};
    if (at + 8 + int64_t{sub.size} > end)
      return "its LIST chunk has a sub-chunk at byte " + std::to_string(at) + " that runs past the end of the list";
    at = nextChunk(fd, at, sub, end, nullptr);
  }
  return {};
}

// A chunk before the data chunk that runs past the end of the file: libsndfile skips
// its declared size and never finds the data.
std::string pastTheEnd(const ChunkHeader& chunk, int64_t at, int64_t fileSize) {
  return "its '" + std::string(chunk.id, 4) + "' chunk at byte " + std::to_string(at) + " declares " +
         std::to_string(chunk.size) + " bytes, past the end of the file (" + std::to_string(fileSize) +
         " bytes), before any 'data' chunk";
}

}  // namespace

std::string riffStructureProblem(int fd, std::vector<uint64_t>& missingPads) {
  missingPads.clear();
  struct stat st {};
  if (::fstat(fd, &st) != 0) return {};
  std::array<char, 12> head{};
  if (::pread(fd, head.data(), head.size(), 0) != static_cast<ssize_t>(head.size())) return {};
  if (std::memcmp(head.data(), "RIFF", 4) != 0 || std::memcmp(head.data() + 8, "WAVE", 4) != 0) return {};
  const int64_t fileSize = st.st_size;
  int64_t at = 12;
  bool dataSeen = false;
  for (int n = 0; at + 8 <= fileSize && n < kMaxChunks; ++n) {
    ChunkHeader chunk{};
    if (!readHeader(fd, at, chunk)) return {};
    const int64_t dataEnd = at + 8 + int64_t{chunk.size};
    dataSeen = dataSeen || std::memcmp(chunk.id, "data", 4) == 0;
    if (!dataSeen && dataEnd > fileSize) return pastTheEnd(chunk, at, fileSize);
    if (std::memcmp(chunk.id, "LIST", 4) == 0 && chunk.size >= 4) {
      std::string problem = listProblem(fd, at + 12, dataEnd < fileSize ? dataEnd : fileSize);
      if (!problem.empty()) return problem;
    }
    at = nextChunk(fd, at, chunk, fileSize, &missingPads);
  }
  return {};
}

}  // namespace spindle::stream
