// The real ARIA libraries of the fixtures (realworld/): every program loads with no
// "not supported" warning, renders non-silent audio, and reacts to each CC its label_cc
// lines name (turned 0 -> 127, the render must change).
//
// A program is a .sfz no other .sfz #includes (modules/*.sfz, alto_map_*.sfz are parts).
// The fixtures hold only some samples of each library (fixtures/README.md): a program
// none of whose samples is here is checked for loading only, and that is counted as a
// skip (Skip.h). Every labelled CC must change the render of a held note (1 s) or a short
// one (0.15 s, for release controls), except the few listed in kInert: controls that
// change nothing on this note in the library's default state, in sfizz_render too
// (measured by hand with both; each entry says why). A listed control must stay inert:
// one that becomes audible fails until its entry goes. The reference is not run here:
// its renders differ from run to run when its background loader is late (-18 dB seen on
// a loaded machine).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "Fixtures.h"
#include "RenderSupport.h"
#include "catch.h"
#include "core/MidiEvent.h"
#include "sfz/Parser.h"
#include "stream/TestAudioFiles.h"

namespace realworld_tests {

namespace instrument = spindle::instrument;
namespace sfz = spindle::sfz;
namespace fs = std::filesystem;
using spindle::test::renderSong;
using spindle::test::SongEvent;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr double kAudible = 1e-4;  // a difference 40 dB below the louder render

double decibels(double ratio) { return 10.0 * std::log10(std::max(ratio, 1e-30)); }

std::vector<fs::path> programs(const fs::path& root) {
  std::vector<fs::path> all;
  std::set<std::string> included;
  const std::regex include("#include\\s+\"([^\"]+)\"");
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".sfz") continue;
    all.push_back(entry.path());
    const std::string text = spindle::test::readText(entry.path());
    for (std::sregex_iterator it(text.begin(), text.end(), include), end; it != end; ++it)
      included.insert(fs::path((*it)[1].str()).filename().string());
  }
  std::vector<fs::path> out;
  for (const fs::path& p : all)
    if (!included.count(p.filename().string())) out.push_back(p);
  std::sort(out.begin(), out.end());
  return out;
}

struct Note {
  int key = 60, velocity = 100;
};

// A key and velocity that play a region whose sample is here (the fixtures hold only
// some of each library's samples): the key most such attack regions of the default
// keyswitch cover, at the middle velocity of the first of them.
bool sampleHere(const instrument::Instrument& inst, const spindle::Region& r) {
  const std::string& sample = inst.samples.at(static_cast<size_t>(r.sampleIndex));
  return std::find(inst.missingSamples.begin(), inst.missingSamples.end(), sample) == inst.missingSamples.end();
}

bool anySampleHere(const instrument::Instrument& inst) {
  return std::any_of(inst.regions.begin(), inst.regions.end(), [&](const auto& r) { return sampleHere(inst, r); });
}

Note playableNote(const instrument::Instrument& inst) {
  std::map<int, int> votes;
  std::map<int, int> velocity;
  for (const spindle::Region& r : inst.regions) {
    if (!sampleHere(inst, r) || r.trigger != spindle::Trigger::Attack || !r.ccConditions.empty()) continue;
    if (r.swLast >= 0 && r.swLast != inst.swDefault) continue;
    for (int k = r.lokey; k <= r.hikey; ++k) {
      ++votes[k];
      velocity.emplace(k, (r.lovel + r.hivel) / 2);
    }
  }
  Note best;
  int most = 0;
  for (const auto& [key, n] : votes)
    if (n > most) best = Note{key, velocity[key]}, most = n;
  return best;
}

// The CCs `up` set to 127 and `cc` to `value` at tick 0, then the note, held `length`
// ticks (960 = 1 s).
std::vector<SongEvent> song(Note note, int cc, int value, int length = 960, const std::vector<int>& up = {}) {
  std::vector<SongEvent> events;
  const auto key = static_cast<uint8_t>(note.key);
  for (const int other : up) events.push_back({0, {0xB0, static_cast<uint8_t>(other), 127}});
  if (cc >= 0) events.push_back({0, {0xB0, static_cast<uint8_t>(cc), static_cast<uint8_t>(value)}});
  events.push_back({48, {0x90, key, static_cast<uint8_t>(note.velocity)}});
  events.push_back({static_cast<uint32_t>(48 + length), {0x80, key, 0}});
  return events;
}

// The largest change turning `cc` from 0 to 127 makes to the render of a held and of a
// short note (relative energy of the difference, 0 = none), with the controls `up` at 127.
double ccChange(const fs::path& program, Note note, int cc, const fs::path& dir, const std::string& stem,
                const std::vector<int>& up = {}) {
  double most = 0.0;
  for (const int length : {960, 144}) {
    const std::string name = stem + "-" + std::to_string(length);
    const auto low = renderSong(kExe, program, song(note, cc, 0, length, up), dir, name + "-0");
    const auto high = renderSong(kExe, program, song(note, cc, 127, length, up), dir, name + "-127");
    REQUIRE(low.exitCode == 0);
    REQUIRE(high.exitCode == 0);
    most = std::max(most, spindle::test::relativeDifference(low, high));
    if (most > kAudible) break;
  }
  return most;
}

