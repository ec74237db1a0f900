#pragma once
// The shared reverb and chorus settings the player can change: FluidSynth's settings
// (synth.reverb.*, synth.chorus.*) with its names, ranges and defaults; and the master
// gain of the main output (Spindle's own, in dB: FluidSynth's synth.gain is a linear
// factor, so no FluidSynth name). One table, read by the command lines
// (--reverb-room-size), OSC (/spindle/reverb/room-size), the session file and the
// window, so every front door spells and bounds them alike.
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spindle {

enum class EffectParam : uint8_t {
  ReverbOn, ReverbRoomSize, ReverbDamping, ReverbWidth, ReverbLevel,
  ChorusOn, ChorusVoices, ChorusLevel, ChorusSpeed, ChorusDepth,
  MasterGain,
};
inline constexpr size_t kEffectParams = 11;

struct EffectParamInfo {
  EffectParam id;
  std::string_view name;       // reverb-room-size: the flag (--name), the session key
  std::string_view effect;     // reverb | chorus: the OSC path /spindle/<effect>/<setting>
  std::string_view setting;    // room-size
  std::string_view fluidName;  // FluidSynth's setting; empty: none (the master gain)
  float min, max, def;
  bool integer;                // a count (chorus voices)
  bool toggle;                 // on/off
  std::string_view unit;       // for help texts: "", "Hz", "ms"
};

inline constexpr std::array<EffectParamInfo, kEffectParams> kEffectParamTable{{
    {EffectParam::ReverbOn, "reverb", "reverb", "on", "synth.reverb.active", 0, 1, 1, true, true, ""},
    {EffectParam::ReverbRoomSize, "reverb-room-size", "reverb", "room-size", "synth.reverb.room-size", 0, 1, 0.2f,
     false, false, ""},
    {EffectParam::ReverbDamping, "reverb-damping", "reverb", "damping", "synth.reverb.damp", 0, 1, 0, false, false,
     ""},
    {EffectParam::ReverbWidth, "reverb-width", "reverb", "width", "synth.reverb.width", 0, 100, 0.5f, false, false,
     ""},
    {EffectParam::ReverbLevel, "reverb-level", "reverb", "level", "synth.reverb.level", 0, 1, 0.9f, false, false, ""},
    {EffectParam::ChorusOn, "chorus", "chorus", "on", "synth.chorus.active", 0, 1, 1, true, true, ""},
    {EffectParam::ChorusVoices, "chorus-voices", "chorus", "voices", "synth.chorus.nr", 0, 99, 3, true, false, ""},
    {EffectParam::ChorusLevel, "chorus-level", "chorus", "level", "synth.chorus.level", 0, 10, 2, false, false, ""},
    {EffectParam::ChorusSpeed, "chorus-speed", "chorus", "speed", "synth.chorus.speed", 0.1f, 5, 0.3f, false, false,
     "Hz"},
    {EffectParam::ChorusDepth, "chorus-depth", "chorus", "depth", "synth.chorus.depth", 0, 256, 8, false, false,
     "ms"},
    {EffectParam::MasterGain, "master-gain", "master", "gain", "", -60, 12, 0, false, false, "dB"},
}};

inline constexpr const EffectParamInfo& effectParamInfo(EffectParam p) noexcept {
  return kEffectParamTable[static_cast<size_t>(p)];
}

inline constexpr std::optional<EffectParam> effectParamByName(std::string_view name) noexcept {
  for (const auto& info : kEffectParamTable)
    if (info.name == name) return info.id;
  return std::nullopt;
}

inline constexpr std::optional<EffectParam> effectParamByPath(std::string_view effect,
                                                              std::string_view setting) noexcept {
  for (const auto& info : kEffectParamTable)
    if (info.effect == effect && info.setting == setting) return info.id;
  return std::nullopt;
}

// Whether v is a value p takes: finite, inside its range, whole for a count or a toggle.
inline bool effectValueValid(EffectParam p, float v) noexcept {
  const auto& info = effectParamInfo(p);
  if (!std::isfinite(v) || v < info.min || v > info.max) return false;
  return !info.integer || v == std::floor(v);
}

// What a value of p may be, for error messages: "on or off", "0 to 1", "a whole number 0 to 99".
inline std::string effectRangeText(EffectParam p) {
  const auto& info = effectParamInfo(p);
  if (info.toggle) return "on or off";
  const auto number = [](float v) {
    std::array<char, 32> text{};
    const auto end = std::to_chars(text.data(), text.data() + text.size(), v).ptr;
    return std::string(text.data(), end);
  };
  std::string range = number(info.min) + " to " + number(info.max);
  if (!info.unit.empty()) range += " " + std::string(info.unit);
  return info.integer ? "a whole number " + range : range;
}

// A value written as text (a flag, a session line): on/off (or 1/0) for a toggle, a
// number in range otherwise; nullopt when it is neither.
inline std::optional<float> parseEffectValue(EffectParam p, std::string_view text) {
  if (effectParamInfo(p).toggle) {
    if (text == "on" || text == "1") return 1.0f;
    if (text == "off" || text == "0") return 0.0f;
    return std::nullopt;
  }
  float v = 0.0f;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || !effectValueValid(p, v)) return std::nullopt;
  return v;
}

// The value as text: on/off for a toggle, the shortest number that reads back the same.
inline std::string formatEffectValue(EffectParam p, float v) {
  if (effectParamInfo(p).toggle) return v >= 0.5f ? "on" : "off";
  std::array<char, 32> text{};
  const auto end = std::to_chars(text.data(), text.data() + text.size(), v).ptr;
  return std::string(text.data(), end);
}

// Every setting's value, defaults to FluidSynth's.
struct EffectValues {
  std::array<float, kEffectParams> values = [] {
    std::array<float, kEffectParams> v{};
    for (const auto& info : kEffectParamTable) v[static_cast<size_t>(info.id)] = info.def;
    return v;
  }();

  float get(EffectParam p) const noexcept { return values[static_cast<size_t>(p)]; }
  void set(EffectParam p, float v) noexcept { values[static_cast<size_t>(p)] = v; }
  bool on(EffectParam p) const noexcept { return get(p) >= 0.5f; }
  bool operator==(const EffectValues&) const = default;
};

}  // namespace spindle
