#include "io/LiveStats.h"

#include <cstdio>

namespace spindle::io {

namespace {

std::string line(const char* format, auto... values) {
  char text[256];
  std::snprintf(text, sizeof text, format, values...);
  return text;
}

double ms(int64_t frames, double rate) { return rate > 0.0 ? 1000.0 * static_cast<double>(frames) / rate : 0.0; }

std::string formatLatency(const LiveStatsSnapshot& s) {
  const LatencySummary& l = s.latency;
  if (l.notes == 0) return "note-on latency:   no notes yet\n";
  const double mean = static_cast<double>(l.sumFrames) / static_cast<double>(l.notes);
  return line("note-on latency:   %llu notes, total min %.3f / mean %.3f / max %.3f / last %.3f ms\n",
              static_cast<unsigned long long>(l.notes), ms(l.minFrames, s.sampleRate),
              mean * 1000.0 / (s.sampleRate > 0.0 ? s.sampleRate : 1.0), ms(l.maxFrames, s.sampleRate),
              ms(l.lastFrames, s.sampleRate)) +
         line("  engine share:    min %lld, max %lld frames; playback latency %u frames (%.3f ms)\n",
              static_cast<long long>(l.engineMinFrames), static_cast<long long>(l.engineMaxFrames),
              s.playbackLatencyFrames, ms(s.playbackLatencyFrames, s.sampleRate));
}

// Only on a NetJACK2 slave: what the master hears of this host.
std::string formatNetwork(const LiveStatsSnapshot& s) {
  if (s.networkRoundTripFrames == 0) return {};
  const uint32_t periods = s.periodFrames > 0 ? s.networkRoundTripFrames / s.periodFrames : 0;
  return line("network:           NetJACK2 slave, round trip %u frames (%.3f ms, %u periods: the slave's "
              "-l %u + 1 master period) from the master's MIDI out through this host to its audio in\n",
              s.networkRoundTripFrames, ms(s.networkRoundTripFrames, s.sampleRate), periods,
              s.networkSlavePeriods);
}

std::string formatProcess(const ProcessHistogram& h) {
  std::string text = line("process time:      %llu cycles, p50 <%.0f%% p99 <%.0f%% p99.9 <%.0f%% of budget, "
                          "max %.3f ms, %llu over budget\n",
                          static_cast<unsigned long long>(h.cycles), h.percentile(0.5), h.percentile(0.99),
                          h.percentile(0.999), static_cast<double>(h.maxNs) / 1e6,
                          static_cast<unsigned long long>(h.overBudget));
  text += "  histogram (% of budget: cycles):";
  for (int i = 0; i < ProcessHistogram::kBins; ++i) {
    const uint64_t count = h.counts[static_cast<std::size_t>(i)];
    if (count == 0) continue;
    const int lo = i * ProcessHistogram::kBinPercent;
    text += i + 1 < ProcessHistogram::kBins ? line(" %d-%d:%llu", lo, lo + ProcessHistogram::kBinPercent,
                                                   static_cast<unsigned long long>(count))
                                            : line(" >=%d:%llu", lo, static_cast<unsigned long long>(count));
  }
  return text + "\n";
}

}  // namespace

std::string formatStats(const LiveStatsSnapshot& s) {
  std::string text = line("backend:           %s, %.0f Hz, period %u frames, %llu frames processed%s, "
                          "%u reconnects\n",
                          s.connected ? "connected" : "disconnected", s.sampleRate, s.periodFrames,
                          static_cast<unsigned long long>(s.frames), s.freewheeling ? " (freewheeling)" : "",
                          s.reconnects);
  text += line("xruns:             %llu reported by the backend, %llu detected from frame gaps (%llu frames)\n",
               static_cast<unsigned long long>(s.backendXruns), static_cast<unsigned long long>(s.detectedXruns),
               static_cast<unsigned long long>(s.gapFrames));
  text += line("stream underruns:  %llu\n", static_cast<unsigned long long>(s.streamUnderruns));
  text += line("voices:            %u active, %u peak\n", s.activeVoices, s.peakVoices);
  text += line("midi:              %llu events, %llu note-ons (%llu without a voice), %llu dropped, %llu late, "
               "%llu note records dropped\n",
               static_cast<unsigned long long>(s.midiEvents), static_cast<unsigned long long>(s.noteOns),
               static_cast<unsigned long long>(s.notesWithoutVoice), static_cast<unsigned long long>(s.midiDropped),
               static_cast<unsigned long long>(s.lateEvents), static_cast<unsigned long long>(s.noteLogDropped));
  return text + formatLatency(s) + formatNetwork(s) + formatProcess(s.process);
}

std::string formatNoteLatency(const NoteLatency& n, double sampleRate) {
  return line("note ch=%u key=%u vel=%u src=%s event=%llu scheduled=%llu first=%llu queue=%lld engine=%lld "
              "playback=%u total=%lld frames %.3f ms voices=%u%s",
              n.channel + 1U, n.key, n.velocity, n.source == EventSource::Port ? "port" : "thread",
              static_cast<unsigned long long>(n.eventFrame), static_cast<unsigned long long>(n.scheduledFrame),
              static_cast<unsigned long long>(n.firstFrame), static_cast<long long>(n.queueFrames()),
              static_cast<long long>(n.engineFrames()), n.playbackLatency, static_cast<long long>(n.totalFrames()),
              ms(n.totalFrames(), sampleRate), n.voices, n.afterXrun ? " after-xrun" : "");
}

}  // namespace spindle::io
