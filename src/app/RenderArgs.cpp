#include "app/RenderArgs.h"

#include <charconv>
#include <functional>
#include <map>
#include <utility>

#include "app/EffectArgs.h"
#include "app/TempoArgs.h"
#include "core/Limits.h"

namespace spindle::app {

namespace {

template <typename T>
bool parseNumber(const std::string& text, T low, T high, T& out) {
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value < low || value > high) return false;
  out = value;
  return true;
}

using Setter = std::function<bool(RenderArgs&, const std::string&)>;

template <typename T>
Setter number(T RenderArgs::*field, T low, T high) {
  return [=](RenderArgs& args, const std::string& text) { return parseNumber(text, low, high, args.*field); };
}

Setter text(std::string RenderArgs::*field) {
  return [=](RenderArgs& args, const std::string& value) {
    args.*field = value;
    return !value.empty();
  };
}

const std::map<std::string, std::pair<Setter, const char*>>& valueOptions() {
  static const std::map<std::string, std::pair<Setter, const char*>> options{
      {"--sfz", {text(&RenderArgs::sfz), "a path"}},
      {"--instrument", {text(&RenderArgs::sfz), "a path"}},  // the general name: any format
      {"--midi", {text(&RenderArgs::midi), "a path"}},
      {"--wav", {text(&RenderArgs::wav), "a path"}},
      {"--scale", {text(&RenderArgs::scale), "a path"}},
      {"--keymap", {text(&RenderArgs::keymap), "a path"}},
      {"--rate", {number(&RenderArgs::rate, 8000, 384000), "a rate from 8000 to 384000 Hz"}},
      {"--block", {number(&RenderArgs::block, 1, limits::kMaxBlockFrames), "1 to 8192 frames"}},
      {"--quality", {number(&RenderArgs::quality, 0, 3), "0, 1, 2 or 3"}},
      {"--polyphony", {number(&RenderArgs::polyphony, 1, limits::kMaxVoices), "1 to 4096 voices"}},
      {"--seed", {number<uint32_t>(&RenderArgs::seed, 0, UINT32_MAX), "an integer from 0 to 4294967295"}},
      {"--preload-frames", {number<int64_t>(&RenderArgs::preloadFrames, -1, INT32_MAX), "-1 (all in RAM) or 0 and up"}},
      {"--streams", {number(&RenderArgs::streams, 1, limits::kMaxStreams), "1 to 4096 streams"}},
      {"--read-size", {number(&RenderArgs::readKiB, 16, 16384), "16 to 16384 KiB"}},
      {"--cache-size", {number(&RenderArgs::cacheMiB, 1, 65536), "1 to 65536 MiB"}},
      {"--format", {[](RenderArgs& args, const std::string& value) {
                      const auto format = io::parseWavFormat(value);
                      if (format) args.format = *format;
                      return format.has_value();
                    }, "s16, s24 or f32"}},
      {"--mpe", {[](RenderArgs& args, const std::string& value) {
                   const auto zones = parseMpeArg(value);
                   if (zones) args.mpe = *zones;
                   return zones.has_value();
                 }, kMpeForms}},
      {"--tempo", {[](RenderArgs& args, const std::string& value) {
                     const auto bpm = parseTempoArg(value);
                     if (bpm) args.tempo = *bpm;
                     return bpm.has_value();
                   }, kTempoRange}},
  };
  return options;
}

std::optional<RenderArgs> fail(std::string& error, std::string message) {
  error = std::move(message);
  return std::nullopt;
}

}  // namespace

std::optional<RenderArgs> parseRenderArgs(const std::vector<std::string>& args, std::string& error) {
  RenderArgs out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string name = args[i], value;
    const bool inlineValue = name.rfind("--", 0) == 0 && name.find('=') != std::string::npos;
    if (inlineValue) {
      value = name.substr(name.find('=') + 1);
      name = name.substr(0, name.find('='));
    }
    const bool effect = effectParamByName(name.rfind("--", 0) == 0 ? std::string_view(name).substr(2) : "").has_value();
    if (name == "--help" || name == "-h") out.help = true;
    else if (name == "--version") out.version = true;
    else if (effect) {
      if (!inlineValue && i + 1 == args.size()) return fail(error, name + " needs a value");
      if (!inlineValue) value = args[++i];
      if (applyEffectArg(out.effects, name, value, error) != EffectArg::Taken) return std::nullopt;
    } else if (const auto it = valueOptions().find(name); it != valueOptions().end()) {
      if (!inlineValue && i + 1 == args.size()) return fail(error, name + " needs a value");
      if (!inlineValue) value = args[++i];
      if (!it->second.first(out, value))
        return fail(error, "invalid value '" + value + "' for " + name + " (expected " + it->second.second + ")");
    } else {
      return fail(error, "unknown argument '" + args[i] + "'");
    }
  }
  if (out.help || out.version) return out;
  for (const auto& [given, name] : {std::pair{&out.sfz, "--instrument (or --sfz)"}, {&out.midi, "--midi"}, {&out.wav, "--wav"}})
    if (given->empty()) return fail(error, std::string(name) + " is required");
  return out;
}

