// Every file of the corpus (make_corpus.py: damaged and odd files of every format) loaded
// through the entry the app uses: session::Loader for instruments (formats::loadInstrument,
// then the samples), stream::SamplePool for audio files, io::readMidiFile for MIDI files.
// Each gives the outcome its damage calls for, by value: N regions (with a message naming
// what was skipped or where), N frames, N events, or an error naming the file and, where
// there is one, its chunk, line or entry. No load takes long, none writes outside the
// archive cache, a refused archive leaves nothing in the cache, and the whole run stays
// within a memory bound (it runs under ASan + UBSan in CI).
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "Corpus.h"
#include "session/Loader.h"
#include "catch.h"
#include "io/MidiFile.h"
#include "stream/SamplePool.h"

namespace corpus_tests {

namespace fs = std::filesystem;
using spindle::test::Case;

namespace {

// Most files load in milliseconds; the slowest is the zip past the entry bound, which
// creates 10,000 files before it is refused (about 10 s on a busy ext4 disk).
constexpr double kMaxSecondsPerFile = 60.0;
// The run's peak resident memory: about 25 MiB in a release build. The bound leaves room
// for ASan's shadow memory and quarantine; a loader that believed one of the declared
// sizes (a 2 GiB chunk, 38 MB of presets, a 10 GB zip entry) would pass it.
constexpr long kMaxResidentMiB = 1024;

const spindle::test::Corpus& corpus() {
  static const spindle::test::Corpus instance;
  return instance;
}

bool holds(const std::vector<std::string>& messages, const std::string& text) {
  return std::any_of(messages.begin(), messages.end(),
                     [&](const std::string& m) { return m.find(text) != std::string::npos; });
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

// Every message of a load report, errors and warnings, as the app prints them.
std::vector<std::string> messages(const spindle::session::LoadReport& report, bool errorsOnly) {
  std::vector<std::string> out;
  for (const auto& d : report.diagnostics)
    if (!errorsOnly || d.severity == spindle::instrument::Diagnostic::Severity::Error)
      out.push_back(spindle::session::formatDiagnostic(d));
  if (errorsOnly) return out;
  for (const auto& m : report.missingFiles) out.push_back("missing sample " + m);
  for (const auto& e : report.sampleErrors) out.push_back(e.message);
  out.insert(out.end(), report.sampleWarnings.begin(), report.sampleWarnings.end());
  return out;
}

template <typename Load>
double secondsOf(Load&& load) {
  const auto start = std::chrono::steady_clock::now();
  load();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void checkInstrument(const Case& c) {
  const auto before = corpus().treeOutsideCache();
  const auto cacheBefore = corpus().cacheTree();
  spindle::session::Loader loader;
  spindle::session::Loader::Result result;
  CHECK(secondsOf([&] { result = loader.load(c.file); }) < kMaxSecondsPerFile);
  CHECK(corpus().treeOutsideCache() == before);
  const auto errors = messages(result.report, true);
  INFO("regions " << result.report.regions << "; messages:\n" << joined(messages(result.report, false)));
  if (c.expectsError()) {
    CHECK(result.program == nullptr);
    CHECK(corpus().cacheTree() == cacheBefore);  // a refused archive leaves nothing in the cache
    CHECK(holds(errors, c.file.filename().string()));
    CHECK(holds(messages(result.report, false), c.names));
    return;
  }
  REQUIRE(result.program != nullptr);
  CHECK(static_cast<long long>(result.program->regions.size()) == c.count());
  const auto all = messages(result.report, false);
  CHECK(all.empty() != c.expectsWarning());
  if (c.expectsWarning()) CHECK(holds(all, c.names));
}

void checkAudio(const Case& c) {
  spindle::stream::SamplePool pool;
  const spindle::SampleData* sample = nullptr;
  CHECK(secondsOf([&] { sample = pool.acquire(c.file.string()); }) < kMaxSecondsPerFile);
  std::vector<std::string> texts;
  for (const auto& m : pool.messages()) texts.push_back(m.text);
  INFO("frames " << (sample ? sample->totalFrames : -1) << "; messages:\n" << joined(texts));
  if (c.expectsError()) {
    CHECK(sample == nullptr);
    CHECK(holds(texts, c.file.string()));
    CHECK(holds(texts, c.names));
    return;
  }
  REQUIRE(sample != nullptr);
  CHECK(sample->totalFrames == c.count());
  CHECK(sample->framesInRam == c.count());
}

void checkMidi(const Case& c) {
  std::string error;
  std::size_t events = 0;
  std::vector<std::string> warnings;
  CHECK(secondsOf([&] {
          try {
            const spindle::io::MidiSong song = spindle::io::readMidiFile(c.file);
            events = song.events.size();
            warnings = song.warnings;
          } catch (const spindle::io::MidiFileError& e) {
            error = e.what();
          }
        }) < kMaxSecondsPerFile);
  INFO("events " << events << "; error: " << error << "; warnings:\n" << joined(warnings));
  if (c.expectsError()) {
    CHECK(error.find(c.file.string()) != std::string::npos);
    CHECK(error.find(c.names) != std::string::npos);
    return;
  }
  CHECK(error.empty());
  CHECK(static_cast<long long>(events) == c.count());
  CHECK(warnings.empty() != c.expectsWarning());
  if (c.expectsWarning()) CHECK(holds(warnings, c.names));
}

void checkAll(const std::string& kind, void (*check)(const Case&)) {
  REQUIRE(corpus().generated());
  const auto cases = corpus().cases(kind);
  REQUIRE(!cases.empty());
  for (const Case& c : cases) {
    INFO(c.file.string() << " expects " << c.expect << (c.names.empty() ? "" : " naming " + c.names));
    check(c);
  }
  CHECK(!fs::exists(corpus().root() / "escaped"));
  CHECK(spindle::test::peakResidentMiB() < kMaxResidentMiB);
}

}  // namespace

TEST_CASE("corpus: every damaged instrument file loads what it can or is refused, naming the file") {
  checkAll("instrument", checkInstrument);
}

TEST_CASE("corpus: every damaged audio file gives its frames or an error naming the file") {
  checkAll("audio", checkAudio);
}

TEST_CASE("corpus: every damaged MIDI file gives its events or an error naming the file") {
  checkAll("midi", checkMidi);
}

}  // namespace corpus_tests
