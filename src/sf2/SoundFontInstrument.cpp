#include "sf2/SoundFontInstrument.h"

#include <algorithm>
#include <set>

#include "instrument/Reporter.h"
#include "sf2/RegionMapping.h"
#include "sf2/SoundFont.h"
#include "sf2/ZoneMerge.h"
#include "stream/SampleSlice.h"

namespace spindle::sf2 {

namespace fs = std::filesystem;

namespace {

const char* generatorName(int g) {
  switch (g) {
    case kInitialAttenuation: return "initialAttenuation";
    case kPan: return "pan";
    case kInitialFilterQ: return "initialFilterQ";
    case kFreqModLfo: return "freqModLFO";
    case kFreqVibLfo: return "freqVibLFO";
    case kModEnvToPitch: return "modEnvToPitch";
    case kModEnvToFilterFc: return "modEnvToFilterFc";
    case 59: return "pitch";
    default: return nullptr;
  }
}

// The sample table entry of each sample header: a slice of the file, or -1 (listed as
// missing with the reason) for a ROM sample or one outside the sample data.
class Samples {
 public:
  Samples(const SoundFont& font, instrument::Instrument& out, instrument::Reporter& report)
      : font_(font), out_(out), report_(report), entries_(font.samples.size()) {}

  SampleFrames get(uint16_t index) {
    Entry& e = entries_[index];
    if (!e.made) make(index, e.sample);
    return e.sample;
  }

 private:
  struct Entry {
    bool made = false;
    SampleFrames sample;
  };

  void make(uint16_t index, SampleFrames& f) {
    entries_[index].made = true;
    const SampleHeader& h = font_.samples[index];
    f.originalKey = h.originalKey;
    f.correction = h.correction;
    const std::string file = font_.path.string();
    const auto refuse = [&](const std::string& why) {
      report_.warning(file, 0, "sample '" + h.name + "' " + why + "; its zones are skipped");
    };
    if (h.rom()) return refuse("is in ROM, which a file cannot hold");
    if (h.end <= h.start) return refuse("has no frames");
    stream::SampleSlice slice;
    slice.rate = std::clamp<uint32_t>(h.rate, 400, 384000);
    if (h.compressed()) {  // SF3: start and end count bytes; the loop counts frames from the start
      if (h.end > font_.smplBytes) return refuse("lies outside the sample data");
      slice.encoding = stream::SliceEncoding::Vorbis;
      slice.offset = font_.smplOffset + h.start;
      slice.count = h.end - h.start;
      f.loopStart = h.loopStart;
      f.loopEnd = h.loopEnd;
    } else {
      if (uint64_t{h.end} * 2 > font_.smplBytes) return refuse("lies outside the sample data");
      slice.offset = font_.smplOffset + uint64_t{h.start} * 2;
      slice.count = h.end - h.start;
      if (font_.sm24Offset && h.end <= font_.sm24Bytes) slice.offset24 = font_.sm24Offset + h.start;
      f.frames = h.end - h.start;
      f.loopStart = int64_t{h.loopStart} - h.start;
      f.loopEnd = int64_t{h.loopEnd} - h.start;
    }
    f.index = static_cast<int32_t>(out_.samples.size());
    out_.samples.push_back(stream::slicePath(file, slice));
  }

  const SoundFont& font_;
  instrument::Instrument& out_;
  instrument::Reporter& report_;
  std::vector<Entry> entries_;
};

// The curves of the source shapes the built-in ones lack (RegionMapping's 200 + shape).
void defineCurves(instrument::Instrument& out) {
  std::set<int> used;
  for (const Region& r : out.regions)
    for (uint8_t i = 0; i < r.ccModulationCount; ++i)
      if (r.ccModulations[i].curve >= 200) used.insert(r.ccModulations[i].curve);
  for (int index : used) {
    instrument::Curve c;
    c.index = index;
    for (int i = 0; i < 128; ++i)
      c.points[static_cast<size_t>(i)] = static_cast<float>(sourceValue(static_cast<uint16_t>((index - 200) << 8), i / 127.0));
    out.curves.push_back(c);
  }
}

void reportNotes(const MappingNotes& notes, const std::string& file, instrument::Reporter& report) {
  for (int g : notes.unplayedModulators) {
    const char* name = generatorName(g);
    report.warning(file, 0, "modulators of generator " + (name ? std::string(name) : std::to_string(g)) +
                                " are not played (ignored)");
  }
}

}  // namespace

instrument::Instrument loadSoundFont(const fs::path& file) {
  ReadResult read = readSoundFont(file);
  if (read.font) return buildInstrument(*read.font);
  instrument::Instrument out;
  out.path = file;
  out.name = file.stem().string();
  instrument::Reporter(out.diagnostics).error(file.string(), 0, read.error);
  return out;
}

instrument::Instrument buildInstrument(const SoundFont& font) {
  const fs::path& file = font.path;
  instrument::Instrument out;
  out.path = file;
  out.name = font.name.empty() ? file.stem().string() : font.name;
  out.ok = true;
  instrument::Reporter report(out.diagnostics);
  for (const std::string& warning : font.warnings) report.warning(file.string(), 0, warning);
  Samples samples(font, out, report);
  MappingNotes notes;
  for (size_t p = 0; p < font.presets.size(); ++p) {
    const Preset& preset = font.presets[p];
    out.presets.push_back({preset.bank, preset.program, preset.name});
    const size_t first = out.regions.size();
    for (const MergedZone& zone : mergePreset(font, p)) {
      const SampleFrames sample = samples.get(zone.sample);
      if (sample.index >= 0) appendRegions(zone, sample, out.regions, notes);
    }
    for (size_t i = first; i < out.regions.size(); ++i) out.regions[i].preset = static_cast<int16_t>(p);
    out.origins.resize(out.regions.size(), instrument::RegionOrigin{file.string(), 0, preset.name});
  }
  defineCurves(out);
  reportNotes(notes, file.string(), report);
  return out;
}

}  // namespace spindle::sf2
