#include "dspreset/ClosingTags.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace spindle::dspreset {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// One pass over the text, copying it to `out` markup by markup.
class Scanner {
 public:
  Scanner(std::string_view in, std::vector<TagMismatch>& mismatches) : in_(in), mismatches_(mismatches) {
    out_.reserve(in.size());
  }

  std::string run() {
    while (at_ < in_.size() && !rootClosed_) {
      const size_t lt = in_.find('<', at_);
      copyTo(lt == std::string_view::npos ? in_.size() : lt);
      if (at_ < in_.size()) markup();
    }
    afterRoot();
    return std::move(out_);
  }

 private:
  struct Open {
    std::string name;
    int line;
  };

  // Copies the text up to `end` (clamped to the input), counting its lines.
  void copyTo(size_t end) {
    end = std::min(end, in_.size());
    const std::string_view part = in_.substr(at_, end - at_);
    line_ += static_cast<int>(std::count(part.begin(), part.end(), '\n'));
    out_.append(part);
    at_ = end;
  }

  // Copies through the first `terminator` (or to the end when there is none).
  void copyThrough(const char* terminator) {
    const size_t found = in_.find(terminator, at_);
    copyTo(found == std::string_view::npos ? in_.size() : found + std::strlen(terminator));
  }

  bool startsWith(const char* prefix) const { return in_.substr(at_).starts_with(prefix); }

  std::string nameAt(size_t from) const {
    size_t end = from;
    while (end < in_.size() && !isSpace(in_[end]) && in_[end] != '>' && in_[end] != '/') ++end;
    return std::string(in_.substr(from, end - from));
  }

  void markup() {
    if (startsWith("<!--")) return copyThrough("-->");
    if (startsWith("<![CDATA[")) return copyThrough("]]>");
    if (startsWith("<?")) return copyThrough("?>");
    if (startsWith("<!")) return copyThrough(">");
    if (startsWith("</")) return closingTag();
    openingTag();
  }

  // A start tag: through its '>', stepping over quoted attribute values.
  void openingTag() {
    const int line = line_;
    const std::string name = nameAt(at_ + 1);
    size_t end = at_ + 1;
    char quote = 0;
    for (; end < in_.size(); ++end) {
      const char c = in_[end];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '>') {
        break;
      }
    }
    const bool selfClosing = end < in_.size() && in_[end - 1] == '/';
    copyTo(end + 1);
    if (!selfClosing && !name.empty()) open_.push_back({name, line});
  }

  void closingTag() {
    const size_t gt = in_.find('>', at_);
    const std::string written = nameAt(at_ + 2);
    if (gt == std::string_view::npos || open_.empty()) return copyTo(gt == std::string_view::npos ? gt : gt + 1);
    const Open opened = open_.back();
    open_.pop_back();
    if (open_.empty()) rootClosed_ = true, root_ = opened, closedLine_ = line_;
    if (written == opened.name) return copyTo(gt + 1);
    mismatches_.push_back({TagMismatch::Kind::Renamed, line_, written, opened.name, opened.line});
    const std::string_view skipped = in_.substr(at_, gt + 1 - at_);
    const auto newlines = std::count(skipped.begin(), skipped.end(), '\n');
    line_ += static_cast<int>(newlines);
    out_ += "</" + opened.name + std::string(static_cast<size_t>(newlines), '\n') + ">";  // the lines stay
    at_ = gt + 1;
  }

  // After the root: comments, processing instructions and white space are copied; from
  // the first anything else on, nothing is, and one entry names the lines left out.
  void afterRoot() {
    while (at_ < in_.size()) {
      const size_t next = in_.find_first_not_of(" \t\r\n", at_);
      copyTo(next == std::string_view::npos ? in_.size() : next);
      if (at_ >= in_.size()) return;
      if (startsWith("<!--")) copyThrough("-->");
      else if (startsWith("<?")) copyThrough("?>");
      else return leaveOut();
    }
  }

  void leaveOut() {
    const std::string_view rest = in_.substr(at_);
    const size_t gt = rest.find('>');
    const std::string_view first = rest.substr(0, std::min({rest.find('\n'), gt == std::string_view::npos ? gt : gt + 1, size_t{60}}));
    const size_t last = rest.find_last_not_of(" \t\r\n");
    const int lastLine = line_ + static_cast<int>(std::count(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(last), '\n'));
    mismatches_.push_back({TagMismatch::Kind::AfterRoot, line_, std::string(first), root_.name, closedLine_, lastLine});
    at_ = in_.size();
  }

  std::string_view in_;
  std::vector<TagMismatch>& mismatches_;
  bool rootClosed_ = false;
  Open root_;
  int closedLine_ = 0;
  std::string out_;
  std::vector<Open> open_;
  size_t at_ = 0;
  int line_ = 1;
};

}  // namespace

std::string matchClosingTags(std::string_view xml, std::vector<TagMismatch>& mismatches) {
  return Scanner(xml, mismatches).run();
}

}  // namespace spindle::dspreset
