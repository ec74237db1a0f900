#pragma once
// Line numbers of XML nodes, for diagnostics: pugixml gives a node's offset in the text it
// parsed, this turns it into a 1-based line. Loader thread.
#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

#include <pugixml.hpp>

namespace spindle::multisample {

class XmlLines {
 public:
  explicit XmlLines(std::string_view text) {
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') newlines_.push_back(static_cast<ptrdiff_t>(i));
  }

  // The line of byte `offset` (1 for a negative offset: unknown).
  int lineAt(ptrdiff_t offset) const {
    if (offset < 0) return 1;
    return 1 + static_cast<int>(std::lower_bound(newlines_.begin(), newlines_.end(), offset) - newlines_.begin());
  }
  int lineOf(const pugi::xml_node& node) const { return lineAt(node.offset_debug()); }

 private:
  std::vector<ptrdiff_t> newlines_;  // ascending offsets of '\n'
};

}  // namespace spindle::multisample
