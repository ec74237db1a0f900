#pragma once
// Writes small SoundFont 2 files for the tests: presets -> instruments -> zones with
// generators and modulators, mono 16-bit samples (24-bit with their sm24 low bytes), or
// SF3 samples (Ogg Vorbis bytes). Each table gets its terminal record, as the
// specification asks. The bytes can be damaged afterwards to test refusals.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace spindle::test {

struct Sf2Gen {
  uint16_t oper;
  uint16_t amount;  // a range: lo | hi << 8
};
struct Sf2Mod {
  uint16_t source, destination;
  int16_t amount;
  uint16_t amountSource, transform;
};
struct Sf2Zone {
  std::vector<Sf2Gen> gens;
  std::vector<Sf2Mod> mods;
};
struct Sf2Sample {
  std::string name;
  std::vector<int16_t> frames;
  uint32_t rate = 44100;
  uint8_t key = 60;
  int8_t correction = 0;
  uint32_t loopStart = 0, loopEnd = 0;  // relative to the sample's first frame
  // The low bytes of 24-bit frames (one per frame; the font gets an sm24 chunk when any
  // sample has them, zeros for the others).
  std::vector<uint8_t> low24;
  // SF3: an Ogg Vorbis stream stored in place of `frames` (header type 0x11: start and
  // end are byte offsets into smpl; the loop stays in frames from the sample's start).
  std::vector<uint8_t> vorbis;
};
struct Sf2Instrument {
  std::string name;
  std::vector<Sf2Zone> zones;
};
struct Sf2Preset {
  std::string name;
  uint16_t program = 0, bank = 0;
  std::vector<Sf2Zone> zones;
};

struct Sf2Spec {
  uint16_t versionMajor = 2, versionMinor = 4;
  std::string name = "test";
  std::vector<Sf2Sample> samples;
  std::vector<Sf2Instrument> instruments;
  std::vector<Sf2Preset> presets;
  // false: odd-sized chunks get no pad byte after them (as some writers leave it out).
  bool padChunks = true;
  // false: an SF3 sample's Ogg Vorbis bytes are not padded to an even size inside smpl.
  bool padVorbis = true;
};

inline uint16_t range(uint8_t lo, uint8_t hi) { return static_cast<uint16_t>(lo | (hi << 8)); }

class Sf2Bytes {
 public:
  void u8(uint8_t v) { b.push_back(v); }
  void u16(uint16_t v) { u8(static_cast<uint8_t>(v)), u8(static_cast<uint8_t>(v >> 8)); }
  void u32(uint32_t v) { u16(static_cast<uint16_t>(v)), u16(static_cast<uint16_t>(v >> 16)); }
  void tag(const char* t) { b.insert(b.end(), t, t + 4); }
  void name(const std::string& s) {
    for (size_t i = 0; i < 20; ++i) u8(i < s.size() && i < 19 ? static_cast<uint8_t>(s[i]) : 0);
  }
  void chunk(const char* t, const Sf2Bytes& payload) {
    tag(t);
    u32(static_cast<uint32_t>(payload.b.size()));
    b.insert(b.end(), payload.b.begin(), payload.b.end());
    if (pad && (payload.b.size() & 1)) u8(0);
  }
  void list(const char* type, const Sf2Bytes& body) {
    Sf2Bytes p;
    p.pad = pad;
    p.tag(type);
    p.b.insert(p.b.end(), body.b.begin(), body.b.end());
    chunk("LIST", p);
  }
  std::vector<uint8_t> b;
  bool pad = true;  // an odd-sized chunk gets its pad byte
};

inline void writeZones(const std::vector<Sf2Zone>& zones, uint16_t& genAt, uint16_t& modAt, Sf2Bytes& bag,
                       Sf2Bytes& gen, Sf2Bytes& mod) {
  for (const Sf2Zone& z : zones) {
    bag.u16(genAt), bag.u16(modAt);
    for (const Sf2Gen& g : z.gens) gen.u16(g.oper), gen.u16(g.amount), ++genAt;
    for (const Sf2Mod& m : z.mods)
      mod.u16(m.source), mod.u16(m.destination), mod.u16(static_cast<uint16_t>(m.amount)), mod.u16(m.amountSource),
          mod.u16(m.transform), ++modAt;
  }
}

