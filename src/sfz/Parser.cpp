#include "sfz/Parser.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "instrument/Paths.h"
#include "instrument/SampleTable.h"
#include "sfz/Labels.h"
#include "sfz/OpcodeTable.h"
#include "sfz/Preprocessor.h"
#include "sfz/RegionBuilder.h"
#include "sfz/Text.h"
#include "sfz/Values.h"

namespace spindle::sfz {

namespace fs = std::filesystem;

namespace {

// The header whose opcodes are being read. Skipped: <sample>, unknown headers.
// Effect: <effect> and <midi>, whose opcodes are kept in Instrument::effects.
enum class Level { None, Control, Global, Master, Group, Region, Curve, Skipped, Effect };

// The state of one instrument being read: header levels, <control> settings, the open
// region or curve, and the sample table. Fed token by token by the Preprocessor.
class Parser {
 public:
  Parser(instrument::Instrument& instrument, fs::path rootFolder)
      : inst_(instrument),
        reporter_(instrument.diagnostics),
        rootFolder_(std::move(rootFolder)),
        labels_(instrument, reporter_),
        samples_(instrument) {}

  instrument::Reporter& reporter() { return reporter_; }
  void onToken(const Token& token);
  void finish();

 private:
  struct Control {
    std::string defaultPath;
    int octaveOffset = 0, noteOffset = 0;
    int swOctaveOffset = 0, swNoteOffset = 0;  // ARIA: keyswitch opcodes only
  };
  struct OpenCurve {
    int index = -1;
    instrument::CurvePoints points;
    instrument::RegionOrigin origin;
  };

  void onHeader(const Token& token);
  void enterSkipped(const Token& token, std::string_view name);
  void enterEffect(const Token& token, const std::string& name);
  bool takeLabel(const Token& token);
  void onStray(const Token& token);
  void onControlOpcode(const Token& token);
  void onCurveOpcode(const Token& token);
  void onRegionOpcode(const Token& token);
  std::optional<ParsedOpcode> parse(const Token& token, const OpcodeMatch& match);
  bool takeControllerDefault(const Token& token, const OpcodeMatch& match);
  std::optional<int> controlInteger(const Token& token, int lo, int hi);
  void reportUnimplemented(const Token& token);
  int32_t sampleIndex(const Token& token);
  void closeBlock();
  void finishRegion();
  void finishCurve();
  int noteShift() const { return control_.octaveOffset * 12 + control_.noteOffset; }
  // Keyswitch opcodes (sw_last, sw_lolast...) move with note_offset like every note
  // value, and further by sw_note_offset / sw_octave_offset.
  int noteShift(const OpcodeSpec& spec) const {
    const bool keyswitch = spec.kind == ValueKind::Note && spec.name.starts_with("sw_");
    return noteShift() + (keyswitch ? control_.swOctaveOffset * 12 + control_.swNoteOffset : 0);
  }

