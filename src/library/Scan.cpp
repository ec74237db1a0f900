#include "library/Scan.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>

#include "formats/InstrumentFile.h"
#include "instrument/Instrument.h"

namespace spindle::library::detail {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// A file's mtime: seconds and the nanoseconds within them.
struct Stamp {
  std::int64_t seconds = 0, nanoseconds = 0;
  bool operator<(const Stamp& o) const { return seconds != o.seconds ? seconds < o.seconds : nanoseconds < o.nanoseconds; }
};

Stamp stampOf(const fs::path& path) {
  std::error_code ec;
  const auto time = fs::last_write_time(path, ec);
  if (ec) return {};
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::file_clock::to_sys(time).time_since_epoch()).count();
  return {ns / 1000000000, ns % 1000000000};
}

// A folder instrument's stamp: its files' total size and the newest file's time.
Stamp stampFolder(Candidate& c) {
  std::error_code ec;
  Stamp newest = stampOf(c.path);
  for (fs::recursive_directory_iterator it(c.path, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    c.bytes += it->file_size(ec);
    newest = std::max(newest, stampOf(it->path()));
  }
  return newest;
}

Candidate candidate(const fs::path& path, const fs::path& root, std::string format, bool folder) {
  Candidate c{path, root, std::move(format), 0, 0, 0};
  std::error_code ec;
  if (!folder) c.bytes = fs::file_size(path, ec);
  const Stamp stamp = folder ? stampFolder(c) : stampOf(path);
  c.modified = stamp.seconds;
  c.modifiedNs = stamp.nanoseconds;
  return c;
}

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// "file:line: message" of the loader's first error; empty when it has none.
std::string firstError(const instrument::Instrument& in) {
  for (const instrument::Diagnostic& d : in.diagnostics) {
    if (d.severity != instrument::Diagnostic::Severity::Error) continue;
    return d.file + (d.line > 0 ? ":" + std::to_string(d.line) : std::string()) + ": " + d.message;
  }
  if (!in.ok) return in.path.string() + ": cannot be read";
  if (!in.missingSamples.empty())
    return "sample not found: " + in.missingSamples.front() +
           (in.missingSamples.size() > 1 ? " (and " + std::to_string(in.missingSamples.size() - 1) + " more)" : "");
  return {};
}

void fillFromInstrument(Entry& e, const instrument::Instrument& in) {
  e.regions = static_cast<int>(in.regions.size());
  e.samples = static_cast<int>(in.samples.size());
  for (const Region& r : in.regions) {
    e.loKey = e.loKey < 0 ? r.lokey : std::min<int>(e.loKey, r.lokey);
    e.hiKey = std::max<int>(e.hiKey, r.hikey);
  }
  for (const auto& label : in.controllerLabels)
    if (!label.label.empty() && std::find(e.controls.begin(), e.controls.end(), label.label) == e.controls.end())
      e.controls.push_back(label.label);
  for (const spindle::Preset& p : in.presets) e.presets.push_back({p.bank, p.program, p.name});
  std::stable_sort(e.presets.begin(), e.presets.end(), [](const Preset& a, const Preset& b) {
    return a.bank != b.bank ? a.bank < b.bank : a.program < b.program;
  });
  e.error = firstError(in);
}

}  // namespace

std::string formatOf(const fs::path& path, bool folder) {
  const std::string ext = lower(path.extension().string());
  std::error_code ec;
  if (folder) {
    if (fs::exists(path / "drumkit.xml", ec)) return "hydrogen";
    if (ext == ".dsbundle") return "dspreset";
    if (ext == ".multisample" || fs::exists(path / "multisample.xml", ec)) return "multisample";
    return {};
  }
  if (ext == ".sfz") return "sfz";
  if (ext == ".sf2" || ext == ".sf3") return "sf2";
  if (ext == ".dspreset") return "dspreset";
  if (ext == ".dslibrary") return "dslibrary";
  if (ext == ".h2drumkit") return "h2drumkit";
  if (ext == ".multisample") return "multisample";
  return {};
}

std::vector<Candidate> findCandidates(const fs::path& root, const std::atomic<bool>& cancel) {
  std::vector<Candidate> out;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return out;
  if (std::string format = formatOf(root, true); !format.empty()) {
    out.push_back(candidate(root, root, std::move(format), true));
    return out;
  }
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end && !cancel.load(std::memory_order_relaxed); it.increment(ec)) {
    const bool folder = it->is_directory(ec);
    if (!folder && !it->is_regular_file(ec)) continue;
    std::string format = formatOf(it->path(), folder);
    if (format.empty()) continue;
    if (folder) it.disable_recursion_pending();  // a kit's or bundle's own files are its
    out.push_back(candidate(it->path(), root, std::move(format), folder));
  }
  return out;
}

std::string pictureOf(const std::string& format, const fs::path& loaded) {
  static const std::regex dspreset(R"re(bgImage\s*=\s*"([^"]+)")re");
  static const std::regex kit(R"re(<image>\s*([^<]+?)\s*</image>)re");
  const bool isKit = format == "hydrogen" || format == "h2drumkit";
  if (!isKit && format != "dspreset") return {};
  const std::string text = readText(loaded);
  std::smatch match;
  if (!std::regex_search(text, match, isKit ? kit : dspreset)) return {};
  const fs::path picture = loaded.parent_path() / match[1].str();
  std::error_code ec;
  return fs::is_regular_file(picture, ec) ? fs::absolute(picture).lexically_normal().string() : std::string();
}

Entry describe(const Candidate& c) {
  Entry e;
  e.path = c.path.string();
  e.root = c.root.string();
  e.format = c.format;
  e.bytes = c.bytes;
  e.modified = c.modified;
  e.modifiedNs = c.modifiedNs;
  e.name = c.path.stem().string();
  const instrument::Instrument in = formats::loadInstrument(c.path);
  if (c.format == "hydrogen" && !in.name.empty()) e.name = in.name;
  fillFromInstrument(e, in);
  e.picture = pictureOf(c.format, in.path);
  return e;
}

}  // namespace spindle::library::detail
