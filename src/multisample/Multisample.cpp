#include "multisample/Multisample.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include <pugixml.hpp>

#include "instrument/Paths.h"
#include "instrument/Reporter.h"
#include "instrument/SampleTable.h"
#include "multisample/XmlLines.h"
#include "multisample/Zone.h"

namespace spindle::multisample {

namespace fs = std::filesystem;

namespace {

// Elements of <multisample> that describe it and play no part in the sound.
constexpr std::string_view kMetadata[] = {"generator", "category", "creator", "description", "keywords"};

struct Loader {
  instrument::Instrument& out;
  instrument::Reporter report;
  instrument::SampleTable table;
  std::string file;
  XmlLines lines;
  std::vector<std::string> groupNames;  // the <group>s in file order, then the <layer>s
  size_t groups = 0;                    // how many of them are <group>s (a sample's group="n")
  std::vector<Zone> zones;

  ZoneContext context() { return {report, file, lines}; }

  // The zone of one <sample>, unless its file is not there: then it is skipped, with a
  // warning, and the other zones play. `group`: the <group> or <layer> it sits in, else -1.
  void addZone(const pugi::xml_node& sample, int group) {
    Zone z = readZone(sample, context());
    if (group >= 0 && !sample.attribute("group")) z.group = group;
    if (z.sample.empty()) {
      context().warning(sample, "<sample> has no file: the zone is skipped");
      return;
    }
    if (!instrument::findExisting(instrument::joinWritten(out.path.parent_path(), z.sample))) {
      context().warning(sample, "<sample> file '" + z.sample + "' is missing: the zone is skipped");
      return;
    }
    if (z.group != group && z.group >= static_cast<int>(groups)) {
      context().warning(sample, "<sample> group " + std::to_string(z.group) + " names no <group>: the zone is ungrouped");
      z.group = -1;
    }
    zones.push_back(std::move(z));
  }

  // A <group> or a <layer> (Bitwig Studio's files hold their samples in layers): its
  // samples, labelled with its name.
  void readGroup(const pugi::xml_node& g, int index) {
    reportUnknownAttributes(g, {"name", "color"}, context());
    for (const pugi::xml_node& child : g.children()) {
      if (child.type() != pugi::node_element) continue;
      if (std::string_view(child.name()) == "sample") addZone(child, index);
      else
        context().warningOnce(child, "element <" + std::string(child.name()) + "> in <" + g.name() +
                                         "> is not supported (ignored)");
    }
  }

  void readRoot(const pugi::xml_node& root) {
    reportUnknownAttributes(root, {"name"}, context());
    if (const std::string name = root.attribute("name").as_string(); !name.empty()) out.name = name;
    for (const pugi::xml_node& g : root.children("group")) groupNames.push_back(g.attribute("name").as_string());
    groups = groupNames.size();
    for (const pugi::xml_node& l : root.children("layer")) groupNames.push_back(l.attribute("name").as_string());
    int group = 0, layer = static_cast<int>(groups);
    for (const pugi::xml_node& child : root.children()) {
      if (child.type() != pugi::node_element) continue;
      const std::string_view name = child.name();
      if (name == "sample") addZone(child, -1);
      else if (name == "group") readGroup(child, group++);
      else if (name == "layer") readGroup(child, layer++);
      else if (std::find(std::begin(kMetadata), std::end(kMetadata), name) == std::end(kMetadata))
        context().warningOnce(child, "element <" + std::string(name) + "> is not supported (ignored)");
    }
  }

  // Round-robin zones sharing key and velocity ranges take turns, in file order.
  void assignTurns() {
    std::map<std::tuple<int, int, int, int>, std::vector<Region*>> shared;
    for (Zone& z : zones)
      if (z.roundRobin) shared[{z.region.lokey, z.region.hikey, z.region.lovel, z.region.hivel}].push_back(&z.region);
    for (auto& [ranges, turns] : shared) {
      const auto n = static_cast<int>(std::min<size_t>(turns.size(), 100));
      for (int i = 0; i < n; ++i) {
        turns[static_cast<size_t>(i)]->seqLength = static_cast<uint8_t>(n);
        turns[static_cast<size_t>(i)]->seqPosition = static_cast<uint8_t>(i + 1);
      }
    }
  }

  void finish() {
    assignTurns();
    for (Zone& z : zones) {
      const int forward = table.add(out.path.parent_path(), z.sample);
      z.region.sampleIndex = z.reverse ? table.reversed(forward) : forward;
      z.region.reverse = z.reverse;
      out.regions.push_back(z.region);
      const std::string label = z.group >= 0 ? groupNames[static_cast<size_t>(z.group)] : std::string();
      out.origins.push_back({file, z.line, label});
    }
    table.dropUnplayedForward();
  }
};

// The document of `text`; false, with an error naming the line where the parser gave up.
bool parse(std::string_view text, const std::string& file, pugi::xml_document& doc, instrument::Reporter& report) {
  const pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size());
  if (parsed) return true;
  const XmlLines lines(text);
  report.error(file, lines.lineAt(std::min<ptrdiff_t>(parsed.offset, std::ssize(text))),
               std::string("not readable as XML: ") + parsed.description());
  return false;
}

instrument::Instrument load(std::string_view text, const fs::path& xmlFile) {
  instrument::Instrument out;
  out.path = xmlFile;
  out.name = xmlFile.parent_path().stem().string();
  Loader loader{out, instrument::Reporter(out.diagnostics), instrument::SampleTable(out), xmlFile.string(),
                XmlLines(text), {}, 0, {}};
  pugi::xml_document doc;
  if (!parse(text, loader.file, doc, loader.report)) return out;
  const pugi::xml_node root = doc.child("multisample");
  if (!root) {
    loader.report.error(loader.file, 0, "not a multisample (no <multisample> root)");
    return out;
  }
  out.ok = true;
  loader.readRoot(root);
  loader.finish();
  return out;
}

}  // namespace

bool looksLikeMultisample(std::span<const char> head) {
  return std::string_view(head.data(), head.size()).find("<multisample") != std::string_view::npos;
}

instrument::Instrument loadMultisampleText(std::string_view xml, const fs::path& virtualFile) {
  return load(xml, virtualFile);
}

instrument::Instrument loadMultisample(const fs::path& path) {
  std::error_code ec;
  const fs::path xmlFile = fs::is_directory(path, ec) ? path / kMappingFile : path;
  std::ifstream in(xmlFile, std::ios::binary);
  if (!in) {
    instrument::Instrument out;
    out.path = xmlFile;
    out.name = path.stem().string();
    instrument::Reporter(out.diagnostics).error(xmlFile.string(), 0, "cannot be read");
    return out;
  }
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return load(text, xmlFile);
}

}  // namespace spindle::multisample