  instrument::Instrument& inst_;
  instrument::Reporter reporter_;
  fs::path rootFolder_;
  Level level_ = Level::None;
  std::array<std::vector<ParsedOpcode>, 3> inherited_;  // <global>, <master>, <group>
  std::array<uint32_t, 3> blocks_{};  // the current header of each level (Region::masterBlock...)
  uint32_t blockCount_ = 0;
  std::vector<ParsedOpcode> regionOpcodes_;
  instrument::RegionOrigin regionOrigin_;
  Control control_;
  OpenCurve curve_;
  std::unordered_map<std::string, int32_t> sampleByWritten_;  // default_path + value as written
  LabelReader labels_;
  instrument::SampleTable samples_;
};

void Parser::onToken(const Token& token) {
  if (token.kind == Token::Kind::Header) return onHeader(token);
  if (token.kind == Token::Kind::Stray) return onStray(token);
  if (takeLabel(token)) return;
  switch (level_) {
    case Level::None:
      reporter_.warning(*token.file, token.line, "opcode '" + token.name + "' before any header ignored");
      break;
    case Level::Skipped: break;
    case Level::Effect: inst_.effects.back().opcodes.emplace_back(token.name, token.value); break;
    case Level::Control: onControlOpcode(token); break;
    case Level::Curve: onCurveOpcode(token); break;
    case Level::Global:
    case Level::Master:
    case Level::Group:
    case Level::Region: onRegionOpcode(token); break;
  }
}

void Parser::onHeader(const Token& token) {
  closeBlock();
  const std::string name = text::lower(token.name);
  if (name == "control") {
    control_ = Control{};
    level_ = Level::Control;
  } else if (name == "global" || name == "master" || name == "group") {
    const size_t first = name == "global" ? 0 : name == "master" ? 1 : 2;
    for (size_t i = first; i < inherited_.size(); ++i) inherited_[i].clear();
    std::fill(blocks_.begin() + static_cast<long>(first), blocks_.end(), ++blockCount_);  // polyphony scopes
    level_ = first == 0 ? Level::Global : first == 1 ? Level::Master : Level::Group;
    labels_.enter(static_cast<LabelScope>(first + 1));
  } else if (name == "region") {
    regionOpcodes_.clear();
    labels_.enter(LabelScope::Region);
    regionOrigin_ = instrument::RegionOrigin{*token.file, token.line};
    level_ = Level::Region;
  } else if (name == "curve") {
    curve_ = OpenCurve{};
    curve_.origin = instrument::RegionOrigin{*token.file, token.line};
    level_ = Level::Curve;
  } else if (name == "effect" || name == "midi") {
    enterEffect(token, name);
  } else {
    enterSkipped(token, name);
  }
}

void Parser::onStray(const Token& token) {
  if (level_ == Level::Skipped) return;
  constexpr size_t kShown = 40;
  const std::string shown = token.name.size() > kShown ? token.name.substr(0, kShown) + "..." : token.name;
  reporter_.warning(*token.file, token.line, "malformed text '" + shown + "' (expected opcode=value)");
}

void Parser::enterSkipped(const Token& token, std::string_view name) {
  level_ = Level::Skipped;
  if (!reporter_.firstTime("header <" + std::string(name) + ">")) return;
  const bool known = name == "sample";
  reporter_.warning(*token.file, token.line,
                    (known ? "header <" + std::string(name) + "> is not supported yet"
                           : "unknown header <" + token.name + ">") +
                        "; its opcodes are skipped");
}

// <effect> (bus effects) and <midi> (ARIA's MIDI effects) are kept as written for the
// effects work; they are not played yet, which is said once per file.
void Parser::enterEffect(const Token& token, const std::string& name) {
  level_ = Level::Effect;
  inst_.effects.push_back(instrument::EffectBlock{name, *token.file, token.line, {}});
  if (reporter_.firstTime("effects in " + *token.file))
    reporter_.warning(*token.file, token.line,
                      "<" + name + "> headers are read but bus and MIDI effects are not played yet");
}

// Labels are read in every header that holds opcodes; <midi> and <control> count as
// instrument-wide (label_cc, label_key).
bool Parser::takeLabel(const Token& token) {
  switch (level_) {
    case Level::Control:
    case Level::Effect: return labels_.take(token, LabelScope::Control);
    case Level::Global: return labels_.take(token, LabelScope::Global);
    case Level::Master: return labels_.take(token, LabelScope::Master);
    case Level::Group: return labels_.take(token, LabelScope::Group);
    case Level::Region: return labels_.take(token, LabelScope::Region);
    default: return false;
  }
}

std::optional<int> Parser::controlInteger(const Token& token, int lo, int hi) {
  bool trailing = false;
  const std::optional<double> value = parseNumber(token.value, &trailing);
  if (!value || trailing) {
    reporter_.warning(*token.file, token.line, "opcode '" + token.name + "': bad value '" + token.value + "' (ignored)");
    return std::nullopt;
  }
  const double clamped = std::clamp(std::trunc(*value), static_cast<double>(lo), static_cast<double>(hi));
  if (clamped != std::trunc(*value))
    reporter_.warning(*token.file, token.line, "opcode '" + token.name + "': value '" + token.value + "' clamped");
  return static_cast<int>(clamped);
}

void Parser::onControlOpcode(const Token& token) {
  if (token.name == "default_path") {
    control_.defaultPath = text::forwardSlashes(token.value);
  } else if (token.name == "octave_offset") {
    control_.octaveOffset = controlInteger(token, -10, 10).value_or(control_.octaveOffset);
  } else if (token.name == "note_offset") {
    control_.noteOffset = controlInteger(token, -127, 127).value_or(control_.noteOffset);
  } else if (token.name == "sw_octave_offset") {
    control_.swOctaveOffset = controlInteger(token, -10, 10).value_or(control_.swOctaveOffset);
  } else if (token.name == "sw_note_offset") {
    control_.swNoteOffset = controlInteger(token, -127, 127).value_or(control_.swNoteOffset);
  } else if (isPlayerHint(token.name)) {
    return;
  } else if (const auto match = findOpcode(token.name); match && takeControllerDefault(token, *match)) {
    return;
  } else if (match) {
    reporter_.warning(*token.file, token.line, "opcode '" + token.name + "' has no effect in <control> (ignored)");
  } else {
    reportUnimplemented(token);
  }
}

void Parser::onCurveOpcode(const Token& token) {
  const std::string_view name = token.name;
  const bool point = name.size() == 4 && name[0] == 'v' &&
                     std::all_of(name.begin() + 1, name.end(), text::isDigit);
  if (name != "curve_index" && !point) return reportUnimplemented(token);
  bool trailing = false;
  const std::optional<double> value = parseNumber(token.value, &trailing);
  const int index = point ? std::stoi(std::string(name.substr(1))) : static_cast<int>(value.value_or(-1));
  if (!value || trailing || index < 0 || (point && index > 127) || (!point && index > 255)) {
    reporter_.warning(*token.file, token.line, "bad curve opcode '" + token.name + "=" + token.value + "' (ignored)");
    return;
  }
  if (point)
    curve_.points.set(index, static_cast<float>(*value));
  else
    curve_.index = index;
}

void Parser::onRegionOpcode(const Token& token) {
  if (isPlayerHint(token.name)) return;
  const std::optional<OpcodeMatch> match = findOpcode(token.name);
  if (!match) return reportUnimplemented(token);
  if (takeControllerDefault(token, *match)) return;
  std::optional<ParsedOpcode> parsed = parse(token, *match);
  if (!parsed) return;
  switch (level_) {
    case Level::Global: inherited_[0].push_back(*parsed); break;
    case Level::Master: inherited_[1].push_back(*parsed); break;
    case Level::Group: inherited_[2].push_back(*parsed); break;
    default: regionOpcodes_.push_back(*parsed); break;
  }
}

std::optional<ParsedOpcode> Parser::parse(const Token& token, const OpcodeMatch& match) {
  const OpcodeSpec& spec = *match.spec;
  if (match.index > spec.maxIndex) {
    reporter_.warning(*token.file, token.line, "opcode '" + token.name + "': number out of range (ignored)");
    return std::nullopt;
  }
  const auto* special = std::get_if<Special>(&spec.target);
  if (special && *special == Special::Sample) {
    if (token.value.empty()) {
      reporter_.warning(*token.file, token.line, "opcode 'sample': empty value (ignored)");
      return std::nullopt;
    }
    return ParsedOpcode{&spec, -1, static_cast<double>(sampleIndex(token))};
  }
  ValueResult result = parseValue(spec, token.value, noteShift(spec));
  if (!result.problem.empty())
    reporter_.warning(*token.file, token.line, "opcode '" + token.name + "': " + result.problem);
  if (!result.value) return std::nullopt;
  if (special && *special == Special::SwDefault) inst_.swDefault = static_cast<int>(result.value->number);
  return ParsedOpcode{&spec, match.index, result.value->number, match.lfo, match.eg, match.sub};
}

// set_ccN / set_hdccN / set_realccN, at any header level: instrument-wide, the last
// value per controller wins. set_realcc also makes CC N (N < 32) a 14-bit controller.
// True when the opcode was one of these (whatever became of its value).
bool Parser::takeControllerDefault(const Token& token, const OpcodeMatch& match) {
  const auto* special = std::get_if<Special>(&match.spec->target);
  if (!special || (*special != Special::SetCc && *special != Special::SetHdcc && *special != Special::SetRealcc))
    return false;
  const std::optional<ParsedOpcode> parsed = parse(token, match);
  if (!parsed || parsed->index < 0) return true;
  // As the engine computes a MIDI value (float division), so that locc bounds compare equal.
  const float number = static_cast<float>(parsed->number);
  const float value = *special == Special::SetCc ? number / 127.0f : number;
  auto& defaults = inst_.controllerDefaults;
  const auto it = std::find_if(defaults.begin(), defaults.end(),
                               [&](const controllers::ControllerDefault& d) { return d.cc == parsed->index; });
  controllers::ControllerDefault& d = it != defaults.end() ? *it : defaults.emplace_back();
  d.cc = parsed->index;
  d.value = value;
  d.highResolution = d.highResolution || *special == Special::SetRealcc;
  return true;
}

void Parser::reportUnimplemented(const Token& token) {
  if (isReferenceOpcode(token.name)) {
    if (reporter_.firstTime("unsupported " + token.name))
      reporter_.warning(*token.file, token.line, "opcode '" + token.name + "' is not supported by Spindle (ignored)");
    return;
  }
  if (!reporter_.firstTime("unknown " + token.name)) return;
  reporter_.warning(*token.file, token.line, "unknown opcode '" + token.name + "' (ignored)");
  inst_.unknownOpcodes.push_back(token.name);
}

int32_t Parser::sampleIndex(const Token& token) {
  const std::string written = text::forwardSlashes(token.value);
  const bool generator = written.starts_with('*');
  const std::string key = generator ? written : control_.defaultPath + written;
  if (const auto it = sampleByWritten_.find(key); it != sampleByWritten_.end()) return it->second;
  std::string path = key;
  if (!generator) {
    const fs::path wanted = instrument::joinWritten(rootFolder_, key);
    const std::optional<fs::path> found = instrument::findExisting(wanted);
    path = (found ? *found : wanted).string();
    const bool firstMiss = !found && std::find(inst_.missingSamples.begin(), inst_.missingSamples.end(),
                                               path) == inst_.missingSamples.end();
    if (firstMiss) {
      inst_.missingSamples.push_back(path);
      reporter_.warning(*token.file, token.line, "sample not found: '" + path + "'");
    }
  }
  const int32_t index = samples_.addResolved(path);
  sampleByWritten_.emplace(key, index);
  return index;
}

void Parser::closeBlock() {
  if (level_ == Level::Region) finishRegion();
  if (level_ == Level::Curve) finishCurve();
}

void Parser::finishRegion() {
  RegionBuilder builder(blocks_[1], blocks_[2]);
  for (size_t level = 0; level <= inherited_.size(); ++level) {
    builder.enterLevel(level);
    for (const ParsedOpcode& op : level < inherited_.size() ? inherited_[level] : regionOpcodes_) builder.apply(op);
  }
  std::string whySkipped, notes;
  std::optional<Region> region = builder.finish(whySkipped, notes);
  if (!region) {
    reporter_.warning(regionOrigin_.file, regionOrigin_.line, whySkipped);
    return;
  }
  if (!notes.empty()) reporter_.warning(regionOrigin_.file, regionOrigin_.line, notes);
  // direction=reverse always plays the reversed entry; reverse_loccN picks it at note-on.
  if (region->reverse) region->sampleIndex = samples_.reversed(region->sampleIndex);
  else if (!region->reverseCcs.empty()) region->reverseSampleIndex = samples_.reversed(region->sampleIndex);
  inst_.regions.push_back(*region);
  inst_.origins.push_back(regionOrigin_);
  inst_.origins.back().label = labels_.finishRegion(*region);
}

void Parser::finishCurve() {
  if (curve_.index < 0) {
    reporter_.warning(curve_.origin.file, curve_.origin.line, "<curve> without curve_index ignored");
    return;
  }
  inst_.curves.push_back(instrument::Curve{curve_.index, instrument::interpolateCurve(curve_.points)});
}

void Parser::finish() {
  closeBlock();
  samples_.dropUnplayedForward();
  shareGroupPolyphony(inst_.regions);
  level_ = Level::None;
}

template <class Run>
instrument::Instrument load(const fs::path& file, Run run) {
  instrument::Instrument inst;
  std::error_code ec;
  inst.path = fs::absolute(file, ec).lexically_normal();
  inst.name = file.stem().string();
  Parser parser(inst, inst.path.parent_path());
  Preprocessor preprocessor(parser.reporter(), [&parser](const Token& token) { parser.onToken(token); });
  inst.ok = run(preprocessor);
  parser.finish();
  if (inst.ok && inst.regions.empty())
    parser.reporter().warning(file.string(), 0, "no playable region in '" + file.string() + "'");
  return inst;
}

}  // namespace

instrument::Instrument loadFile(const fs::path& sfzFile) {
  return load(sfzFile, [&](Preprocessor& p) { return p.runFile(sfzFile); });
}

instrument::Instrument loadString(std::string_view text, const fs::path& virtualFile) {
  return load(virtualFile, [&](Preprocessor& p) {
    p.runText(text, virtualFile);
    return true;
  });
}

}  // namespace spindle::sfz