// smpl (and sm24) and the sample headers. PCM samples are followed by 46 zero frames,
// as the spec asks; a Vorbis stream is padded to an even size so PCM stays aligned.
inline void writeSamples(const std::vector<Sf2Sample>& samples, Sf2Bytes& smpl, Sf2Bytes& sm24, Sf2Bytes& shdr,
                         bool padVorbis = true) {
  bool has24 = false;
  for (const Sf2Sample& s : samples) has24 = has24 || !s.low24.empty();
  for (const Sf2Sample& s : samples) {
    const auto at = static_cast<uint32_t>(smpl.b.size() / 2);  // frames before this sample
    uint32_t start = at, end = 0, loopBase = at;
    uint16_t type = 1;
    if (!s.vorbis.empty()) {
      start = static_cast<uint32_t>(smpl.b.size()), end = start + static_cast<uint32_t>(s.vorbis.size());
      loopBase = 0, type = 0x11;
      smpl.b.insert(smpl.b.end(), s.vorbis.begin(), s.vorbis.end());
      if (padVorbis && (smpl.b.size() & 1)) smpl.u8(0);
    } else {
      end = at + static_cast<uint32_t>(s.frames.size());
      for (int16_t f : s.frames) smpl.u16(static_cast<uint16_t>(f));
      for (int i = 0; i < 46; ++i) smpl.u16(0);
    }
    if (has24) {
      for (size_t i = 0; i < s.frames.size(); ++i) sm24.u8(i < s.low24.size() ? s.low24[i] : 0);
      while (sm24.b.size() < smpl.b.size() / 2) sm24.u8(0);
    }
    shdr.name(s.name), shdr.u32(start), shdr.u32(end), shdr.u32(loopBase + s.loopStart), shdr.u32(loopBase + s.loopEnd);
    shdr.u32(s.rate), shdr.u8(s.key), shdr.u8(static_cast<uint8_t>(s.correction)), shdr.u16(0), shdr.u16(type);
  }
  if (sm24.b.size() & 1) sm24.u8(0);  // half of smpl, rounded up to even: the spec's size
  shdr.name("EOS"), shdr.u32(0), shdr.u32(0), shdr.u32(0), shdr.u32(0), shdr.u32(0), shdr.u8(0), shdr.u8(0);
  shdr.u16(0), shdr.u16(0);
}

inline std::vector<uint8_t> writeSf2(const Sf2Spec& spec) {
  Sf2Bytes info, ifil, inam, smpl, sm24, sdta, pdta, body, file;
  for (Sf2Bytes* parent : {&info, &sdta, &pdta, &body, &file}) parent->pad = spec.padChunks;
  ifil.u16(spec.versionMajor), ifil.u16(spec.versionMinor);
  for (char c : spec.name) inam.u8(static_cast<uint8_t>(c));
  inam.u8(0);
  info.chunk("ifil", ifil), info.chunk("INAM", inam);
  Sf2Bytes shdr;
  writeSamples(spec.samples, smpl, sm24, shdr, spec.padVorbis);
  sdta.chunk("smpl", smpl);
  if (!sm24.b.empty()) sdta.chunk("sm24", sm24);
  Sf2Bytes phdr, pbag, pmod, pgen, inst, ibag, imod, igen;
  uint16_t bagAt = 0, genAt = 0, modAt = 0;
  for (const Sf2Preset& p : spec.presets) {
    phdr.name(p.name), phdr.u16(p.program), phdr.u16(p.bank), phdr.u16(bagAt), phdr.u32(0), phdr.u32(0), phdr.u32(0);
    writeZones(p.zones, genAt, modAt, pbag, pgen, pmod);
    bagAt = static_cast<uint16_t>(bagAt + p.zones.size());
  }
  phdr.name("EOP"), phdr.u16(0), phdr.u16(0), phdr.u16(bagAt), phdr.u32(0), phdr.u32(0), phdr.u32(0);
  pbag.u16(genAt), pbag.u16(modAt), pgen.u32(0), pmod.u32(0), pmod.u32(0), pmod.u16(0);
  bagAt = genAt = modAt = 0;
  for (const Sf2Instrument& in : spec.instruments) {
    inst.name(in.name), inst.u16(bagAt);
    writeZones(in.zones, genAt, modAt, ibag, igen, imod);
    bagAt = static_cast<uint16_t>(bagAt + in.zones.size());
  }
  inst.name("EOI"), inst.u16(bagAt);
  ibag.u16(genAt), ibag.u16(modAt), igen.u32(0), imod.u32(0), imod.u32(0), imod.u16(0);
  pdta.chunk("phdr", phdr), pdta.chunk("pbag", pbag), pdta.chunk("pmod", pmod), pdta.chunk("pgen", pgen);
  pdta.chunk("inst", inst), pdta.chunk("ibag", ibag), pdta.chunk("imod", imod), pdta.chunk("igen", igen);
  pdta.chunk("shdr", shdr);
  body.tag("sfbk");
  body.list("INFO", info), body.list("sdta", sdta), body.list("pdta", pdta);
  file.chunk("RIFF", body);
  return file.b;
}

}  // namespace spindle::test
