#include "ProbeCheck.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

namespace spindle::live {

namespace {

using NoteId = std::tuple<int, int, int>;  // channel (0-based), key, velocity

bool parseLine(const std::string& line, LoggedNote& n) {
  const char* ch = std::strstr(line.c_str(), "ch=");
  const char* at = std::strstr(line.c_str(), "event=");
  unsigned long long event = 0;
  if (!ch || !at || std::sscanf(ch, "ch=%d key=%d vel=%d", &n.channel, &n.key, &n.velocity) != 3) return false;
  if (std::sscanf(at, "event=%llu scheduled=%*u first=%*u queue=%*d engine=%lld playback=%*u total=%lld", &event,
                  &n.engine, &n.total) != 3)
    return false;
  n.channel -= 1;  // the log counts channels from 1
  n.event = event;
  n.afterXrun = line.find(" after-xrun") != std::string::npos;
  return true;
}

// An xrun "near" a note: its evidence lies between one period before the cycle the
// note was sent in and three periods after. A frame gap is recorded at both ends (the
// frame the missing cycle should have started at, the frame the next one did), an xrun
// callback at the frame time when JACK delivered it, asynchronously, a cycle or two
// after the overrun; a note displaced by that xrun is sent in the broken cycle or the
// one before it.
bool xrunNear(const ProbeRecord& r, const SentNote& note) {
  const uint64_t from = note.cycleStart >= r.period ? note.cycleStart - r.period : 0;
  const uint64_t to = note.cycleStart + 3ULL * r.period;
  for (const uint64_t f : r.xrunFrames)
    if (f >= from && f <= to) return true;
  return false;
}

bool heardAt(const std::vector<uint64_t>& onsets, uint64_t frame) {
  for (const uint64_t f : onsets)
    if (f == frame) return true;
  return false;
}

bool exactNote(const ProbeRecord& r, const SentNote& s, const LoggedNote& n) {
  const bool part = r.partOnsets.empty() || heardAt(r.partOnsets[static_cast<std::size_t>(s.channel)], s.frame);
  return part && heardAt(r.mainOnsets, s.frame) && n.event == s.frame && n.engine == 0 &&
         n.total == static_cast<long long>(r.latency);
}

void report(int i, const SentNote& s, const LoggedNote* n, const char* what, const ProbeRecord& r) {
  std::printf("note %d (ch %d key %d vel %d, event frame %llu): %s; onset there: %s; logged event %lld, engine %lld, "
              "total %lld%s\n",
              i, s.channel + 1, s.key, s.velocity, static_cast<unsigned long long>(s.frame), what,
              heardAt(r.mainOnsets, s.frame) ? "yes" : "no", n ? static_cast<long long>(n->event) : -1LL,
              n ? n->engine : -1LL, n ? n->total : -1LL, n && n->afterXrun ? " (spindle: after an xrun)" : "");
}

// On part p's port only notes of channel p may sound. An onset at another channel's
// note frame is a leak; one at no note's frame is tolerated only as the displaced
// onset of an excused note of that channel.
int countLeaks(const ProbeRecord& r, const std::vector<int>& excusedPerChannel) {
  std::map<uint64_t, int> channelAt;
  for (const SentNote& s : r.sent) channelAt[s.frame] = s.channel;
  int leaks = 0;
  for (std::size_t p = 0; p < r.partOnsets.size(); ++p) {
    int strays = 0, partLeaks = 0;
    for (const uint64_t f : r.partOnsets[p]) {
      const auto it = channelAt.find(f);
      if (it == channelAt.end()) ++strays;
      else if (it->second != static_cast<int>(p)) ++partLeaks;
    }
    const int allowed = p < excusedPerChannel.size() ? excusedPerChannel[p] : 0;
    if (strays > allowed) partLeaks += strays - allowed;
    if (partLeaks > 0) std::printf("part %zu: %d onsets of other parts' notes or stray\n", p + 1, partLeaks);
    leaks += partLeaks;
  }
  return leaks;
}

}  // namespace

std::vector<LoggedNote> readNoteLog(const std::string& path, int skip) {
  std::vector<LoggedNote> notes;
  std::ifstream in(path);
  std::string line;
  for (int i = 0; i < skip && std::getline(in, line); ++i) {
  }
  while (std::getline(in, line)) {
    LoggedNote n;
    if (parseLine(line, n)) notes.push_back(n);
  }
  return notes;
}

Verdict check(const ProbeRecord& r, const std::vector<LoggedNote>& log) {
  std::map<NoteId, const LoggedNote*> byId;
  Verdict v;
  for (const LoggedNote& n : log)
    if (!byId.emplace(NoteId{n.channel, n.key, n.velocity}, &n).second) ++v.duplicates;
  std::vector<int> excusedPerChannel(16, 0);
  int printed = 0;
  for (std::size_t i = 0; i < r.sent.size(); ++i) {
    const SentNote& s = r.sent[i];
    const auto it = byId.find(NoteId{s.channel, s.key, s.velocity});
    const LoggedNote* n = it == byId.end() ? nullptr : it->second;
    const char* what = nullptr;
    if (!n) {
      ++v.lost;
      const bool near = xrunNear(r, s);
      v.lostNearXrun += near ? 1 : 0;
      what = near ? "LOST in a cycle the server broke (xrun near it)" : "LOST";
    } else if (exactNote(r, s, *n)) {
      ++v.exact;
    } else if (n->afterXrun || xrunNear(r, s)) {
      ++v.excused;
      ++excusedPerChannel[static_cast<std::size_t>(s.channel & 15)];
      what = "displaced by an xrun (excused)";
    } else {
      ++v.displaced;
      what = "DISPLACED with no xrun near it";
    }
    if (what && printed++ < 12) report(static_cast<int>(i), s, n, what, r);
  }
  v.leaks = countLeaks(r, excusedPerChannel);
  std::printf("probe: %zu notes sent, %zu onsets heard, %zu logged by spindle; %d exact, %d displaced by xruns "
              "(excused), %d displaced, %d lost, %d of them in xrun cycles; %d logged twice, %d part leaks; %zu xrun marks; measured latency "
              "= (onset - event) + %u frames\n",
              r.sent.size(), r.mainOnsets.size(), log.size(), v.exact, v.excused, v.displaced, v.lost, v.lostNearXrun, v.duplicates,
              v.leaks, r.xrunFrames.size(), r.latency);
  return v;
}

}  // namespace spindle::live
