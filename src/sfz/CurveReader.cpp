#include "sfz/CurveReader.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "sfz/Text.h"
#include "sfz/Values.h"

namespace spindle::sfz {

void CurveReader::enter(const Token& header) {
  index_ = -1;
  points_ = instrument::CurvePoints{};
  file_ = *header.file;
  line_ = header.line;
}

bool CurveReader::take(const Token& token) {
  const std::string_view name = token.name;
  const bool point = name.size() == 4 && name[0] == 'v' && std::all_of(name.begin() + 1, name.end(), text::isDigit);
  if (name != "curve_index" && !point) return false;
  bool trailing = false;
  const std::optional<double> value = parseNumber(token.value, &trailing);
  const int index = point ? std::stoi(std::string(name.substr(1))) : static_cast<int>(value.value_or(-1));
  if (!value || trailing || index < 0 || (point && index > 127) || (!point && index > 255)) {
    reporter_.warning(*token.file, token.line, "bad curve opcode '" + token.name + "=" + token.value + "' (ignored)");
    return true;
  }
  if (point)
    points_.set(index, static_cast<float>(*value));
  else
    index_ = index;
  return true;
}

void CurveReader::finish() {
  if (index_ < 0) {
    reporter_.warning(file_, line_, "<curve> without curve_index ignored");
    return;
  }
  inst_.curves.push_back(instrument::Curve{index_, instrument::interpolateCurve(points_)});
}

}  // namespace spindle::sfz
