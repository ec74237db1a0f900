#include "ProbeCheck.h"

#include <algorithm>
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

NoteId idOf(const SentNote& s) { return {s.channel, s.key, s.velocity}; }
NoteId idOf(const LoggedNote& n) { return {n.channel, n.key, n.velocity}; }

// A break of the server's cycles: the probe's marks (not the resizes), those closer than
// four periods to the one before joined. A frame gap is marked at both ends (the frame
// the missing cycle should have started at, the frame the next one did), an xrun
// callback at the frame time when JACK delivered it, asynchronously, a cycle or two
// after the overrun.
struct Break {
  uint64_t first = 0, last = 0;
  uint32_t minPeriod = 0;
  int excused = 0;  // notes this break excused (lost ones included)
  // Notes sent one every other cycle: two in its window, one more per two periods it lasts.
  int bound() const noexcept { return 2 + static_cast<int>((last - first) / (2ULL * minPeriod)); }
};

std::vector<Break> breaksOf(const ProbeRecord& r) {
  std::vector<XrunMark> marks;
  for (const XrunMark& m : r.xruns)
    if (!m.resize) marks.push_back(m);
  std::sort(marks.begin(), marks.end(), [](const XrunMark& a, const XrunMark& b) { return a.frame < b.frame; });
  std::vector<Break> breaks;
  for (const XrunMark& m : marks) {
    const uint32_t period = std::max<uint32_t>(m.period, 1);
    if (!breaks.empty() && m.frame <= breaks.back().last + 4ULL * period) {
      breaks.back().last = m.frame;
      breaks.back().minPeriod = std::min(breaks.back().minPeriod, period);
    } else {
      breaks.push_back(Break{m.frame, m.frame, period, 0});
    }
  }
  return breaks;
}

// The break "near" a note: one between one period before the cycle the note was sent
// in and three periods after (a note displaced by a break is sent in the broken cycle
// or the one before it; the callback comes late).
Break* breakNear(std::vector<Break>& breaks, const SentNote& s) {
  const uint64_t from = s.cycleStart >= s.period ? s.cycleStart - s.period : 0;
  const uint64_t to = s.cycleStart + 3ULL * s.period;
  for (Break& b : breaks)
    if (b.last >= from && b.first <= to) return &b;
  return nullptr;
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

namespace {

// The first log entry of every note. A later entry of a sent note exactly one period
// after it is pipewire-jack's re-send at a quantum change (counted); any other is a
// note played twice (fails).
std::map<NoteId, const LoggedNote*> firstEntries(const ProbeRecord& r, const std::vector<LoggedNote>& log, Verdict& v) {
  std::map<NoteId, const SentNote*> sent;
  for (const SentNote& s : r.sent) sent.emplace(idOf(s), &s);
  std::map<NoteId, const LoggedNote*> first;
  for (const LoggedNote& n : log) {
    if (first.emplace(idOf(n), &n).second) continue;
    const auto it = sent.find(idOf(n));
    if (it != sent.end() && n.event == it->second->frame + it->second->period) {
      ++v.resent;
      continue;
    }
    if (v.duplicates++ < 4)
      std::printf("ch %d key %d vel %d logged again at event frame %llu\n", n.channel + 1, n.key, n.velocity,
                  static_cast<unsigned long long>(n.event));
  }
  return first;
}

// One note's fate; what to print about it (nullptr: exact).
struct Judge {
  const ProbeRecord& r;
  std::vector<Break> breaks;
  Verdict v;
  std::vector<int> excusedPerChannel = std::vector<int>(16, 0);
  int spindleBreaks = 0;  // notes excused by Spindle's after-xrun alone: one note each

  const char* note(const SentNote& s, const LoggedNote* n) {
    Break* b = breakNear(breaks, s);
    if (!n) {
      ++v.lost;
      if (!b) return "LOST";
      ++v.lostNearXrun;
      ++b->excused;
      return "LOST in a cycle the server broke (a break near it)";
    }
    if (exactNote(r, s, *n)) {
      ++v.exact;
      return nullptr;
    }
    if (!b && !n->afterXrun) {
      ++v.displaced;
      return "DISPLACED with no break near it";
    }
    ++v.excused;
    ++excusedPerChannel[static_cast<std::size_t>(s.channel & 15)];
    ++(b ? b->excused : spindleBreaks);
    return "displaced by a break (excused)";
  }

  void bound() {
    for (const Break& b : breaks) {
      if (b.excused == 0) continue;
      ++v.breaks;
      if (b.excused <= b.bound()) continue;
      ++v.overBound;
      std::printf("the break at frames %llu..%llu excused %d notes, more than the %d it can explain\n",
                  static_cast<unsigned long long>(b.first), static_cast<unsigned long long>(b.last), b.excused,
                  b.bound());
    }
    v.breaks += spindleBreaks;
  }
};

void summary(const ProbeRecord& r, const std::vector<LoggedNote>& log, const Verdict& v) {
  long resizes = 0;
  for (const XrunMark& m : r.xruns) resizes += m.resize ? 1 : 0;
  std::printf("probe: %zu notes sent (%d late cycles left out), %zu onsets heard, %zu logged by spindle; %d exact, %d "
              "displaced by breaks (excused), %d displaced, %d lost, %d of them in broken cycles; %d re-sent at a "
              "quantum change, %d logged twice, %d part leaks; %zu xrun marks (%ld at resizes), %d breaks excused "
              "notes, %d over their bound; measured latency = (onset - event) + %u frames\n",
              r.sent.size(), r.lateCycles, r.mainOnsets.size(), log.size(), v.exact, v.excused, v.displaced, v.lost,
              v.lostNearXrun, v.resent, v.duplicates, v.leaks, r.xruns.size(), resizes, v.breaks, v.overBound,
              r.latency);
}

}  // namespace

Verdict check(const ProbeRecord& r, const std::vector<LoggedNote>& log) {
  Judge judge{r, breaksOf(r), Verdict{}};
  const std::map<NoteId, const LoggedNote*> byId = firstEntries(r, log, judge.v);
  int printed = 0;
  for (std::size_t i = 0; i < r.sent.size(); ++i) {
    const SentNote& s = r.sent[i];
    const auto it = byId.find(idOf(s));
    const LoggedNote* n = it == byId.end() ? nullptr : it->second;
    const char* what = judge.note(s, n);
    if (what && printed++ < 12) report(static_cast<int>(i), s, n, what, r);
  }
  judge.bound();
  judge.v.leaks = countLeaks(r, judge.excusedPerChannel);
  summary(r, log, judge.v);
  return judge.v;
}

}  // namespace spindle::live
