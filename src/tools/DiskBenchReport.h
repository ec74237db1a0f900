#pragma once
// What spindle-diskbench's numbers mean for Spindle: voices, memory, read size, and the
// preload from the stream starts measured (tools/StreamStart.h).
//
// Voices: a stereo voice streams 176,400 B/s at 44.1 kHz / 16 bit (the seed's unit) and
// 288,000 B/s at 48 kHz / 24 bit (today's typical sample libraries). Memory: every voice
// holds two chunks of the read size (one playing, one being read), so voices x read x 2;
// the 2004 seed printed voices x read. MB are MiB, as in the seed.
#include <ostream>

#include "tools/DiskBench.h"
#include "tools/StreamStart.h"

namespace spindle::tools {

constexpr double kBytesPerSecond44k16 = 44100.0 * 2 * 2;
constexpr double kBytesPerSecond48k24 = 48000.0 * 2 * 3;

double voicesAt(double mibPerSecond, double bytesPerVoiceSecond);
double memoryMiB(double voices, uint64_t readSize);  // double-buffered

struct DiskRecommendation {
  uint64_t readSize = 0;      // where doubling the read size gains less than 20%
  double worstReadMs = 0;     // worst single read at that size
};

DiskRecommendation recommend(const DiskBenchResult& result);

void printDiskBench(std::ostream& out, const DiskBenchResult& result);
// The stream starts and the preload they ask for.
void printStreamStart(std::ostream& out, const StreamStartResult& result);

}  // namespace spindle::tools
