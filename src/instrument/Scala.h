#pragma once
// Scala scales (.scl) and keyboard maps (.kbm), and the KeyTuning (core/Tuning.h) they
// give a part. Loader, control or gui thread; never the audio thread.
//
// .scl: lines starting with '!' are comments; then a description line, the number of
// notes, and one pitch per note: cents when the number has a '.', else a ratio ("3/2")
// or an integer ("2" = 2/1). The last pitch is the period (usually the octave, 2/1).
// .kbm: comments as above; then the map size, the first and last MIDI note mapped, the
// middle note (where degree 0 sits), the reference note, its frequency in Hz, the scale
// degree that is the formal octave (0: the period), and map-size entries, each a scale
// degree or 'x' for an unmapped key (missing entries are unmapped). A map size of 0
// maps key by key linearly. Without a .kbm, key 60 is degree 0 at 261.6256 Hz (12-TET's
// middle C) and the keys map linearly; without a .scl, the scale is 12-TET.
#include <string>
#include <string_view>
#include <vector>

#include "core/Tuning.h"

namespace spindle::instrument {

struct TuningFileError {
  std::string file;
  int line = 0;  // 1-based; 0 = the file as a whole (it could not be read)
  std::string message;
  std::string text() const;  // "file:line: message" (no line when 0)
};

struct ScalaScale {
  std::string description;
  std::vector<double> cents;  // degree 1 .. count; the last is the period
};

struct KeyboardMap {
  int size = 0;
  int first = 0, last = 127;
  int middle = 60;
  int reference = 60;
  double frequency = 261.6255653005986;
  int octaveDegree = 0;
  std::vector<int> degrees;  // size entries; -1 = unmapped ('x')
  int octaveDegreeLine = 0, referenceLine = 0;  // where they were written, for errors
};

// False, with `error` naming the file and line, when the text is not a valid file.
bool parseScala(std::string_view text, const std::string& file, ScalaScale& out, TuningFileError& error);
bool parseKeyboardMap(std::string_view text, const std::string& file, KeyboardMap& out, TuningFileError& error);

// A part's tuning files: either may be empty (see above); both empty is 12-TET.
struct TuningFiles {
  std::string scale, keymap;
};

struct TuningResult {
  KeyTuning tuning = KeyTuning::equalTemperament();
  std::string scaleName;  // the .scl's description, or its file name when that is empty
};

// Reads and combines the files. False, with `error` naming the file and line, when one
// cannot be read or is invalid, or when the map asks for what the scale has not.
bool loadTuning(const TuningFiles& files, TuningResult& out, TuningFileError& error);
// The combination itself (octaveDegree and reference checked against the scale).
bool buildTuning(const ScalaScale& scale, const KeyboardMap& map, const std::string& mapFile, KeyTuning& out,
                 TuningFileError& error);
ScalaScale equalScale();  // 12 notes of 100 cents

}  // namespace spindle::instrument
