// From a Scala scale and keyboard map to the 128 keys' pitches (instrument/Scala.h).
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>

#include "instrument/Scala.h"

namespace spindle::instrument {

namespace {

// Floor division, so keys below the middle note fall into the octaves below.
int floorDiv(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Degree d's cents above degree 0, any d: whole periods plus the degree within one.
double degreeCents(const ScalaScale& scale, int d) {
  const int n = static_cast<int>(scale.cents.size());
  const int q = floorDiv(d, n);
  const int r = d - q * n;
  return (r == 0 ? 0.0 : scale.cents[static_cast<size_t>(r - 1)]) + q * scale.cents.back();
}

// Key k's cents above the middle note, or nothing for an unmapped key.
std::optional<double> rawCents(const ScalaScale& scale, const KeyboardMap& map, double octave, int k) {
  const int offset = k - map.middle;
  if (map.size == 0) return degreeCents(scale, offset);
  const int q = floorDiv(offset, map.size);
  const int degree = map.degrees[static_cast<size_t>(offset - q * map.size)];
  if (degree < 0) return std::nullopt;
  return degreeCents(scale, degree) + q * octave;
}

bool readText(const std::string& path, std::string& text, TuningFileError& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = {path, 0, "cannot be read"};
    return false;
  }
  std::ostringstream all;
  all << in.rdbuf();
  text = all.str();
  return true;
}

std::string fileName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

ScalaScale equalScale() {
  ScalaScale s;
  s.description = "12-TET";
  for (int i = 1; i <= 12; ++i) s.cents.push_back(100.0 * i);
  return s;
}

bool buildTuning(const ScalaScale& scale, const KeyboardMap& map, const std::string& mapFile, KeyTuning& out,
                 TuningFileError& error) {
  const int n = static_cast<int>(scale.cents.size());
  if (map.octaveDegree > n) {
    error = {mapFile, map.octaveDegreeLine,
             "the octave degree " + std::to_string(map.octaveDegree) + " is past the scale's " + std::to_string(n) +
                 " notes"};
    return false;
  }
  const double octave = map.octaveDegree == 0 ? scale.cents.back() : degreeCents(scale, map.octaveDegree);
  const auto reference = rawCents(scale, map, octave, map.reference);
  if (!reference) {
    error = {mapFile, map.referenceLine, "the reference note " + std::to_string(map.reference) + " is unmapped"};
    return false;
  }
  const double referenceCents = 6900.0 + 1200.0 * std::log2(map.frequency / 440.0);
  out = KeyTuning::equalTemperament();
  for (int k = 0; k < KeyTuning::kKeys; ++k) {
    const auto raw = rawCents(scale, map, octave, k);
    const bool mapped = raw && k >= map.first && k <= map.last;
    const double cents = raw ? referenceCents + *raw - *reference : 100.0 * k;
    out.setKey(k, cents, mapped);
  }
  return true;
}

bool loadTuning(const TuningFiles& files, TuningResult& out, TuningFileError& error) {
  ScalaScale scale = equalScale();
  KeyboardMap map;
  std::string text;
  if (!files.scale.empty()) {
    if (!readText(files.scale, text, error) || !parseScala(text, files.scale, scale, error)) return false;
  }
  if (!files.keymap.empty()) {
    if (!readText(files.keymap, text, error) || !parseKeyboardMap(text, files.keymap, map, error)) return false;
  }
  out = TuningResult{};
  if (files.scale.empty() && files.keymap.empty()) return true;
  if (!buildTuning(scale, map, files.keymap, out.tuning, error)) return false;
  const size_t b = scale.description.find_first_not_of(" \t");
  out.scaleName = b == std::string::npos ? fileName(files.scale.empty() ? files.keymap : files.scale)
                                         : scale.description.substr(b);
  return true;
}

}  // namespace spindle::instrument
