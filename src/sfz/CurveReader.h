#pragma once
// <curve> headers (curve_index=N, then v000..v127=value) read into Instrument::curves:
// the points given, the rest interpolated (instrument/Curves.h). Loader thread, fed by
// the Parser.
#include <string>

#include "instrument/Curves.h"
#include "instrument/Instrument.h"
#include "instrument/Reporter.h"
#include "sfz/Preprocessor.h"

namespace spindle::sfz {

class CurveReader {
 public:
  CurveReader(instrument::Instrument& instrument, instrument::Reporter& reporter)
      : inst_(instrument), reporter_(reporter) {}

  void enter(const Token& header);  // a new <curve>
  // False when the token is no curve opcode (the Parser reports it); a bad value is
  // reported here and ignored.
  bool take(const Token& token);
  // At the header's end: the curve joins Instrument::curves, or is reported when it
  // has no curve_index.
  void finish();

 private:
  instrument::Instrument& inst_;
  instrument::Reporter& reporter_;
  int index_ = -1;
  instrument::CurvePoints points_;
  std::string file_;  // where the <curve> header is
  int line_ = 0;
};

}  // namespace spindle::sfz
