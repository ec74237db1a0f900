#include "hydrogen/DrumKit.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <pugixml.hpp>

#include "instrument/Reporter.h"
#include "instrument/SampleTable.h"

namespace spindle::hydrogen {

namespace fs = std::filesystem;

namespace {

constexpr int kFirstKey = 36;            // Hydrogen's default: instrument 0 on C1 (36)
constexpr double kEnvelopeRate = 44100;  // Hydrogen's ADSR counts frames

struct Layer {
  std::string file;
  double min = 0.0, max = 1.0, gain = 1.0, pitch = 0.0;
  double componentGain = 1.0;
};

double number(const pugi::xml_node& n, const char* child, double fallback) {
  const pugi::xml_node c = n.child(child);
  return c ? c.text().as_double(fallback) : fallback;
}

std::vector<Layer> layersOf(const pugi::xml_node& instrument, const std::map<int, double>& componentVolume) {
  std::vector<Layer> layers;
  auto addLayers = [&](const pugi::xml_node& holder, double componentGain) {
    for (const pugi::xml_node& l : holder.children("layer"))
      layers.push_back({l.child("filename").text().as_string(), number(l, "min", 0.0), number(l, "max", 1.0),
                        number(l, "gain", 1.0), number(l, "pitch", 0.0), componentGain});
  };
  addLayers(instrument, 1.0);  // the format before 0.9.7: layers straight under the instrument
  for (const pugi::xml_node& c : instrument.children("instrumentComponent")) {
    const int id = c.child("component_id").text().as_int(0);
    const auto found = componentVolume.find(id);
    addLayers(c, number(c, "gain", 1.0) * (found == componentVolume.end() ? 1.0 : found->second));
  }
  // The oldest format: one sample, <filename> straight under the instrument, played at
  // every velocity.
  const std::string single = instrument.child("filename").text().as_string();
  if (layers.empty() && !single.empty()) layers.push_back({single, 0.0, 1.0, 1.0, 0.0, 1.0});
  return layers;
}

// A velocity 1..127 from any double (clamped before the conversion: an infinite or NaN
// bound in a file must not reach an int; NaN gives `fallback`).
uint8_t velocity(double v, uint8_t fallback) {
  if (std::isnan(v)) return fallback;
  return static_cast<uint8_t>(std::clamp(v, 1.0, 127.0));
}

// Velocities v (1..127) with min <= v/127 <= max.
std::pair<uint8_t, uint8_t> velocityRange(double min, double max) {
  return {velocity(std::ceil(min * 127.0 - 1e-9), 1), velocity(std::floor(max * 127.0 + 1e-9), 127)};
}

// The pan -1..1 of the older formats' two side gains (pan_L, pan_R, 0..1, the louder
// side at 1): toward the louder side by the share the quieter one lacks, so (1, 0.5) is
// -0.5 and (0.8, 0.4) is too. Equal, negative or silent sides are the middle.
double sidePan(double left, double right) {
  if (!(left >= 0.0 && right >= 0.0) || (left == 0.0 && right == 0.0)) return 0.0;
  return left >= right ? right / left - 1.0 : 1.0 - left / right;
}

float decibels(double gain) { return gain > 0.0 ? static_cast<float>(20.0 * std::log10(gain)) : -144.0f; }

// The settings every layer of one instrument shares.
Region instrumentRegion(const pugi::xml_node& in, int key) {
  Region r;
  r.lokey = r.hikey = static_cast<uint8_t>(key);
  r.pitchKeycenter = static_cast<uint8_t>(key);
  r.pitchKeytrack = 0.0f;
  const double pan = in.child("pan") ? number(in, "pan", 0.0) : sidePan(number(in, "pan_L", 1.0), number(in, "pan_R", 1.0));
  r.pan = static_cast<float>(std::clamp(pan, -1.0, 1.0) * 100.0);
  r.pitchRandom = static_cast<float>(number(in, "randomPitchFactor", 0.0) * 100.0);
  const int muteGroup = in.child("muteGroup").text().as_int(-1);
  if (muteGroup >= 0) r.group = r.offBy = muteGroup + 1;
  const bool stopNote = in.child("isStopNote").text().as_bool(false);
  r.loopMode = stopNote ? LoopMode::NoLoop : LoopMode::OneShot;
  r.loopModeSet = true;
  r.ampeg.attack = static_cast<float>(number(in, "Attack", 0.0) / kEnvelopeRate);
  r.ampeg.decay = static_cast<float>(number(in, "Decay", 0.0) / kEnvelopeRate);
  r.ampeg.sustain = static_cast<float>(std::clamp(number(in, "Sustain", 1.0), 0.0, 1.0) * 100.0);
  r.ampeg.release = static_cast<float>(std::max(number(in, "Release", 1000.0) / kEnvelopeRate, 0.001));
  if (in.child("applyVelocity").text().as_bool(true)) {
    r.hasAmpVelcurve = true;
    for (int v = 0; v < 128; ++v) r.ampVelcurve[static_cast<size_t>(v)] = static_cast<float>(v) / 127.0f;
  } else {
    r.ampVeltrack = 0.0f;
  }
  return r;
}

// Layers sharing one velocity range take turns (round robin) or a random share.
void assignTurns(std::vector<Region>& regions, const std::string& algorithm) {
  if (algorithm != "ROUND_ROBIN" && algorithm != "RANDOM") return;
  std::map<std::pair<int, int>, std::vector<Region*>> byRange;
  for (Region& r : regions) byRange[{r.lovel, r.hivel}].push_back(&r);
  for (auto& [range, shared] : byRange) {
    const auto n = static_cast<int>(shared.size());
    for (int i = 0; i < n; ++i) {
      Region& r = *shared[static_cast<size_t>(i)];
      if (algorithm == "ROUND_ROBIN") {
        r.seqLength = static_cast<uint8_t>(std::min(n, 100));
        r.seqPosition = static_cast<uint8_t>(std::min(i + 1, 100));
      } else {
        r.lorand = static_cast<float>(i) / static_cast<float>(n);
        r.hirand = static_cast<float>(i + 1) / static_cast<float>(n);
      }
    }
  }
}

void addInstrument(const pugi::xml_node& in, int key, const fs::path& folder, const std::map<int, double>& components,
                   instrument::Instrument& out, instrument::SampleTable& table) {
  const Region base = instrumentRegion(in, key);
  const double gain = number(in, "gain", 1.0) * number(in, "volume", 1.0);
  const double pitchOffset = number(in, "pitchOffset", 0.0);
  std::vector<Region> regions;
  for (const Layer& l : layersOf(in, components)) {
    if (l.file.empty()) continue;
    Region r = base;
    r.sampleIndex = table.add(folder, l.file);
    std::tie(r.lovel, r.hivel) = velocityRange(l.min, l.max);
    r.volume = decibels(gain * l.gain * l.componentGain);
    r.tune = static_cast<float>((l.pitch + pitchOffset) * 100.0);
    regions.push_back(r);
  }
  assignTurns(regions, in.child("sampleSelectionAlgo").text().as_string("VELOCITY"));
  for (Region& r : regions) {
    out.regions.push_back(r);
    out.origins.push_back({out.path.string(), 0});
  }
  const std::string name = in.child("name").text().as_string();
  if (!name.empty()) out.keyLabels.push_back({key, name, false});
}

std::map<int, double> componentVolumes(const pugi::xml_node& kit) {
  std::map<int, double> volumes;
  for (const pugi::xml_node& c : kit.child("componentList").children("drumkitComponent"))
    volumes[c.child("id").text().as_int(0)] = number(c, "volume", 1.0);
  return volumes;
}

// Parses the kit's XML; when it is not XML, an error naming the line where the parser
// gave up (or the file, when it cannot be read).
bool parse(const fs::path& xmlFile, pugi::xml_document& doc, instrument::Reporter& report) {
  std::ifstream in(xmlFile, std::ios::binary);
  if (!in) {
    report.error(xmlFile.string(), 0, "cannot be read");
    return false;
  }
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size());
  if (parsed) return true;
  const auto end = text.begin() + std::clamp<ptrdiff_t>(parsed.offset, 0, std::ssize(text));
  const auto line = 1 + std::count(text.begin(), end, '\n');
  report.error(xmlFile.string(), static_cast<int>(line), std::string("not readable as XML: ") + parsed.description());
  return false;
}

instrument::Instrument loadXml(const fs::path& xmlFile) {
  instrument::Instrument out;
  out.path = xmlFile;
  instrument::Reporter report(out.diagnostics);
  pugi::xml_document doc;
  if (!parse(xmlFile, doc, report)) return out;
  const pugi::xml_node kit = doc.child("drumkit_info");
  if (!kit) {
    report.error(xmlFile.string(), 0, "not a Hydrogen drum kit (no <drumkit_info> root)");
    return out;
  }
  out.ok = true;
  out.name = kit.child("name").text().as_string(xmlFile.parent_path().filename().c_str());
  const std::map<int, double> components = componentVolumes(kit);
  instrument::SampleTable table(out);
  int key = kFirstKey;
  for (const pugi::xml_node& in : kit.child("instrumentList").children("instrument")) {
    if (key > 127) {
      report.warning(xmlFile.string(), 0, "more instruments than keys from 36 to 127: the rest are left out");
      break;
    }
    if (in.child("filterActive").text().as_bool(false) && report.firstTime("filter"))
      report.warning(xmlFile.string(), 0, "Hydrogen's per-instrument filter is ignored");
    addInstrument(in, key++, xmlFile.parent_path(), components, out, table);
  }
  return out;
}

}  // namespace

bool looksLikeDrumKit(std::span<const char> head) {
  const std::string_view text(head.data(), head.size());
  return text.find("<drumkit_info") != std::string_view::npos;
}

instrument::Instrument loadDrumKit(const fs::path& file) {
  std::error_code ec;
  if (fs::is_directory(file, ec)) return loadXml(file / "drumkit.xml");
  return loadXml(file);
}

}  // namespace spindle::hydrogen
