#include "app/ListLibraries.h"

#include <algorithm>
#include <cstdio>

#include "app/ExitCodes.h"
#include "library/EntryJson.h"
#include "library/LibraryIndex.h"

namespace spindle::app {

namespace {

std::string presetLine(const library::Preset& p) {
  char number[16];
  std::snprintf(number, sizeof number, "%03d:%03d", p.bank, p.program);
  return std::string("    ") + number + "  " + p.name + "\n";
}

void printText(const std::vector<library::Entry>& entries, const std::vector<std::filesystem::path>& roots,
               std::ostream& out) {
  int broken = 0;
  for (const library::Entry& e : entries) {
    out << e.name << "  [" << e.format << "]  " << e.path << '\n';
    for (const library::Preset& p : e.presets) out << presetLine(p);
    if (!e.error.empty()) out << "    error: " << e.error << '\n', ++broken;
  }
  out << entries.size() << " instrument" << (entries.size() == 1 ? "" : "s") << ", " << broken
      << " with errors, in " << roots.size() << " folders:";
  for (const auto& root : roots) out << ' ' << root.string();
  out << '\n';
}

}  // namespace

bool wantsLibraryList(const std::vector<std::string>& args) {
  return std::find(args.begin(), args.end(), "--list-libraries") != args.end();
}

int runListLibraries(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  bool json = false;
  for (const std::string& arg : args) {
    if (arg == "--json") json = true;
    else if (arg != "--list-libraries") {
      err << "spindle: --list-libraries takes only --json, not " << arg << '\n';
      return kExitUsage;
    }
  }
  library::Options options{library::defaultRoots(), library::defaultCacheFile(), false};
  library::Index index(options);
  index.start();
  while (!index.waitIdle(std::chrono::seconds(60))) {
  }
  const std::vector<library::Entry> entries = index.entries();
  if (json) out << library::toJson(entries);
  else printText(entries, index.roots(), out);
  return 0;
}

}  // namespace spindle::app
