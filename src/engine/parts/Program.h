#pragma once
// Program: one playable instrument as the engine sees it.
//
// Built on the loader thread from a parsed SFZ instrument and the sample pool, then
// handed to the engine by pointer through its command FIFO. Immutable from then on:
// the audio thread only reads it. When a part switches instruments the engine hands
// the old pointer back through its trash FIFO and the control side frees it.
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/Controllers.h"
#include "core/LoopTail.h"
#include "core/Preset.h"
#include "core/Realtime.h"
#include "core/Region.h"
#include "core/SampleData.h"
#include "engine/effects/PartBuses.h"
#include "engine/mod/ModPlan.h"

namespace spindle::engine {

struct Program {
  std::string name;
  std::vector<Region> regions;
  // Indexed by Region::sampleIndex and ::reverseSampleIndex; nullptr for a sample that failed to load, in
  // which case the regions using it never sound.
  std::vector<const SampleData*> samples;
  int swDefault = -1;  // keyswitch active before any is pressed; -1 = none
  // Copied from the loaded instrument (instrument/Instrument.h has the same three lists).
  std::vector<controllers::ControllerDefault> controllerDefaults;  // applied on program change and CC121
  std::vector<controllers::ControllerLabel> controllerLabels;      // for the player: GUI, OSC
  std::vector<controllers::KeyLabel> keyLabels;
  std::vector<ModCurve> curves;  // the instrument's numbered curves (Instrument::curves)
  std::vector<Preset> presets;  // a SoundFont's; Region::preset indexes it. Empty: SFZ
  BusLayout busLayout;  // SFZ <effect> buses (Instrument::buses)

  // Lookup tables and other derived data the engine builds for itself go below this
  // line and are filled by prepare(), which must run before the Program is published.
  void prepare();
  void prepareControllers();  // part of prepare(): the fields from ccTriggered on
  void markKeyswitches(const Region& r);  // part of prepare(): isKeyswitch
  std::vector<uint32_t> regionsByKey[128];  // indices of regions whose lokey..hikey or keyswitch range holds the key
  // Keys that set the part's sw_last state when pressed: every region's sw_last key and
  // sw_lolast..sw_hilast keys, and the whole sw_lokey..sw_hikey range of such a region
  // that narrows it from 0..127.
  std::array<bool, 128> isKeyswitch{};
  // sw_last before any keyswitch is pressed: swDefault, else the first region's sw_default.
  int defaultKeyswitch = -1;
  // Regions started by a controller (on_locc/on_hicc): not in regionsByKey.
  std::vector<uint32_t> ccTriggered;
  // CCs (< 32) that set_realcc made 14-bit: CC n is the MSB, CC n + 32 the LSB.
  std::array<bool, 32> highResolutionCc{};
  // Controllers some region uses as its sustain or sostenuto pedal.
  std::array<bool, controllers::kCount> pedalCc{};
  // The part's sustain pedal for release triggers that wait for pedal up: the first
  // region's sustain_cc / sustain_lo (voices follow their own region's pedal).
  int sustainCc = 64;
  float sustainLo = 0.5f / 127.0f;
  // The labelled controllers (controllerLabels' numbers, each once, < controllers::kCount):
  // the audio thread publishes their values for the player (Engine::controllerValue).
  std::vector<uint16_t> publishedControllers;
  mod::ModPlan modulation;  // the regions' controller modulations, compiled
  // busLayout with its effects' running state per part, when busLayout is used; else
  // null and the parts mix their voices straight. The audio thread changes the state
  // it points to (ProgramBuses says how that stays safe).
  std::shared_ptr<ProgramBuses> buses;
  // The preset a part plays for MIDI bank 0..128 and program 0..127, as FluidSynth picks
  // it: the exact one, else the same program of bank 0 (bank 128 for the percussion
  // bank), else program 0 of bank 0 (of bank 128), else the first preset; -1 without
  // presets.
  int presetFor(int bank, int program) const noexcept SPINDLE_REALTIME {
    if (presetMap.empty()) return -1;
    const int b = std::clamp(bank, 0, 128), p = std::clamp(program, 0, 127);
    return presetMap[static_cast<std::size_t>(b * 128 + p)];
  }
  std::vector<int16_t> presetMap;  // (bank * 128 + program) -> preset; built by prepare()
  void preparePresets();           // part of prepare()
  // loop_crossfade, blended, and a streamed loop_sustain loop's exit frames
  // (core/LoopTail.h): indexed like regions, or shorter. Filled on the loader thread
  // after prepare() (stream/LoopTails.h reads what is not in RAM).
  std::vector<LoopTail> loopTails;
  // The tail of `r` (one of this Program's regions), or null when it has none.
  const LoopTail* loopTail(const Region& r) const noexcept SPINDLE_REALTIME {
    const Region* base = regions.data();
    const std::less<const Region*> before;  // a total order, even for a pointer from elsewhere
    if (loopTails.empty() || before(&r, base) || !before(&r, base + regions.size())) return nullptr;
    const auto i = static_cast<std::size_t>(&r - base);
    return i < loopTails.size() && !loopTails[i].empty() ? &loopTails[i] : nullptr;
  }
};

}  // namespace spindle::engine
