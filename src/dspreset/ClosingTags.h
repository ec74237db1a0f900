#pragma once
// Closing tags read the way DecentSampler reads them: a closing tag closes the element
// opened last, whatever name it gives, so a preset with `<group> ... </groups>` plays
// in DecentSampler. pugixml refuses such a file ("Start-end tags mismatch"); the
// preset's text is passed through matchClosingTags() first, which gives every closing
// tag the name of the element it closes and lists each one it renamed. Once the root
// element is closed (by its own closing tag or by a stray one), DecentSampler reads no
// further: what follows it, other than comments, processing instructions and white
// space, is left out of the text and listed too. Loader thread.
//
// The scan knows comments, CDATA sections, processing instructions, declarations and
// quoted attribute values (a '>' inside them closes nothing); what it cannot make sense
// of (an unterminated comment, a closing tag with no element open) it copies as it is,
// for the XML parser to report.
#include <string>
#include <string_view>
#include <vector>

namespace spindle::dspreset {

struct TagMismatch {
  enum class Kind { Renamed, AfterRoot };
  Kind kind = Kind::Renamed;
  int line = 0;          // of the closing tag, 1-based; AfterRoot: the first line left out
  std::string written;   // the name the closing tag gave; AfterRoot: the first markup or text left out
  std::string expected;  // the element it closes; AfterRoot: the root's name
  int openedLine = 0;    // where that element was opened; AfterRoot: where the root closed
  int lastLine = 0;      // AfterRoot: the last line with something left out
};

// `xml` with each closing tag renamed to the element it closes and what follows the
// root left out; `mismatches` gets the renamed tags, in file order, then what was left
// out after the root (at most one entry).
std::string matchClosingTags(std::string_view xml, std::vector<TagMismatch>& mismatches);

}  // namespace spindle::dspreset
