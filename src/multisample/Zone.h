#pragma once
// One <sample> of multisample.xml (a zone) as the Region it plays, with what it cannot
// play reported as warnings naming the element and its line. Loader thread.
//
//   <sample file="a.wav" sample-start="0" sample-stop="48000" gain="-3" group="0" tune="0.0"
//           reverse="false" zone-logic="always-play">
//     <key low="36" high="59" root="48" track="1" tune="0.25" low-fade="0" high-fade="4"/>
//     <velocity low="1" high="90" low-fade="0" high-fade="10"/>
//     <select/>
//     <loop mode="loop" start="1000" stop="40000" fade="0.1"/>
//   </sample>
//
// Positions are frames of the file; stops are exclusive (a sample-stop of the file's
// length plays its last frame), as the format's own files write them. Fractions are
// rounded to whole frames, with one warning per file.
#include <string>

#include <pugixml.hpp>

#include "core/Region.h"
#include "instrument/Reporter.h"
#include "multisample/XmlLines.h"

namespace spindle::multisample {

// Where a zone's diagnostics go: the file they name, and its lines.
struct ZoneContext {
  instrument::Reporter& report;
  const std::string& file;
  const XmlLines& lines;

  void warning(const pugi::xml_node& at, const std::string& message) const {
    report.warning(file, lines.lineOf(at), message);
  }
  // The same message once per file, at its first element: what is not read is named once
  // however many zones carry it.
  void warningOnce(const pugi::xml_node& at, const std::string& message) const {
    if (report.firstTime("multisample: " + message)) warning(at, message);
  }
};

struct Zone {
  Region region;       // every mapped field but sampleIndex
  std::string sample;  // the file attribute, as written
  bool reverse = false;
  bool roundRobin = false;  // zone-logic="round-robin"
  int group = -1;           // index of its <group> (or, in a <layer>, its layer's label), -1 = ungrouped
  int line = 0;
};

Zone readZone(const pugi::xml_node& sample, const ZoneContext& c);

// Warns once per attribute of `node` not in `known`, naming the element and its line.
void reportUnknownAttributes(const pugi::xml_node& node, std::initializer_list<std::string_view> known,
                             const ZoneContext& c);

}  // namespace spindle::multisample
