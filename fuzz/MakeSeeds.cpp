// fuzz_make_seeds OSC_DIR MIDI_FILE_DIR MIDI_BYTES_DIR OSC_GATE_DIR: writes seed inputs
// the fixtures do not hold. OSC: one valid message per OscApi entry (arguments at the
// low end, the high end and just outside the range) and a bundle of several. MIDI files
// and raw MIDI: built with the tests' SmfBuilder (tests/io/SmfBuilder.h). The OSC gate:
// sequences of real signed packets (GateInput.h).
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "GateInput.h"
#include "SmfBuilder.h"
#include "control/OscApi.h"
#include "control/OscMessage.h"

namespace {

using namespace spindle;
namespace fs = std::filesystem;

control::OscMessage messageFor(const control::OscEntry& entry, double where) {
  control::OscMessage m{entry.path, {}};
  for (const control::ArgSpec& a : entry.args) {
    const double v = a.low + where * (a.high - a.low);
    if (a.type == 's') m.args.push_back(control::OscValue::s("/tmp/none.sfz"));
    else if (a.type == 'f') m.args.push_back(control::OscValue::f(v));
    else m.args.push_back(control::OscValue::i(static_cast<int64_t>(v)));
  }
  return m;
}

// A bundle (immediate timetag) of the given messages.
std::vector<uint8_t> bundleOf(const std::vector<control::OscMessage>& messages) {
  std::vector<uint8_t> out{'#', 'b', 'u', 'n', 'd', 'l', 'e', 0, 0, 0, 0, 0, 0, 0, 0, 1};
  for (const auto& m : messages) {
    const auto bytes = control::serialise(m);
    test::appendBe(out, static_cast<uint32_t>(bytes.size()), 4);
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  return out;
}

void writeOsc(const fs::path& dir) {
  int n = 0;
  std::vector<control::OscMessage> some;
  for (const control::OscEntry& entry : control::oscApi()) {
    for (double where : {0.0, 0.5, 1.0, 1.5}) {
      const auto m = messageFor(entry, where);
      test::saveBytes(dir / ("osc" + std::to_string(n++)), control::serialise(m));
      if (where == 0.5 && some.size() < 6) some.push_back(m);
    }
  }
  test::saveBytes(dir / "bundle", bundleOf(some));
}

// Each seed: packets signed as a master would, in one sequence (GateInput.h).
void writeGate(const fs::path& dir) {
  const control::OscMessage volume{"/spindle/part/volume", {control::OscValue::i(1), control::OscValue::f(-6.0)}};
  const auto sign = [&](const std::string& receiver, int64_t counter) {
    return control::signMessage(fuzz::kGateSecret, {"master", receiver}, static_cast<uint64_t>(counter), volume);
  };
  const auto save = [&](const std::string& name, const std::vector<control::Bytes>& packets) {
    std::vector<uint8_t> input;
    for (const auto& p : packets) fuzz::appendFramed(input, p);
    test::saveBytes(dir / name, input);
  };
  const int64_t now = fuzz::kGateNow;
  save("verified", {sign(fuzz::kGateHere, now)});
  save("replayed", {sign(fuzz::kGateHere, now), sign(fuzz::kGateHere, now)});
  save("misaddressed", {sign("10.77.0.3:9951", now), sign(fuzz::kGateHere, now + 1)});
  save("identity", {sign(fuzz::kGateIdentity, now)});
  save("stale", {sign(fuzz::kGateHere, now - 31'000'000), sign(fuzz::kGateHere, now + 31'000'000)});
  save("unsigned", {control::serialise(volume)});
}

void writeMidiFiles(const fs::path& dir) {
  test::TrackBuilder tempo, notes;
  tempo.tempo(0, 500000).tempo(960, 400000).end();
  notes.event(0, {0x90, 60, 100}).event(240, {64, 90}).event(240, {0x80, 60, 0})
      .event(0, {0xF0, 0x03, 0x7E, 0x7F, 0xF7}).event(10, {0xB0, 64, 127}).event(10, {0xE0, 0, 64}).end(100);
  test::saveBytes(dir / "format1.mid", test::buildSmf(1, 480, {tempo, notes}));
  test::saveBytes(dir / "format0.mid", test::buildSmf(0, 96, {notes}));
  test::saveBytes(dir / "smpte.mid", test::buildSmf(0, 0xE728, {notes}));  // -25 fps, 40 ticks
}

void writeMidiBytes(const fs::path& dir) {
  test::saveBytes(dir / "running", {0x90, 60, 100, 62, 100, 0xF8, 64, 100, 0x80, 60, 0});
  test::saveBytes(dir / "sysex", {0xF0, 1, 2, 0xFE, 3, 0xF7, 0xB0, 7, 100, 0xF2, 1, 2, 5, 0xC3, 9});
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s OSC_DIR MIDI_FILE_DIR MIDI_BYTES_DIR OSC_GATE_DIR\n", argv[0]);
    return 2;
  }
  for (int i = 1; i < 5; ++i) fs::create_directories(argv[i]);
  writeOsc(argv[1]);
  writeMidiFiles(argv[2]);
  writeMidiBytes(argv[3]);
  writeGate(argv[4]);
  return 0;
}
