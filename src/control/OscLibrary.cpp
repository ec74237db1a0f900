#include "control/OscLibrary.h"

#include "control/ControlCore.h"
#include "library/LibraryIndex.h"

namespace spindle::control {

namespace {

// The index, started (its cache read, a scan begun) by the first library command.
library::Index* index(OscCall& c) {
  library::Index* found = c.core.target().libraryIndex();
  if (!found) c.core.error("this Spindle keeps no library index");
  else found->start();
  return found;
}

void progressReply(OscCall& c, const library::Index& index) {
  const library::Progress p = index.progress();
  c.core.reply({"/spindle/library/progress", {OscValue::i(p.done), OscValue::i(p.total), OscValue::i(p.scanning)}});
}

// One /spindle/library/entry per entry, a font's presets in it (one datagram each: a burst
// of one per preset overflowed a UDP reader's buffer), then /spindle/library/end.
void replyEntries(OscCall& c, const library::Index& index, const std::vector<library::Entry>& entries) {
  for (const library::Entry& e : entries) {
    OscMessage m{"/spindle/library/entry",
                 {OscValue::s(e.name), OscValue::s(e.format), OscValue::s(e.path), OscValue::s(e.error),
                  OscValue::i(e.regions), OscValue::i(static_cast<int>(e.presets.size())), OscValue::s(e.picture)}};
    for (const library::Preset& p : e.presets) {
      m.args.push_back(OscValue::i(p.bank));
      m.args.push_back(OscValue::i(p.program));
      m.args.push_back(OscValue::s(p.name));
    }
    c.core.reply(m);
  }
  c.core.reply({"/spindle/library/end",
                {OscValue::i(static_cast<int>(entries.size())), OscValue::i(index.progress().scanning)}});
}

void listLibrary(OscCall& c) {
  if (library::Index* found = index(c)) replyEntries(c, *found, found->entries());
}

void search(OscCall& c) {
  if (library::Index* found = index(c)) replyEntries(c, *found, found->search(c.text(0)));
}

void rescan(OscCall& c) {
  library::Index* found = index(c);
  if (!found) return;
  found->rescan();
  progressReply(c, *found);
}

void progress(OscCall& c) {
  if (library::Index* found = index(c)) progressReply(c, *found);
}

}  // namespace

std::vector<OscEntry> libraryApi() {
  return {
      {"/spindle/library/list", {},
       "replies one /spindle/library/entry per installed instrument (a SoundFont's with its presets), then "
       "/spindle/library/end (a large list is best read over TCP: UDP may drop some)",
       listLibrary},
      {"/spindle/library/search", {{'s', "text", 0, 0}},
       "as /spindle/library/list, only the instruments whose name, format, folder, labelled controls or preset "
       "names hold the text (case-insensitive)",
       search},
      {"/spindle/library/rescan", {},
       "scans the instrument folders again in the background; replies /spindle/library/progress", rescan},
      {"/spindle/library/progress", {}, "replies /spindle/library/progress", progress},
  };
}

std::vector<OscReplyDoc> libraryReplies() {
  return {
      {"/spindle/library/entry", "ssssiis(iis)...",
       "name, format (sfz, sf2, dspreset, dslibrary, hydrogen, h2drumkit, multisample), path (as --instrument and "
       "/spindle/load take it), error (empty: it loads cleanly; else the loader's first error), regions, presets, "
       "picture (the preset's or kit's picture; empty: none), then a SoundFont's presets: bank, program, name"},
      {"/spindle/library/end", "ii", "the count of entries sent, and 1 while a scan is still running"},
      {"/spindle/library/progress", "iii", "instruments scanned, instruments found, 1 while a scan is running"},
  };
}

}  // namespace spindle::control
