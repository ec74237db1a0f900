#include "multisample/Zone.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>

namespace spindle::multisample {

namespace {

constexpr double kMaxFrame = 1099511627776.0;  // 2^40 frames: past any file, and an int64_t

std::string element(const pugi::xml_node& n) { return "<" + std::string(n.name()) + ">"; }

// A key or velocity 0..127 from an attribute (NaN and garbage give `fallback`).
uint8_t midi7(const pugi::xml_attribute& a, int fallback) {
  const double v = a ? a.as_double(fallback) : fallback;
  return static_cast<uint8_t>(std::isnan(v) ? fallback : std::clamp(v, 0.0, 127.0));
}

// A whole frame from a position attribute; a fraction is rounded, with one warning per file.
int64_t frame(const pugi::xml_attribute& a, const pugi::xml_node& at, const ZoneContext& c) {
  const double v = a.as_double(0.0);
  if (std::isnan(v) || v <= 0.0) return 0;
  const double whole = std::round(std::min(v, kMaxFrame));
  if (whole != v && c.report.firstTime("fraction"))
    c.warning(at, element(at) + " " + a.name() + "=\"" + a.as_string() +
                      "\": fractional positions are rounded to whole frames (first here)");
  return static_cast<int64_t>(whole);
}

// low/high and their fades: xfin over the lowest `low-fade` steps of the range, xfout
// over the highest `high-fade` (the engine's crossfade: 0 at the outer bound).
struct RangeFields {
  uint8_t *lo, *hi, *inLo, *inHi, *outLo, *outHi;
};

void readRange(const pugi::xml_node& n, int defaultLow, const RangeFields& f, const ZoneContext& c) {
  reportUnknownAttributes(n, {"low", "high", "low-fade", "high-fade", "root", "track", "tune"}, c);
  *f.lo = midi7(n.attribute("low"), defaultLow);
  *f.hi = midi7(n.attribute("high"), 127);
  if (*f.lo > *f.hi) {
    c.warning(n, element(n) + " low is above high: the range is turned round");
    std::swap(*f.lo, *f.hi);
  }
  const int lowFade = midi7(n.attribute("low-fade"), 0), highFade = midi7(n.attribute("high-fade"), 0);
  if (lowFade > 0) *f.inLo = *f.lo, *f.inHi = static_cast<uint8_t>(std::min(*f.lo + lowFade, 127));
  if (highFade > 0) *f.outLo = static_cast<uint8_t>(std::max(*f.hi - highFade, 0)), *f.outHi = *f.hi;
}

void readKey(const pugi::xml_node& key, Region& r, const ZoneContext& c) {
  readRange(key, 0, {&r.lokey, &r.hikey, &r.xfinLokey, &r.xfinHikey, &r.xfoutLokey, &r.xfoutHikey}, c);
  r.pitchKeycenter = midi7(key.attribute("root"), 60);
  // Older files write track="true" or "false": full tracking or none.
  const std::string_view written = key.attribute("track").as_string("1");
  const double track = written == "true" ? 1.0 : written == "false" ? 0.0 : key.attribute("track").as_double(1.0);
  if (!(track >= 0.0 && track <= 2.0)) c.warning(key, "<key> track outside 0..2 is clamped");
  r.pitchKeytrack = static_cast<float>(std::clamp(std::isnan(track) ? 1.0 : track, 0.0, 2.0) * 100.0);
  const double tune = key.attribute("tune").as_double(0.0);
  r.tune = static_cast<float>(std::isnan(tune) ? 0.0 : std::clamp(tune, -96.0, 96.0) * 100.0);
}

void readVelocity(const pugi::xml_node& velocity, Region& r, const ZoneContext& c) {
  if (velocity.attribute("root") || velocity.attribute("track") || velocity.attribute("tune"))
    c.warning(velocity, "<velocity> takes no root, track or tune (ignored)");
  readRange(velocity, 1, {&r.lovel, &r.hivel, &r.xfinLovel, &r.xfinHivel, &r.xfoutLovel, &r.xfoutHivel}, c);
}

// Spindle has no select source: a zone plays whatever its select range says.
void readSelect(const pugi::xml_node& select, const ZoneContext& c) {
  reportUnknownAttributes(select, {"low", "high", "low-fade", "high-fade"}, c);
  const bool whole = midi7(select.attribute("low"), 1) <= 1 && midi7(select.attribute("high"), 127) == 127 &&
                     !select.attribute("low-fade").as_int(0) && !select.attribute("high-fade").as_int(0);
  if (!whole) c.warningOnce(select, "<select> ranges are not played (Spindle has no select source): the zone always plays");
}

// sample-start and sample-stop: offset and end (the last frame played).
void readPositions(const pugi::xml_node& sample, Region& r, const ZoneContext& c) {
  r.offset = frame(sample.attribute("sample-start"), sample, c);
  if (const pugi::xml_attribute stop = sample.attribute("sample-stop")) {
    const int64_t end = frame(stop, sample, c) - 1;
    if (end >= r.offset) r.end = end;
    else c.warning(sample, "<sample> sample-stop is not after sample-start: the sample plays to its end");
  }
}

// mode, start, stop, fade: a forward loop through the release (the format has no
// sustain-only loop); a loop with no stop runs to the zone's end.
void readLoop(const pugi::xml_node& loop, Region& r, const ZoneContext& c) {
  reportUnknownAttributes(loop, {"mode", "start", "stop", "fade"}, c);
  r.loopModeSet = true;
  r.loopMode = LoopMode::NoLoop;
  const std::string mode = loop.attribute("mode").as_string("off");
  if (mode == "off") return;
  if (mode != "loop" && mode != "ping-pong") {
    c.warning(loop, "<loop> mode '" + mode + "' is not one of off, loop, ping-pong: the zone does not loop");
    return;
  }
  if (mode == "ping-pong") c.warningOnce(loop, "<loop> ping-pong loops play forwards (Spindle has no alternating loop)");
  r.loopMode = LoopMode::LoopContinuous;
  r.loopStart = frame(loop.attribute("start"), loop, c);
  const pugi::xml_attribute stop = loop.attribute("stop");
  r.loopEnd = stop ? frame(stop, loop, c) - 1 : r.end >= 0 ? r.end : static_cast<int64_t>(kMaxFrame);
  if (r.loopEnd <= r.loopStart) {
    c.warning(loop, "<loop> stop is not after start: the zone does not loop");
    r.loopMode = LoopMode::NoLoop;
    return;
  }
  const double fade = loop.attribute("fade").as_double(0.0);
  if (!(fade > 0.0)) return;
  if (!stop) {
    c.warning(loop, "<loop> fade without a stop is not played (the loop's length is not known)");
    return;
  }
  r.loopCrossfadeFrames = std::llround(std::min(fade, 1.0) * static_cast<double>(r.loopEnd + 1 - r.loopStart));
}

// The <sample> element's own attributes other than the positions.
void readSampleAttributes(const pugi::xml_node& sample, Zone& z, const ZoneContext& c) {
  reportUnknownAttributes(sample, {"file", "sample-start", "sample-stop", "gain", "group", "parameter-1",
                                   "parameter-2", "parameter-3", "reverse", "zone-logic", "tune"}, c);
  z.sample = sample.attribute("file").as_string();
  const double gain = sample.attribute("gain").as_double(0.0);
  z.region.volume = static_cast<float>(std::isnan(gain) ? 0.0 : std::clamp(gain, -144.0, 48.0));
  z.group = sample.attribute("group").as_int(-1);
  for (const char* p : {"parameter-1", "parameter-2", "parameter-3"})
    if (sample.attribute(p).as_double(0.0) != 0.0)
      c.warningOnce(sample, std::string("<sample> ") + p + " is not played (Spindle has no P1-P3 modulation sources)");
  z.reverse = sample.attribute("reverse").as_bool(false);
  const std::string logic = sample.attribute("zone-logic").as_string("always-play");
  z.roundRobin = logic == "round-robin";
  if (!z.roundRobin && logic != "always-play")
    c.warning(sample, "<sample> zone-logic '" + logic + "' is not always-play or round-robin: the zone always plays");
}

// A reversed zone plays its whole file backwards: positions count from the file's end,
// which the loader cannot know without reading the file.
void dropReversedPositions(const pugi::xml_node& sample, Zone& z, const ZoneContext& c) {
  Region& r = z.region;
  if (r.offset > 0 || r.loopMode != LoopMode::NoLoop)
    c.warning(sample, "<sample> reverse: sample-start and the loop are not played (the whole file plays backwards)");
  r.offset = 0, r.end = -1;
  r.loopMode = LoopMode::NoLoop, r.loopStart = r.loopEnd = -1, r.loopCrossfadeFrames = 0;
}

}  // namespace

Zone readZone(const pugi::xml_node& sample, const ZoneContext& c) {
  Zone z;
  z.line = c.lines.lineOf(sample);
  readSampleAttributes(sample, z, c);
  readPositions(sample, z.region, c);
  z.region.loopModeSet = true;  // a file's own smpl loop plays only when <loop> says so
  for (const pugi::xml_node& child : sample.children()) {
    const std::string_view name = child.name();
    if (child.type() != pugi::node_element) continue;
    if (name == "key") readKey(child, z.region, c);
    else if (name == "velocity") readVelocity(child, z.region, c);
    else if (name == "select") readSelect(child, c);
    else if (name == "loop") readLoop(child, z.region, c);
    else c.warningOnce(child, "element " + element(child) + " in <sample> is not supported (ignored)");
  }
  // The sample's own tune (semitones, as Bitwig Studio writes it) adds to its key's.
  const double tune = sample.attribute("tune").as_double(0.0);
  if (!std::isnan(tune)) z.region.tune += static_cast<float>(std::clamp(tune, -96.0, 96.0) * 100.0);
  if (z.reverse) dropReversedPositions(sample, z, c);
  return z;
}

void reportUnknownAttributes(const pugi::xml_node& node, std::initializer_list<std::string_view> known,
                             const ZoneContext& c) {
  for (const pugi::xml_attribute& a : node.attributes())
    if (std::find(known.begin(), known.end(), std::string_view(a.name())) == known.end())
      c.warningOnce(node, element(node) + " attribute '" + a.name() + "' is not supported (ignored)");
}

}  // namespace spindle::multisample
