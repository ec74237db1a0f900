// The disk failing under a playing engine: reads failing with EIO, a sample file
// deleted, a sample file truncated. Each: no crash, the failed voices end, the disk
// thread's error names the file, and once every key is released no voice and no
// stream slot is left (no hung note). Slow reads: tests/stream_audio ("a slow disk").
#include <filesystem>
#include <set>
#include <string>

#include "FaultRig.h"

namespace disk_fault_tests {

using spindle::test::FaultRig;
using spindle::test::off;
using spindle::test::on;

namespace {

bool mentions(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

void checkNothingHangs(FaultRig& rig) {
  rig.releaseAll();
  CHECK(rig.engine().stats().activeVoices == 0);
  CHECK(rig.bank().slotsInUse() == 0);
}

}  // namespace

TEST_CASE("reads failing with EIO mid-note: the voices end and the error names each file", "[faults]") {
  FaultRig rig("fault-eio");
  CHECK(rig.play({on(0, 60), on(0, 62)}, 20) > 0.01f);  // 5120 frames: past the preload, streaming
  REQUIRE(rig.engine().stats().activeVoices == 2);
  REQUIRE(rig.disk().counters().failures.load() == 0);

  rig.failReads.store(true);
  rig.play({}, 200);  // 51200 more frames: far beyond what the rings held
  CHECK(rig.disk().counters().failures.load() == 2);
  CHECK(rig.engine().stats().sourceUnderruns > 0);
  CHECK(rig.engine().stats().activeVoices == 0);  // ended although their keys are still down
  std::set<std::string> files;  // DiskError::file: what the problem log and OSC name
  std::string errors;
  for (const spindle::stream::DiskError& e : rig.diskErrors()) {
    files.insert(e.file);
    errors += e.message + "\n";
  }
  CHECK(files == std::set<std::string>{rig.path("a.wav"), rig.path("b.wav")});
  CHECK(mentions(errors, "cannot read sample file " + rig.path("a.wav")));
  CHECK(mentions(errors, "cannot read sample file " + rig.path("b.wav")));
  CHECK(mentions(errors, "Input/output error"));

  rig.failReads.store(false);  // the disk recovers: a new note streams again
  const uint64_t failures = rig.disk().counters().failures.load();
  CHECK(rig.play({on(0, 64)}, 40) > 0.01f);
  CHECK(rig.engine().stats().activeVoices == 1);
  CHECK(rig.disk().counters().failures.load() == failures);
  checkNothingHangs(rig);
}

TEST_CASE("a sample file deleted during playback: the playing note goes on, a new one reports it", "[faults]") {
  FaultRig rig("fault-deleted", /*cacheLimit=*/0);
  CHECK(rig.play({on(0, 60)}, 20) > 0.01f);
  std::filesystem::remove(rig.path("a.wav"));
  // The open descriptor keeps the deleted file readable: the note plays to its end.
  CHECK(rig.play({}, 100) > 0.01f);
  CHECK(rig.disk().counters().failures.load() == 0);
  checkNothingHangs(rig);

  // A new note: its preload is in RAM and sounds; its stream cannot open the file.
  CHECK(rig.play({on(0, 60)}, 40) > 0.01f);
  CHECK(rig.disk().counters().failures.load() == 1);
  CHECK(rig.engine().stats().activeVoices == 0);  // ended after the preload, key still down
  const std::string errors = rig.errors();
  CHECK(mentions(errors, "cannot open sample file " + rig.path("a.wav") + " for streaming"));
  CHECK(rig.play({on(0, 62)}, 40) > 0.01f);  // other files are unaffected
  CHECK(rig.engine().stats().activeVoices == 1);
  checkNothingHangs(rig);
}

TEST_CASE("a sample file truncated during playback: the voice ends where the data does", "[faults]") {
  FaultRig rig("fault-truncated");
  CHECK(rig.play({on(0, 60), on(0, 62)}, 10) > 0.01f);
  // Cut a.wav to its 44-byte header and 20000 frames; its header still says 96000.
  std::filesystem::resize_file(rig.path("a.wav"), 44 + 2 * 20000);
  rig.play({}, 200);
  CHECK(rig.disk().counters().failures.load() == 1);
  CHECK(rig.engine().stats().activeVoices == 1);  // b.wav plays on
  const std::string errors = rig.errors();
  INFO(errors);
  // At the first frame the disk thread had not read ahead before the cut.
  CHECK(mentions(errors, "cannot read sample file " + rig.path("a.wav") + " at frame "));
  CHECK(mentions(errors, "the file ended early"));
  CHECK_FALSE(mentions(errors, rig.path("b.wav")));
  checkNothingHangs(rig);
}

}  // namespace disk_fault_tests
