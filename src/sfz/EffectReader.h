#pragma once
// EffectReader: SFZ <effect> blocks into the instrument's bus layout (core/BusEffects.h).
// Loader thread.
//
// Each block is one effect on one bus (`bus`, main by default) of the `type` it names;
// its parameters and their _onccN controls are read by name whatever the type, so a
// parameter of another type is kept but unused. The bus levels (directtomain,
// fxNtomain, fxNtomix) may be written in any block and apply to the whole instrument.
// A type or bus Spindle does not play skips its block, said once per name; an opcode
// that no played effect reads is left to the caller to report.
#include <array>
#include <string>

#include "core/BusEffects.h"
#include "instrument/Instrument.h"
#include "instrument/Reporter.h"
#include "sfz/Preprocessor.h"

namespace spindle::sfz {

class EffectReader {
 public:
  EffectReader(instrument::Instrument& instrument, instrument::Reporter& reporter)
      : inst_(instrument), reporter_(reporter) {}

  // An <effect> header: a new block with the defaults.
  void enter();
  // An opcode of the open block; false when no played effect reads it.
  bool take(const Token& token);
  // The end of the block: its effect joins the layout unless it was skipped.
  void close();

 private:
  bool takeRouting(const Token& token, double value);
  bool takeParameter(const Token& token, double value);
  void takeType(const Token& token);
  void takeBus(const Token& token);
  bool takeFilterType(const Token& token);
  bool takeSwitch(const Token& token);

  instrument::Instrument& inst_;
  instrument::Reporter& reporter_;
  bool open_ = false, typed_ = false, skipped_ = false;
  BusEffect effect_;
  std::array<float, kBuses> toMain_ = {1.0f, 0.0f, 0.0f, 0.0f, 0.0f}, toMix_{};
};

}  // namespace spindle::sfz
