#pragma once
// Uris: the URIs the plugin speaks, mapped once to URIDs when it is instantiated.
//
// Thread: instantiate() fills them (the host's urid:map may allocate or lock); every
// thread reads them afterwards, never writing.
#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/midi/midi.h>
#include <lv2/patch/patch.h>
#include <lv2/urid/urid.h>

namespace spindle::lv2 {

inline constexpr const char* kPluginUri = "urn:spindle:lv2";
inline constexpr const char* kInstrumentUri = "urn:spindle:lv2#instrument";
inline constexpr const char* kLevelUri = "urn:spindle:lv2#level";
inline constexpr const char* kControlLabelsUri = "urn:spindle:lv2#controlLabels";
inline constexpr const char* kControlsUri = "urn:spindle:lv2#controls";

struct Uris {
  LV2_URID atomPath = 0, atomFloat = 0, atomUrid = 0, atomObject = 0, atomString = 0, atomTuple = 0;
  LV2_URID midiEvent = 0;
  LV2_URID patchSet = 0, patchGet = 0, patchProperty = 0, patchValue = 0;
  LV2_URID instrument = 0, level = 0, controlLabels = 0, controls = 0, atomVector = 0;

  void map(LV2_URID_Map& m) {
    atomPath = m.map(m.handle, LV2_ATOM__Path);
    atomFloat = m.map(m.handle, LV2_ATOM__Float);
    atomUrid = m.map(m.handle, LV2_ATOM__URID);
    atomObject = m.map(m.handle, LV2_ATOM__Object);
    atomString = m.map(m.handle, LV2_ATOM__String);
    atomTuple = m.map(m.handle, LV2_ATOM__Tuple);
    midiEvent = m.map(m.handle, LV2_MIDI__MidiEvent);
    patchSet = m.map(m.handle, LV2_PATCH__Set);
    patchGet = m.map(m.handle, LV2_PATCH__Get);
    patchProperty = m.map(m.handle, LV2_PATCH__property);
    patchValue = m.map(m.handle, LV2_PATCH__value);
    instrument = m.map(m.handle, kInstrumentUri);
    level = m.map(m.handle, kLevelUri);
    controlLabels = m.map(m.handle, kControlLabelsUri);
    controls = m.map(m.handle, kControlsUri);
    atomVector = m.map(m.handle, LV2_ATOM__Vector);
  }
};

}  // namespace spindle::lv2