namespace {

// What the tool does and its options before the effects' (EffectArgs.h).
constexpr const char* kRenderIntro =
    "Usage: spindle-render --instrument FILE --midi SONG.mid --wav OUT.wav [options]\n"
    "\n"
    "Renders a Standard MIDI File through an instrument into a stereo WAV file, offline\n"
    "and as fast as the CPU allows. Every MIDI channel plays the instrument. FILE is an\n"
    "SFZ, a SoundFont (.sf2, .sf3: each channel plays the preset its bank select and\n"
    "program change choose, channel 10 the drum kits), a DecentSampler preset\n"
    "(.dspreset, .dsbundle), a Hydrogen drum kit (drumkit.xml, its folder,\n"
    ".h2drumkit), or a multisample (.multisample zip or folder), recognised by\n"
    "content; --sfz is the same.\n"
    "\n"
    "Options:\n"
    "  --rate HZ          output sample rate (default 48000)\n"
    "  --block FRAMES     frames per engine block, 1..8192 (default 256)\n"
    "  --quality N        interpolation: 0 linear, 1 hermite, 2 sinc, 3 high sinc (default 1)\n"
    "  --polyphony N      voices, 1..4096 (default 256)\n"
    "  --format F         output samples: f32 (default), s24 or s16\n"
    "  --scale FILE.scl   every part plays in this Scala scale (default 12-TET)\n"
    "  --keymap FILE.kbm  and with this Scala keyboard map (default: key 60 is the\n"
    "                     scale's first degree at 261.63 Hz, keys map one by one)\n"
    "  --mpe ZONES        MPE zones by hand: lower, upper, lower=N, upper=N, lower=N,upper=M or off\n"
    "                     (default off; an MPE Configuration Message in the song sets them too)\n"
    "  --tempo BPM        the tempo, 1..999, over the song's own tempo changes (default:\n"
    "                     the song's, 120 without); MIDI clocks in the song outrank both\n"
    "The shared reverb and chorus that SoundFont regions send to (CC91 and\n"
    "reverbEffectsSend, CC93 and chorusEffectsSend), with FluidSynth's settings. A\n"
    "render lasts until their tails die, at most 10 s after the last voice;\n"
    "instruments that send nothing render as without:\n";

// The options after the effects': randomness, streaming, and the exit status.
constexpr const char* kRenderStreaming =
    "  --seed N           random seed for lorand/hirand and other randomness (default 1)\n"
    "  --preload-frames N frames of each sample kept in RAM; the rest streams from disk\n"
    "                     (default 0: a render waits for the disk, a preload only\n"
    "                     takes memory; -1 loads every sample whole)\n"
    "  --streams N        disk streams allocated up front (default: twice the polyphony\n"
    "                     and its steal margin, 640 at 256 voices)\n"
    "  --read-size KIB    files up to the preload plus this much of 16-bit stereo audio\n"
    "                     are held whole (default 256)\n"
    "  --cache-size MIB   decoded audio kept for every stream to share (default 74; at\n"
    "                     least 128 KiB per voice, what its read-ahead may pin)\n"
    "  --help             show this help\n"
    "  --version          show the version\n"
    "\n"
    "Exit status: 0 rendered, 1 an input could not be read or the output written,\n"
    "2 wrong arguments, 3 rendered, but a sample file could not be read or decoded\n"
    "while it played (named; its voices are silent from there).\n";

}  // namespace

std::string renderUsage() { return kRenderIntro + effectArgsUsage(23) + kRenderStreaming; }

}  // namespace spindle::app
