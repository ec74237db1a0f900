#pragma once
// Closing tags read the way DecentSampler reads them: a closing tag closes the element
// opened last, whatever name it gives, so a preset with `<group> ... </groups>` plays
// in DecentSampler. pugixml refuses such a file ("Start-end tags mismatch"); the
// preset's text is passed through matchClosingTags() first, which gives every closing
// tag the name of the element it closes and lists each one it renamed. Loader thread.
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
  int line = 0;          // of the closing tag, 1-based
  std::string written;   // the name the closing tag gave
  std::string expected;  // the element it closes
  int openedLine = 0;    // where that element was opened
};

// `xml` with each closing tag renamed to the element it closes; `mismatches` gets the
// renamed ones, in file order.
std::string matchClosingTags(std::string_view xml, std::vector<TagMismatch>& mismatches);

}  // namespace spindle::dspreset
