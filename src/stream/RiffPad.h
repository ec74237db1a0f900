#pragma once
// Where the chunk after an odd-sized RIFF chunk starts. The RIFF rule pads a chunk of
// odd size with one byte, so that the next chunk starts on an even offset; some writers
// leave the pad byte out (SoundFont 3 files whose compressed sample data has an odd
// size put the next LIST right after it). Readers that skip the pad blindly then read a
// header one byte late ("IST~" declaring 1.8 GB). The rule here, shared by every RIFF
// walker in Spindle:
//
//   odd chunk, payload ends at E     E      E+1
//                                    |pad?  |next header?
//   - the header at E+1 is plausible (or the parent ends at E+1): the pad is there;
//   - else the header at E is plausible: the pad is missing, and the next chunk starts
//     at E (the caller warns);
//   - else E+1, and the caller reports what it finds there.
//
// A plausible header has a four-character code of printable ASCII and a size that fits
// in what is left of its parent; the rule is applied first with codes of letters, digits
// and spaces only, as every chunk the formats define has them. A header read one byte
// off is often printable too: "mpl<" and a size of 0 are a 60-byte smpl chunk read
// one byte late. Any thread; no allocation.
#include <cstdint>

namespace spindle::stream {

inline bool plausibleChunkHeader(const uint8_t (&header)[8], uint64_t at, uint64_t parentEnd, bool strict = false) {
  for (int i = 0; i < 4; ++i) {
    const uint8_t c = header[i];
    if (c < 0x20 || c > 0x7E) return false;
    const bool alnum = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    if (strict && !alnum && c != ' ') return false;
  }
  const uint64_t size = uint64_t{header[4]} | uint64_t{header[5]} << 8 | uint64_t{header[6]} << 16 |
                        uint64_t{header[7]} << 24;
  return parentEnd >= at + 8 && size <= parentEnd - at - 8;
}

// The offset of the chunk after one whose payload ends at `payloadEnd` (the payload's
// size odd when `odd`), inside a parent ending at `parentEnd`. `readHeader(at, bytes)`
// reads the 8 bytes at `at` (always inside the parent) and returns false
// when it cannot. `padMissing` is set when
// the next chunk starts right after the payload.
template <class ReadHeader>
uint64_t nextChunkOffset(uint64_t payloadEnd, bool odd, uint64_t parentEnd, ReadHeader&& readHeader,
                         bool& padMissing) {
  padMissing = false;
  if (!odd) return payloadEnd;
  const uint64_t padded = payloadEnd + 1;
  if (padded >= parentEnd) return padded;
  const auto plausibleAt = [&](uint64_t at, bool strict) {
    uint8_t header[8] = {};
    return parentEnd - at >= 8 && readHeader(at, header) && plausibleChunkHeader(header, at, parentEnd, strict);
  };
  for (bool strict : {true, false}) {
    if (plausibleAt(padded, strict)) return padded;
    if (plausibleAt(payloadEnd, strict)) {
      padMissing = true;
      return payloadEnd;
    }
  }
  return padded;
}

}  // namespace spindle::stream
