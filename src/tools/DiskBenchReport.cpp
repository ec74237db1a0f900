#include "tools/DiskBenchReport.h"

#include <cmath>
#include <cstdio>

namespace spindle::tools {

double voicesAt(double mibPerSecond, double bytesPerVoiceSecond) {
  return mibPerSecond * 1048576.0 / bytesPerVoiceSecond;
}

double memoryMiB(double voices, uint64_t readSize) {
  return voices * static_cast<double>(readSize) * 2.0 / 1048576.0;
}

DiskRecommendation recommend(const DiskBenchResult& result) {
  DiskRecommendation rec;
  const std::vector<ReadSizeResult>& s = result.sizes;
  if (s.empty()) return rec;
  size_t pick = s.size() - 1;
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i].mibPerSecond > 0 && s[i + 1].mibPerSecond < 1.2 * s[i].mibPerSecond) {
      pick = i;
      break;
    }
  }
  rec.readSize = s[pick].readSize;
  rec.worstReadMs = s[pick].worstReadMs;
  return rec;
}

namespace {

void printRows(std::ostream& out, const DiskBenchResult& result) {
  out << "  read size      MiB/s   voices@44.1k/16   voices@48k/24   memory MiB   mean/worst read ms\n";
  for (const ReadSizeResult& r : result.sizes) {
    const double v44 = voicesAt(r.mibPerSecond, kBytesPerSecond44k16);
    char line[200];
    std::snprintf(line, sizeof line, "  %5llu KiB  %10.2f  %16.1f  %14.1f  %11.1f   %7.2f / %.2f\n",
                  static_cast<unsigned long long>(r.readSize >> 10), r.mibPerSecond, v44,
                  voicesAt(r.mibPerSecond, kBytesPerSecond48k24), memoryMiB(v44, r.readSize), r.meanReadMs,
                  r.worstReadMs);
    out << line;
  }
}

}  // namespace

void printDiskBench(std::ostream& out, const DiskBenchResult& result) {
  if (!result.error.empty()) {
    out << "spindle-diskbench: " << result.error << "\n";
    return;
  }
  char line[200];
  std::snprintf(line, sizeof line, "\n%d files x %llu MiB, written at %.1f MiB/s; seeks/sec=%.1f, average seek time=%.2f ms\n",
                result.files, static_cast<unsigned long long>(result.fileBytes >> 20), result.writeMiBPerSecond,
                result.seeksPerSecond, result.meanSeekMs);
  out << line << "\nStreaming, round-robin between the files, cold cache before each read size:\n";
  printRows(out, result);
  out << "  (voices: stereo streams at 176,400 B/s (44.1k/16) and 288,000 B/s (48k/24);\n"
         "   memory: voices@44.1k/16 x read size x 2 buffers)\n";
  if (!result.cacheDropped) out << "  warning: posix_fadvise(DONTNEED) failed: some reads may have come from the page cache\n";
  const DiskRecommendation rec = recommend(result);
  std::snprintf(line, sizeof line,
                "\nRead size for this disk: %llu KiB (doubling it gains less than 20%%; worst read %.1f ms).\n",
                static_cast<unsigned long long>(rec.readSize >> 10), rec.worstReadMs);
  out << line;
  if (result.sizes.size() > 1 && rec.readSize == result.sizes.front().readSize) {
    out << "(No seek penalty measured: an SSD, or a virtual disk cached by its host. Larger reads\n"
           " gain nothing here and only cost memory; on spinning disks they matter: Benno Senoner,\n"
           " \"lock-free data structures\", linux-audio-dev, 2004.)\n";
  }
}

void printStreamStart(std::ostream& out, const StreamStartResult& result) {
  if (!result.error.empty()) {
    out << "spindle-diskbench: stream starts: " << result.error << "\n";
    return;
  }
  char line[400];
  std::snprintf(line, sizeof line,
                "\nStream starts under load (Spindle's disk thread, cold files): %zu starts, median %.1f ms,\n"
                "p99 %.1f ms, worst %.1f ms.\n"
                "Preload for this disk: %lld frames per sample (the worst start and one period, twice, at\n"
                "48 kHz; a sample played higher or from an offset gets more). spindle --preload-frames N,\n"
                "or --save to keep it as the setting.\n",
                result.startsMs.size(), result.medianMs, result.p99Ms, result.worstMs,
                static_cast<long long>(result.preloadFrames));
  out << line;
  if (!result.cacheDropped) out << "  warning: posix_fadvise(DONTNEED) failed: some starts may have come from the page cache\n";
}

}  // namespace spindle::tools
