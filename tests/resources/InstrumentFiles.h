#pragma once
// Test helpers for the generated instrument: where it is, a tiny SFZ reader (headers and
// opcode=value pairs, values without spaces, inheritance global -> group -> region) and
// a FLAC loader.
#include <sndfile.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "Spec.h"

namespace spindle::test {

inline std::filesystem::path instrumentDir() { return SPINDLE_INSTRUMENT_DIR; }

using Opcodes = std::map<std::string, std::string>;

struct SfzFile {
  std::string defaultPath;
  std::vector<Opcodes> regions;  // each with its global and group opcodes merged in
};

inline std::string stripComments(std::istream& in) {
  std::string text, line;
  while (std::getline(in, line)) text += line.substr(0, line.find("//")) + "\n";
  return text;
}

inline SfzFile readSfz(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::istringstream tokens(stripComments(in));
  SfzFile sfz;
  Opcodes global, group, region;
  Opcodes* current = nullptr;
  std::string header, token;
  auto flushRegion = [&] { if (header == "<region>") sfz.regions.push_back(region); };
  while (tokens >> token) {
    if (token.front() == '<') {
      flushRegion();
      header = token;
      current = nullptr;
      if (header == "<global>") {
        current = &global;
      } else if (header == "<group>") {
        group = global;
        current = &group;
      } else if (header == "<region>") {
        region = group;
        current = &region;
      }
      continue;
    }
    const auto eq = token.find('=');
    if (eq == std::string::npos) continue;
    if (current) (*current)[token.substr(0, eq)] = token.substr(eq + 1);
    else if (token.substr(0, eq) == "default_path") sfz.defaultPath = token.substr(eq + 1);
  }
  flushRegion();
  return sfz;
}

inline int intOpcode(const Opcodes& o, const std::string& name, int fallback) {
  const auto it = o.find(name);
  return it == o.end() ? fallback : std::stoi(it->second);
}

struct Audio {
  SF_INFO info{};
  std::vector<float> frames;  // mono
};

inline Audio loadAudio(const std::filesystem::path& path) {
  Audio audio;
  std::unique_ptr<SNDFILE, decltype(&sf_close)> file(sf_open(path.c_str(), SFM_READ, &audio.info), &sf_close);
  if (!file) return audio;
  audio.frames.resize(static_cast<std::size_t>(audio.info.frames * audio.info.channels));
  const sf_count_t read = sf_readf_float(file.get(), audio.frames.data(), audio.info.frames);
  audio.frames.resize(static_cast<std::size_t>(read * audio.info.channels));
  return audio;
}

inline std::filesystem::path samplePath(const std::string& fileName) {
  return instrumentDir() / instrument::kSampleDir / fileName;
}

}  // namespace spindle::test
