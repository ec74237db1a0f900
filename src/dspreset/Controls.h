#pragma once
// A DecentSampler preset's own controls (its <ui> buttons, menus and knobs) as part
// controls: each becomes one MIDI controller the player can move (GUI control strip,
// OSC, a MIDI keyboard), labelled as the preset labels it.
//
//   <button value="0">                       -> control "Polyphony", steps Mono / Poly,
//     <state name="Mono"> <binding .../>          on CC 102 (the first of 102..119 the
//     <state name="Poly"> <binding .../>          preset leaves free), starting at Mono
//   <labeled-knob label="Attack" minValue="0" maxValue="4" value="0.01">
//     <binding level="instrument" parameter="ENV_ATTACK"/>  -> control "Attack", 128 positions
//
// A controller value v (0..127) selects a position: a button's or menu's state
// (controllers::stepOf), a knob's value min + (max - min) v / 127. Each position is a
// list of settings (a binding with its value translated: fixed_value, linear, table).
// A <midi><cc number="N"> bound to a control (level="ui", parameter="VALUE") gives it
// CC N instead of a free one.
//
// Settings the engine can play (what each binding changes):
//   level instrument   AMP_VOLUME GLOBAL_TUNING PAN AMP_VEL_TRACK ENV_ATTACK ENV_DECAY
//                      ENV_SUSTAIN ENV_RELEASE (the <groups> element's attributes)
//   level group        the same with GROUP_TUNING, and ENABLED (groups by position,
//                      groupIndex, groupTags or tags)
//   level tag          TAG_ENABLED, AMP_VOLUME / TAG_VOLUME, POLYPHONY (by identifier or tags)
//   type effect, level instrument: an <effects> effect's parameter (EffectBindings.h)
//   type effect, level group: FX_FILTER_FREQUENCY, FX_FILTER_RESONANCE, FX_FILTER_Q,
//                      FX_FILTER_GAIN, LEVEL / FX_GAIN of a group's effect (effectIndex),
//                      as a group attribute GroupEffects.h reads
// Anything else (other group effect parameters, note sequences, modulators, other controls) is reported as
// not played, once per parameter. dspreset/ControlRegions.h turns the positions into
// region copies and controller curves.
#include <map>
#include <string>
#include <vector>

#include <pugixml.hpp>

namespace spindle::dspreset {

// What one binding sets, with its value translated for the position.
struct Setting {
  // Effect: an instrument effect's parameter (type="effect" level="instrument"), read by
  // dspreset/EffectBindings.h; no region changes with it.
  enum class Level { Instrument, Group, Tag, Effect };
  Level level = Level::Instrument;
  std::string attribute;  // Instrument/Group: the preset attribute; Tag: enabled, volume, polyphony
  std::vector<int> groups;        // Group: the groups' indices in <groups>
  std::vector<std::string> tags;  // Tag: the tags; Effect: the effects' tags
  int effect = -1;                // Effect: the effect's index in <effects>, or -1 (by tags)
  std::string value;
  bool onLoad = true;  // triggerOnLoad: the initial position applies it when the preset loads
};

struct Control {
  std::string label;
  int cc = -1;
  int initial = 0;                      // the position the preset starts at
  std::vector<std::string> steps;       // a button's or menu's state names; empty for a knob
  std::vector<std::vector<Setting>> positions;  // one per step, or 128 for a knob
  std::vector<std::string> attributes;  // the <groups>/<group> attributes any position sets

  int positionOf(int midiValue) const;  // the position a controller value selects
};

// What a preset's settings are under chosen positions: scratch attribute nodes that are
// looked up before the preset's own <groups> and <group> elements, and the tags'
// settings (<tags> first, then the positions').
class Overrides {
 public:
  Overrides();
  Overrides(const Overrides& other);
  Overrides& operator=(const Overrides&) = delete;
  // loading: a control's initial position as the preset loads (triggerOnLoad="false" settings skipped).
  void apply(const std::vector<Setting>& settings, bool loading = false);
  pugi::xml_node instrument() const { return instrument_; }
  pugi::xml_node group(int index) const;  // a null node when no setting names the group

  struct Tag {
    bool enabled = true;
    double volume = 1.0;  // linear
    int polyphony = -1;
  };
  std::map<std::string, Tag> tags;

 private:
  pugi::xml_document doc_;
  pugi::xml_node instrument_;
  std::map<int, pugi::xml_node> groups_;
};

// Reads the preset's controls; what they cannot play goes to `ignored` (a phrase for
// the report, once per kind). `groupTags` holds each <group>'s tags attribute, in order.
std::vector<Control> readControls(const pugi::xml_node& root, const std::vector<std::string>& groupTags,
                                  std::vector<std::string>& ignored);

// The group attribute a binding to parameter `parameter` of a group's effect number
// `effect` sets (dspreset/GroupEffects.h reads it): "_fx<effect>_<parameter>".
std::string groupEffectAttribute(int effect, const std::string& parameter);

// "true", "1", "yes" (as pugixml reads a boolean).
bool isTrue(const std::string& text);

// "a, b ,c" -> {"a", "b", "c"}.
std::vector<std::string> splitTags(const std::string& list);

}  // namespace spindle::dspreset