// Labelled controls that change nothing audible on the test's note in the default state of
// their program, in sfizz_render as in Spindle (measured by hand with both, held and short
// note).
struct Inert {
  std::string_view program;
  int cc;
  std::string_view why;
};
constexpr std::string_view kSustainHeld =
    "ampeg_sustain_oncc103=100 with set_cc103=127 holds the sustain at 100 %: hold and decay are inaudible";
constexpr std::string_view kNoPluck = "fileg_attackcc120/decaycc121 shape a filter EG whose depth is set_cc119=0";
constexpr std::string_view kPluckSpike =
    "fileg_depthcc119 opens the filter for the filter EG's 1 ms decay only (attack 0, decay 0.001, sustain 0): "
    "a change of -49 dB in Spindle's render, none in sfizz_render's";
constexpr std::string_view kResetCc =
    "CC121 is MIDI's reset all controllers: sfizz_render and Spindle reset every controller on it, this one "
    "too, so its value never reaches var01 or eq1_gain_oncc121 (sfizz_render: 0 and 127 render alike)";
constexpr Inert kInert[] = {
    {"Sax.sfz", 121, kResetCc},       {"Sax1.sfz", 121, kResetCc},
    {"Sax.sfz", 101, kSustainHeld},   {"Sax.sfz", 102, kSustainHeld},   {"Sax1.sfz", 101, kSustainHeld},
    {"Sax1.sfz", 102, kSustainHeld},  {"sxnth.sfz", 101, kSustainHeld}, {"sxnth.sfz", 102, kSustainHeld},
    {"sxnth.sfz", 119, kPluckSpike},  {"sxnth.sfz", 120, kNoPluck},     {"sxnth.sfz", 121, kNoPluck},
};

// The mode messages the engine acts on, as sfizz does: all sound off, reset all
// controllers, all notes off.
bool isChannelMode(int cc) {
  return cc == spindle::midi::kCcAllSoundOff || cc == spindle::midi::kCcResetControllers ||
         cc == spindle::midi::kCcAllNotesOff;
}

std::string_view inertBecause(const fs::path& program, int cc) {
  for (const Inert& i : kInert)
    if (program.filename() == i.program && cc == i.cc) return i.why;
  return {};
}

}  // namespace

TEST_CASE("realworld programs load with no unsupported opcode and render sound", "[app][realworld][fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "realworld");
  const auto list = programs(fixtures / "realworld");
  REQUIRE(list.size() >= 10);
  const auto dir = spindle::test::scratchDir("realworld-load");
  for (const fs::path& program : list) {
    INFO(program.string());
    const instrument::Instrument inst = sfz::loadFile(program);
    REQUIRE(inst.ok);
    CHECK_FALSE(inst.regions.empty());
    std::set<std::string> unsupported;
    for (const instrument::Diagnostic& d : inst.diagnostics) {
      if (d.message.find("is not supported") != std::string::npos || d.message.find("unknown opcode") != std::string::npos)
        unsupported.insert(d.message + " (" + fs::path(d.file).filename().string() + ":" + std::to_string(d.line) + ")");
      CHECK(d.message.find("included file not found") == std::string::npos);
    }
    std::string shown;
    for (const std::string& s : unsupported) shown += "\n  " + s;
    INFO("unsupported:" << shown);
    CHECK(unsupported.empty());
    if (!anySampleHere(inst)) {
      SPINDLE_COUNT_SKIP(program.filename().string() << ": none of its samples is in the fixtures; loading checked only");
      continue;
    }
    const auto r = renderSong(kExe, program, song(playableNote(inst), -1, 0), dir, program.stem().string());
    REQUIRE(r.exitCode == 0);
    CHECK(spindle::test::levelDb(r, 0, r.left.size()) > -60.0);
  }
}

TEST_CASE("realworld programs react to every CC their label_cc lines name", "[app][realworld][fixtures][fidelity]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "realworld");
  const auto dir = spindle::test::scratchDir("realworld-cc");
  for (const fs::path& program : programs(fixtures / "realworld")) {
    const instrument::Instrument inst = sfz::loadFile(program);
    if (!anySampleHere(inst)) continue;  // said by the test above
    const Note note = playableNote(inst);
    for (const auto& label : inst.controllerLabels) {
      const std::string what = program.filename().string() + " CC" + std::to_string(label.cc) + " '" + label.label + "'";
      const std::string stem = program.stem().string() + "-cc" + std::to_string(label.cc);
      double change = ccChange(program, note, label.cc, dir, stem);
      // A rate, delay or fade is heard only once what it shapes is there: again with
      // every other labelled control of the program at 127 (a depth among them), but
      // for MIDI's channel mode messages, which act on the others (CC121 resets them).
      std::vector<int> others;
      for (const auto& other : inst.controllerLabels)
        if (other.cc != label.cc && other.cc < 128 && !isChannelMode(other.cc)) others.push_back(other.cc);
      if (change <= kAudible) change = ccChange(program, note, label.cc, dir, stem + "-others", others);
      INFO(what << ": key " << note.key << " velocity " << note.velocity << ", difference " << decibels(change) << " dB");
      const std::string_view inert = inertBecause(program, label.cc);
      INFO("listed as inert: " << (inert.empty() ? "no" : inert));
      if (inert.empty()) CHECK(change > kAudible);  // the renders differ by more than -40 dB
      else CHECK(change <= kAudible);               // as listed: inert on this note
    }
  }
}

}  // namespace realworld_tests
