#pragma once
// A structural check of RIFF/WAVE files before libsndfile parses them.
//
// libsndfile 1.2.0 (Debian 12) never returns from sf_open on a WAV file whose LIST
// chunk holds a sub-chunk that runs past the end of the list (found by fuzz_audio_file).
// A loader thread stuck there would never finish loading, so such files are refused
// with a clear reason before libsndfile sees them. So is a WAV file a chunk of which,
// before the data chunk, runs past the end of the file: libsndfile would skip the data
// with it and report only that there is no data chunk. A data chunk longer than the
// file is common in real recordings (a capture that was cut short) and libsndfile reads
// the frames that are there, so it is not checked. An odd-sized chunk without its pad
// byte is walked past as stream/RiffPad.h says, so a LIST after it is still found and
// its insides are not misread; where such a chunk lies in the file's top level, the
// offset where its pad byte belongs is returned, and the file is read with a zero byte
// inserted there (libsndfile itself would read the next chunk's header a byte late).
#include <cstdint>
#include <string>
#include <vector>

namespace spindle::stream {

// Empty when the file is not RIFF/WAVE or its chunks are well formed as above; otherwise
// a sentence naming the chunk, its byte offset and the problem. `missingPads`: the file
// offsets, ascending, where a top-level chunk of odd size lacks its pad byte. Reads with
// pread: the file offset of `fd` is left where it was.
std::string riffStructureProblem(int fd, std::vector<uint64_t>& missingPads);

}  // namespace spindle::stream
