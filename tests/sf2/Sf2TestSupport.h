#pragma once
// Helpers for the SoundFont mapping and playback tests: a font of one preset over one
// instrument, written to a scratch folder and loaded by sf2::loadSoundFont, sine
// samples, and lookups of the regions a note would play.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "Sf2Writer.h"
#include "catch.h"
#include "instrument/Instrument.h"
#include "sf2/SoundFont.h"
#include "sf2/SoundFontInstrument.h"
#include "stream/TestAudioFiles.h"

namespace spindle::test {

// A generator's amount word from a signed value (timecents, cents, centibels).
inline uint16_t amount(int value) { return static_cast<uint16_t>(static_cast<int16_t>(value)); }

// The instrument zone `gens` (kSampleID 0 appended) under preset 0 "P" of bank 0, whose
// one zone adds `presetGens`; samples: one 100-frame sample at key 60 unless given.
inline Sf2Spec oneZoneFont(std::vector<Sf2Gen> gens, std::vector<Sf2Mod> mods = {}, std::vector<Sf2Gen> presetGens = {}) {
  Sf2Spec s;
  Sf2Sample sample;
  sample.name = "tone";
  sample.frames.assign(100, 1000);
  s.samples.push_back(sample);
  gens.push_back({sf2::kSampleID, 0});
  s.instruments.push_back({"I", {{gens, mods}}});
  presetGens.push_back({sf2::kInstrument, 0});
  s.presets.push_back({"P", 0, 0, {{presetGens, {}}}});
  return s;
}

inline std::filesystem::path saveFont(const Sf2Spec& spec, const std::string& name) {
  const auto path = scratchDir(name) / (name + (spec.versionMajor == 3 ? ".sf3" : ".sf2"));
  const std::vector<uint8_t> bytes = writeSf2(spec);
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path;
}

inline instrument::Instrument loadFont(const Sf2Spec& spec, const std::string& name) {
  instrument::Instrument inst = sf2::loadSoundFont(saveFont(spec, name));
  REQUIRE(inst.ok);
  return inst;
}

// The regions key/velocity would start (of any preset).
inline std::vector<const Region*> regionsFor(const instrument::Instrument& inst, int key, int velocity) {
  std::vector<const Region*> out;
  for (const Region& r : inst.regions)
    if (r.lokey <= key && key <= r.hikey && r.lovel <= velocity && velocity <= r.hivel) out.push_back(&r);
  return out;
}

// The one region key/velocity starts; fails the test when there is not exactly one.
inline const Region& regionFor(const instrument::Instrument& inst, int key, int velocity) {
  const auto found = regionsFor(inst, key, velocity);
  REQUIRE(found.size() == 1);
  return *found.front();
}
// A temporary instrument dies at the end of the statement: copy its region instead.
const Region& regionFor(instrument::Instrument&& inst, int key, int velocity) = delete;
inline Region regionOf(const instrument::Instrument& inst, int key, int velocity) { return regionFor(inst, key, velocity); }

inline double timecents(int tc) { return std::exp2(tc / 1200.0); }
inline double absoluteCents(int cents) { return 8.176 * std::exp2(cents / 1200.0); }  // Hz

inline std::vector<int16_t> sine16(double hz, double rate, int frames, double amplitude) {
  std::vector<int16_t> v(static_cast<size_t>(frames));
  for (int i = 0; i < frames; ++i)
    v[static_cast<size_t>(i)] = static_cast<int16_t>(std::lround(amplitude * 32767.0 * std::sin(2.0 * M_PI * hz * i / rate)));
  return v;
}

// A sample of whole periods of a sine, looped end to end (mode 1 in the zone loops it).
inline Sf2Sample loopedSine(const std::string& name, double hz, uint32_t rate, uint8_t key, int frames, double amplitude) {
  Sf2Sample s;
  s.name = name;
  s.frames = sine16(hz, rate, frames, amplitude);
  s.rate = rate;
  s.key = key;
  s.loopStart = 0;
  s.loopEnd = static_cast<uint32_t>(frames);
  return s;
}

}  // namespace spindle::test
