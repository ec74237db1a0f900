// session::Control, the one ControlTarget: loads (a new load into a part supersedes the
// one on its way, a cancel stops one between two sample files, the rows of a load name
// the region of a sample the budget left out), the change notices a view follows, and
// the MIDI input OSC and the window share.
#include <atomic>
#include <thread>

#include "SessionTestSupport.h"
#include "catch.h"

namespace control_tests {

using namespace spindle;
using Kind = control::LoadEvent::Kind;

TEST_CASE("a load into a part that is loading supersedes it: the first reports failed, the second plays",
          "[session]") {
  const auto dir = test::scratchDir("session-supersede");
  const auto first = test::writeLibrary(dir, "first.sfz", 3);
  const auto second = test::writeLibrary(dir, "second.sfz", 2);
  test::SessionRig rig;
  test::LoadRecorder recorder;
  recorder.hold();
  rig.control.load(1, 0, first.string(), recorder);
  REQUIRE(recorder.wait(1).size() == 1);  // the first load has started: the loader thread waits
  rig.control.load(2, 0, second.string(), recorder);
  CHECK(rig.control.loading(0));
  recorder.release();
  const std::vector<control::LoadEvent> events = recorder.wait(4);
  REQUIRE(events.size() == 4);
  CHECK((events[1].ticket == 1 && events[1].kind == Kind::Failed));
  CHECK(events[1].text == "cancelled: " + first.string());
  CHECK((events[2].ticket == 2 && events[2].kind == Kind::Progress));
  CHECK((events[3].ticket == 2 && events[3].kind == Kind::Done));
  CHECK(events[3].regions == 2);
  CHECK(!rig.control.loading(0));
  rig.cycle();
  const session::PartState part = rig.control.part(0);
  CHECK(part.name == "second");
  CHECK(rig.engine.stats().parts[0].program == part.program);
  CHECK(rig.control.sessionState().parts[0].instrument == second.string());
}

TEST_CASE("a cancelled load stops before its samples and the part keeps what it had", "[session]") {
  const auto dir = test::scratchDir("session-cancel");
  const auto sfz = test::writeLibrary(dir, "lib.sfz", 4);
  test::SessionRig rig;
  test::LoadRecorder recorder;
  recorder.hold();
  rig.control.load(7, 3, sfz.string(), recorder);
  REQUIRE(recorder.wait(1).size() == 1);
  rig.control.cancelLoad(3);
  recorder.release();
  const std::vector<control::LoadEvent> events = recorder.wait(2);
  REQUIRE(events.size() == 2);
  CHECK(events[1].kind == Kind::Failed);
  const session::LoadStatus status = rig.control.loadStatus(3);
  CHECK(!status.running);
  CHECK(status.filesTotal == 4);
  CHECK(status.filesDone == 0);  // seen before the first sample file
  CHECK(rig.control.part(3).name.empty());
  CHECK(rig.control.sessionState().parts[3].instrument.empty());
}

TEST_CASE("a load's problem rows name the region of a sample the memory budget left out", "[session]") {
  const auto dir = test::scratchDir("session-rows");
  // Three samples of 400 KB whole in RAM; the budget holds two.
  const auto sfz = test::writeLibrary(dir, "big.sfz", 3, 100000, "region_label=Low");
  test::SessionRig rig(stream::PoolOptions{-1, 0, 1u << 20});
  test::LoadRecorder recorder;
  rig.control.load(1, 5, sfz.string(), recorder);
  const std::vector<control::LoadEvent> events = recorder.wait(2);
  REQUIRE(events.size() == 2);
  CHECK(events[1].kind == Kind::Done);
  CHECK(events[1].missingSamples == 1);
  const session::PartState part = rig.control.part(5);
  REQUIRE(part.problems.size() == 1);
  const session::Problem& row = part.problems[0];
  CHECK(row.severity == session::Problem::Severity::Error);
  CHECK(row.file == sfz.string());
  CHECK(row.line == 3);
  CHECK(row.message.find((dir / "big.sfz-2.wav").string()) != std::string::npos);
  CHECK(row.message.find("memory budget") != std::string::npos);
  CHECK(row.message.ends_with("(region 'Low')"));
  REQUIRE(rig.problems.total() == 1);
  CHECK(rig.problems.since(0)[0].file == (dir / "big.sfz-2.wav").string());
  CHECK(part.missingSamples == 1);
  CHECK(part.regions == 3);
}

TEST_CASE("every change reaches the change listener, and the part's serial moves with it", "[session]") {
  test::SessionRig rig;
  std::atomic<int> heard{0};
  rig.control.setChangeListener([&] { ++heard; });
  const uint64_t before = rig.control.partSerial(2);
  bool accepted = false;
  std::thread control([&] {  // as the OSC server's control thread would
    accepted = rig.control.setPartVolume(2, -6.0f) && rig.control.setPartMute(2, true) &&
               rig.control.setEffect(EffectParam::ChorusVoices, 4.4f);
  });
  control.join();
  CHECK(accepted);
  CHECK(heard == 3);
  CHECK(rig.control.partSerial(2) == before + 2);
  CHECK(rig.control.part(2).settings.volumeDb == -6.0f);
  CHECK(rig.control.part(2).settings.mute);
  CHECK(rig.control.effects().get(EffectParam::ChorusVoices) == 4.0f);  // a whole number of voices
  rig.cycle();
  CHECK(rig.engine.stats().commandsDropped == 0);
  CHECK(rig.control.sessionState().parts[2].volumeDb == -6.0f);
}

TEST_CASE("OSC and the window share one MIDI input: events from two threads all arrive", "[session]") {
  test::SessionRig rig;
  std::atomic<int> accepted{0};
  const auto send = [&](uint8_t status) {
    for (int k = 0; k < 100; ++k) accepted += rig.control.sendMidiAt(status, 1, static_cast<uint8_t>(k), 0) ? 1 : 0;
  };
  std::thread osc(send, uint8_t{0xB0});
  std::thread window(send, uint8_t{0xB1});
  osc.join();
  window.join();
  CHECK(accepted == 200);
  std::vector<float> l(256), r(256);
  for (uint64_t frame = 0; frame < 4 * 256; frame += 256) {  // timestamped events play a period later
    rig.live.beginCycle(io::CycleStart{frame, 256, 0, 48000.0});
    rig.live.endCycle(l.data(), r.data());
  }
  CHECK(rig.live.stats().inputs[1 + 2].events == 200);
  CHECK(rig.live.stats().midiDropped == 0);
}

}  // namespace control_tests
