#include "sfz/Parser.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "instrument/SampleTable.h"
#include "sfz/ControlSettings.h"
#include "sfz/CurveReader.h"
#include "sfz/EffectReader.h"
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
// Effect: <effect> and <midi>, whose opcodes are kept in Instrument::effects; <effect>
// blocks are played (EffectReader).
enum class Level { None, Control, Global, Master, Group, Region, Curve, Skipped, Effect };

// The state of one instrument being read: header levels, <control> settings, the open
// region or curve, and the sample table. Fed token by token by the Preprocessor.
class Parser {
 public:
  Parser(instrument::Instrument& instrument, fs::path rootFolder)
      : inst_(instrument),
        reporter_(instrument.diagnostics),
        rootFolder_(std::move(rootFolder)),
        control_(reporter_),
        curves_(instrument, reporter_),
        labels_(instrument, reporter_),
        effects_(instrument, reporter_),
        samples_(instrument) {}

  instrument::Reporter& reporter() { return reporter_; }
  void onToken(const Token& token);
  void finish();

 private:
  void onHeader(const Token& token);
  void enterSkipped(const Token& token, std::string_view name);
  void enterEffect(const Token& token, const std::string& name);
  bool takeLabel(const Token& token);
  void onStray(const Token& token);
  void onControlOpcode(const Token& token);
  void onRegionOpcode(const Token& token);
  std::optional<ParsedOpcode> parse(const Token& token, const OpcodeMatch& match);
  bool takeControllerDefault(const Token& token, const OpcodeMatch& match);
  void reportUnimplemented(const Token& token);
  int32_t sampleIndex(const Token& token);
  void closeBlock();
  void finishRegion();

  instrument::Instrument& inst_;
  instrument::Reporter reporter_;
  fs::path rootFolder_;
  Level level_ = Level::None;
  std::array<std::vector<ParsedOpcode>, 3> inherited_;  // <global>, <master>, <group>
  std::array<uint32_t, 3> blocks_{};  // the current header of each level (Region::masterBlock...)
  uint32_t blockCount_ = 0;
  std::vector<ParsedOpcode> regionOpcodes_;
  instrument::RegionOrigin regionOrigin_;
  ControlSettings control_;
  CurveReader curves_;
  std::unordered_map<std::string, int32_t> sampleByWritten_;  // default_path + value as written
  LabelReader labels_;
  EffectReader effects_;
  bool midiBlock_ = false;  // the Effect level is a <midi> block
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
    case Level::Effect:
      inst_.effects.back().opcodes.emplace_back(token.name, token.value);
      if (!midiBlock_ && !effects_.take(token)) reportUnimplemented(token);
      break;
    case Level::Control: onControlOpcode(token); break;
    case Level::Curve:
      if (!curves_.take(token)) reportUnimplemented(token);
      break;
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
    control_.reset();
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
    curves_.enter(token);
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

// <effect> (bus effects) and <midi> (ARIA's MIDI effects) are kept as written. <effect>
// blocks are played (EffectReader); <midi> ones are not, which is said once per file.
void Parser::enterEffect(const Token& token, const std::string& name) {
  level_ = Level::Effect;
  midiBlock_ = name == "midi";
  inst_.effects.push_back(instrument::EffectBlock{name, *token.file, token.line, {}});
  if (!midiBlock_) return effects_.enter();
  if (reporter_.firstTime("midi effects in " + *token.file))
    reporter_.warning(*token.file, token.line, "<midi> headers are read but MIDI effects are not played");
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

void Parser::onControlOpcode(const Token& token) {
  if (control_.take(token) || isPlayerHint(token.name)) return;
  const std::optional<OpcodeMatch> match = findOpcode(token.name);
  if (match && takeControllerDefault(token, *match)) return;
  if (match)
    reporter_.warning(*token.file, token.line, "opcode '" + token.name + "' has no effect in <control> (ignored)");
  else
    reportUnimplemented(token);
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
  ValueResult result = parseValue(spec, token.value, control_.noteShift(spec));
  if (!result.problem.empty())
    reporter_.warning(*token.file, token.line, "opcode '" + token.name + "': " + result.problem);
  if (!result.value) return std::nullopt;
  if (special && *special == Special::SwDefault) inst_.swDefault = static_cast<int>(result.value->number);
  return ParsedOpcode{&spec, match.index, result.value->number, match.lfo, match.eg, match.sub, match.var};
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

// A generator (*sine...) is entered as written; a file through the sample table, once
// per path as written after default_path, and reported the first time it is missing.
int32_t Parser::sampleIndex(const Token& token) {
  const std::string written = text::forwardSlashes(token.value);
  const bool generator = written.starts_with('*');
  const std::string key = generator ? written : control_.defaultPath() + written;
  if (const auto it = sampleByWritten_.find(key); it != sampleByWritten_.end()) return it->second;
  const size_t missing = inst_.missingSamples.size();
  const int32_t index = generator ? samples_.addResolved(key) : samples_.add(rootFolder_, key);
  if (inst_.missingSamples.size() > missing)
    reporter_.warning(*token.file, token.line, "sample not found: '" + inst_.missingSamples.back() + "'");
  sampleByWritten_.emplace(key, index);
  return index;
}

void Parser::closeBlock() {
  if (level_ == Level::Region) finishRegion();
  if (level_ == Level::Curve) curves_.finish();
  if (level_ == Level::Effect) effects_.close();
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
