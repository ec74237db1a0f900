#include "sfz/Labels.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "core/Controllers.h"
#include "sfz/Text.h"

namespace spindle::sfz {

namespace {

// N of "<prefix>N" (digits only, at most 6), or nullopt.
std::optional<int> suffixNumber(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix) || name.size() == prefix.size() || name.size() - prefix.size() > 6) return std::nullopt;
  int value = 0;
  for (char c : name.substr(prefix.size())) {
    if (!text::isDigit(c)) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

size_t slot(LabelScope scope) { return static_cast<size_t>(scope) - 1; }

}  // namespace

void LabelReader::enter(LabelScope scope) {
  if (scope == LabelScope::Control) return;
  for (size_t i = slot(scope); i < headerLabels_.size(); ++i) {
    headerLabels_[i].clear();
    swLabels_[i].clear();
  }
}

bool LabelReader::take(const Token& token, LabelScope scope) {
  const std::string_view name = token.name;
  if (const auto cc = suffixNumber(name, "label_cc")) {
    setControllerLabel(token, *cc);
    return true;
  }
  if (const auto key = suffixNumber(name, "label_key")) {
    if (*key > 127)
      reporter_.warning(*token.file, token.line, "opcode '" + token.name + "': key out of range 0..127 (ignored)");
    else
      setKeyLabel(*key, token.value, false);
    return true;
  }
  if (const auto output = suffixNumber(name, "label_output")) {
    setOutputLabel(token, *output);
    return true;
  }
  const bool header = name == "global_label" || name == "master_label" || name == "group_label" ||
                      name == "region_label";
  if (!header && name != "sw_label") return false;
  if (scope == LabelScope::Control) {
    reporter_.warning(*token.file, token.line, "opcode '" + token.name + "' has no effect in <control> (ignored)");
    return true;
  }
  (header ? headerLabels_ : swLabels_)[slot(scope)] = token.value;
  return true;
}

void LabelReader::setControllerLabel(const Token& token, int cc) {
  if (cc >= controllers::kCount) {
    reporter_.warning(*token.file, token.line, "opcode '" + token.name + "': controller out of range 0..511 (ignored)");
    return;
  }
  auto& labels = inst_.controllerLabels;
  const auto it = std::find_if(labels.begin(), labels.end(), [cc](const auto& l) { return l.cc == cc; });
  if (it != labels.end())
    it->label = token.value;
  else
    labels.push_back({cc, token.value, {}});
}

void LabelReader::setOutputLabel(const Token& token, int output) {
  constexpr int kMaxOutput = 1024;  // the output opcode's range
  if (output > kMaxOutput) {
    reporter_.warning(*token.file, token.line, "opcode '" + token.name + "': output out of range 0..1024 (ignored)");
    return;
  }
  auto& labels = inst_.outputLabels;
  const auto it = std::find_if(labels.begin(), labels.end(), [output](const auto& l) { return l.output == output; });
  if (it != labels.end())
    it->label = token.value;
  else
    labels.push_back({output, token.value});
}

void LabelReader::setKeyLabel(int key, const std::string& label, bool keyswitch) {
  auto& labels = inst_.keyLabels;
  const auto it = std::find_if(labels.begin(), labels.end(), [key](const auto& l) { return l.key == key; });
  if (it != labels.end())
    *it = {key, label, keyswitch};
  else
    labels.push_back({key, label, keyswitch});
}

std::string LabelReader::finishRegion(const Region& region) {
  std::string swLabel;
  for (const std::string& label : swLabels_)
    if (!label.empty()) swLabel = label;  // the innermost level wins, as for any opcode
  if (!swLabel.empty() && region.swLast >= 0) setKeyLabel(region.swLast, swLabel, true);
  std::string name;
  for (const std::string& label : headerLabels_) {
    if (label.empty()) continue;
    if (!name.empty()) name += " / ";
    name += label;
  }
  return name;
}

}  // namespace spindle::sfz
