// SoundFont reader: RIFF 'sfbk' -> INFO, sdta (offsets only), pdta (the "hydra").
#include "sf2/SoundFont.h"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "sf2/Riff.h"

namespace spindle::sf2 {

namespace {

// The nine pdta sub-chunks and their record sizes (SoundFont 2.04, section 7).
struct Table {
  const char* id;
  size_t recordSize;
  std::vector<uint8_t> bytes;
  size_t count() const { return bytes.size() / recordSize; }
  const uint8_t* record(size_t i) const { return bytes.data() + i * recordSize; }
};

struct Hydra {
  Table phdr{"phdr", 38, {}}, pbag{"pbag", 4, {}}, pmod{"pmod", 10, {}}, pgen{"pgen", 4, {}};
  Table inst{"inst", 22, {}}, ibag{"ibag", 4, {}}, imod{"imod", 10, {}}, igen{"igen", 4, {}};
  Table shdr{"shdr", 46, {}};
  Table* find(const std::string& id) {
    for (Table* t : {&phdr, &pbag, &pmod, &pgen, &inst, &ibag, &imod, &igen, &shdr})
      if (id == t->id) return t;
    return nullptr;
  }
};

std::string fixedName(const uint8_t* p, size_t n) {
  size_t len = 0;
  while (len < n && p[len] != 0) ++len;
  return std::string(reinterpret_cast<const char*>(p), len);
}

void readPdta(const ByteSource& src, const Chunk& list, Hydra& h, std::vector<std::string>& warnings) {
  forEachChunk(src, list.body(), list.bodySize(), "pdta", warnings, [&](const Chunk& c) {
    Table* t = h.find(c.id);
    if (!t) return;  // unknown sub-chunks are skipped
    if (c.size % t->recordSize != 0)
      throw FormatError(std::string("pdta: '") + t->id + "' is " + std::to_string(c.size) + " bytes, not a multiple of " +
                        std::to_string(t->recordSize));
    t->bytes = readPayload(src, c);
  });
  for (Table* t : {&h.phdr, &h.pbag, &h.pmod, &h.pgen, &h.inst, &h.ibag, &h.imod, &h.igen, &h.shdr})
    if (t->count() == 0) throw FormatError(std::string("pdta: '") + t->id + "' is missing or has no terminal record");
}

// Record i's index field at byte `at`, and the next record's: a non-decreasing range
// inside [0, limit] (limit = the last, terminal, record of the table indexed).
std::pair<size_t, size_t> indexRange(const Table& t, size_t i, size_t at, size_t limit, const char* what) {
  const size_t first = le16(t.record(i) + at), next = le16(t.record(i + 1) + at);
  if (first > next || next > limit)
    throw FormatError(std::string("pdta: '") + t.id + "' record " + std::to_string(i) + ": " + what + " " +
                      std::to_string(first) + ".." + std::to_string(next) + " outside 0.." + std::to_string(limit));
  return {first, next};
}

// Zone j of a bag table: its generators and modulators.
Zone readZone(const Table& bag, const Table& gen, const Table& mod, size_t j) {
  Zone z;
  const auto [g0, g1] = indexRange(bag, j, 0, gen.count() - 1, "generators");
  const auto [m0, m1] = indexRange(bag, j, 2, mod.count() - 1, "modulators");
  for (size_t g = g0; g < g1; ++g) {
    const uint8_t* r = gen.record(g);
    const uint16_t oper = le16(r);
    if (oper >= kGeneratorCount) continue;  // unknown generators are ignored (spec 9.4)
    if (oper == kKeyRange) z.keys = {r[2], r[3]};
    if (oper == kVelRange) z.velocities = {r[2], r[3]};
    z.amount[oper] = static_cast<int16_t>(le16(r + 2));
    z.set[oper] = true;
    if (oper == kInstrument || oper == kSampleID) break;  // the zone's last generator
  }
  for (size_t m = m0; m < m1; ++m) {
    const uint8_t* r = mod.record(m);
    z.modulators.push_back({le16(r), le16(r + 2), static_cast<int16_t>(le16(r + 4)), le16(r + 6), le16(r + 8)});
  }
  return z;
}

// Zones [bag range of header i] of a preset or instrument; `link` is the generator that
// ends a real zone, `linkCount` the size of the table it indexes.
void readZones(const Table& headers, size_t i, size_t bagAt, const Table& bag, const Table& gen, const Table& mod,
               Gen link, size_t linkCount, std::optional<Zone>& global, std::vector<Zone>& zones) {
  const auto [b0, b1] = indexRange(headers, i, bagAt, bag.count() - 1, "zones");
  for (size_t j = b0; j < b1; ++j) {
    Zone z = readZone(bag, gen, mod, j);
    if (z.has(link)) {
      if (static_cast<uint16_t>(z.get(link)) >= linkCount)
        throw FormatError(std::string("pdta: '") + headers.id + "' record " + std::to_string(i) + " zone " +
                          std::to_string(j - b0) + " points at " + std::to_string(static_cast<uint16_t>(z.get(link))) +
                          " of " + std::to_string(linkCount));
      zones.push_back(std::move(z));
    } else if (j == b0) {
      global = std::move(z);
    }  // a later zone without its link is discarded (spec 7.3, 7.7)
  }
}

void buildModel(const Hydra& h, SoundFont& sf) {
  const size_t samples = h.shdr.count() - 1, instruments = h.inst.count() - 1;
  for (size_t i = 0; i < samples; ++i) {
    const uint8_t* r = h.shdr.record(i);
    sf.samples.push_back({fixedName(r, 20), le32(r + 20), le32(r + 24), le32(r + 28), le32(r + 32), le32(r + 36), r[40],
                          static_cast<int8_t>(r[41]), le16(r + 42), le16(r + 44)});
  }
  for (size_t i = 0; i < instruments; ++i) {
    Instrument in;
    in.name = fixedName(h.inst.record(i), 20);
    readZones(h.inst, i, 20, h.ibag, h.igen, h.imod, kSampleID, samples, in.global, in.zones);
    sf.instruments.push_back(std::move(in));
  }
  for (size_t i = 0; i + 1 < h.phdr.count(); ++i) {
    const uint8_t* r = h.phdr.record(i);
    Preset p;
    p.name = fixedName(r, 20);
    p.program = le16(r + 20);
    p.bank = le16(r + 22);
    readZones(h.phdr, i, 24, h.pbag, h.pgen, h.pmod, kInstrument, instruments, p.global, p.zones);
    sf.presets.push_back(std::move(p));
  }
}

void readInfo(const ByteSource& src, const Chunk& list, SoundFont& sf) {
  forEachChunk(src, list.body(), list.bodySize(), "INFO", sf.warnings, [&](const Chunk& c) {
    if (c.id == "ifil" && c.size >= 4) {
      const auto v = readPayload(src, c);
      sf.versionMajor = le16(v.data());
      sf.versionMinor = le16(v.data() + 2);
    } else if (c.id == "INAM" && c.size <= 256) {
      const auto v = readPayload(src, c);
      sf.name = fixedName(v.data(), v.size());
    }
  });
}

void readSdta(const ByteSource& src, const Chunk& list, SoundFont& sf) {
  forEachChunk(src, list.body(), list.bodySize(), "sdta", sf.warnings, [&](const Chunk& c) {
    if (c.id == "smpl") {
      sf.smplOffset = c.offset;
      sf.smplBytes = c.size;
    } else if (c.id == "sm24") {
      sf.sm24Offset = c.offset;
      sf.sm24Bytes = c.size;
    }
  });
}

// The sm24 chunk counts only in a 2.04 or later file and when it holds one byte per
// smpl frame, rounded up to an even size (SF2 2.04 section 6.2); otherwise the samples
// are 16-bit, as FluidSynth plays them ("SM24 not equal to half the size of SMPL").
void checkSm24(SoundFont& sf) {
  const bool before204 = sf.versionMajor == 2 && sf.versionMinor < 4;
  const uint64_t frames = sf.smplBytes / 2;
  if (before204 || sf.sm24Bytes != frames + frames % 2) sf.sm24Offset = sf.sm24Bytes = 0;
}

SoundFont readFrom(const ByteSource& src) {
  SoundFont sf;
  uint8_t head[12] = {};
  if (src.size() < 12) throw FormatError("too short for a RIFF header");
  src.read(0, head);
  if (!looksLikeSoundFont(head)) throw FormatError("not a SoundFont (no RIFF 'sfbk' header)");
  Hydra hydra;
  bool info = false, sdta = false, pdta = false;
  forEachChunk(src, 0, src.size(), "file", sf.warnings, [&](const Chunk& riff) {
    if (riff.id != "RIFF" || riff.listType != "sfbk") return;  // trailing junk after the form is ignored
    forEachChunk(src, riff.body(), riff.bodySize(), "sfbk", sf.warnings, [&](const Chunk& c) {
      if (c.id != "LIST") return;
      if (c.listType == "INFO") readInfo(src, c, sf), info = true;
      if (c.listType == "sdta") readSdta(src, c, sf), sdta = true;
      if (c.listType == "pdta") readPdta(src, c, hydra, sf.warnings), pdta = true;
    });
  });
  if (!info || !sdta || !pdta) throw FormatError("missing LIST INFO, sdta or pdta");
  if (sf.versionMajor != 2 && sf.versionMajor != 3)
    throw FormatError("INFO: version " + std::to_string(sf.versionMajor) + " is not SoundFont 2 or 3");
  checkSm24(sf);
  buildModel(hydra, sf);
  return sf;
}

}  // namespace

bool looksLikeSoundFont(std::span<const uint8_t> head) {
  return head.size() >= 12 && std::equal(head.begin(), head.begin() + 4, "RIFF") &&
         std::equal(head.begin() + 8, head.begin() + 12, "sfbk");
}

ReadResult readSoundFont(std::span<const uint8_t> bytes, const std::string& name) {
  ReadResult result;
  try {
    result.font = readFrom(MemorySource(bytes));
    result.font->path = name;
  } catch (const FormatError& e) {
    result.error = name + ": " + e.what();
  }
  return result;
}

ReadResult readSoundFont(const std::filesystem::path& file) {
  ReadResult result;
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(file.c_str(), "rb"), &std::fclose);
  if (!f) {
    result.error = file.string() + ": cannot open";
    return result;
  }
  try {
    result.font = readFrom(FileSource(f.get()));
    result.font->path = file;
  } catch (const FormatError& e) {
    result.error = file.string() + ": " + e.what();
  }
  return result;
}

}  // namespace spindle::sf2
