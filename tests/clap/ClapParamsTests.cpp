// The plugin's description as a host reads it (the factory's descriptor, its ports,
// its parameters), and the parameters at work: part 0's level automated, the health
// read back.
#include <cstring>

#include "ClapSong.h"
#include "catch.h"

namespace clap_params_tests {

using namespace spindle::test;

TEST_CASE("The factory describes Spindle: an instrument with one stereo output and one note input", "[clap]") {
  ClapHost host;
  REQUIRE(host.ok());
  CHECK(std::string(host.plugin().desc->id) == "spindle.sampler");
  bool instrument = false;
  for (const char* const* f = host.plugin().desc->features; *f; ++f) instrument |= std::strcmp(*f, "instrument") == 0;
  CHECK(instrument);
  const auto* audio = host.extension<clap_plugin_audio_ports_t>(CLAP_EXT_AUDIO_PORTS);
  REQUIRE(audio);
  CHECK(audio->count(&host.plugin(), true) == 0);
  REQUIRE(audio->count(&host.plugin(), false) == 1);
  clap_audio_port_info_t port{};
  REQUIRE(audio->get(&host.plugin(), 0, false, &port));
  CHECK(port.channel_count == 2);
  CHECK((port.flags & CLAP_AUDIO_PORT_IS_MAIN) != 0);
  const auto* notes = host.extension<clap_plugin_note_ports_t>(CLAP_EXT_NOTE_PORTS);
  REQUIRE(notes);
  REQUIRE(notes->count(&host.plugin(), true) == 2);
  CHECK(notes->count(&host.plugin(), false) == 0);
  clap_note_port_info_t input{};
  REQUIRE(notes->get(&host.plugin(), 0, true, &input));
  CHECK(input.id == 0);
  CHECK(input.supported_dialects == (CLAP_NOTE_DIALECT_CLAP | CLAP_NOTE_DIALECT_MIDI));
  CHECK(input.preferred_dialect == CLAP_NOTE_DIALECT_CLAP);
  clap_note_port_info_t mpe{};
  REQUIRE(notes->get(&host.plugin(), 1, true, &mpe));
  CHECK(mpe.id == 1);
  CHECK(mpe.supported_dialects == CLAP_NOTE_DIALECT_MIDI_MPE);
  CHECK(mpe.preferred_dialect == CLAP_NOTE_DIALECT_MIDI_MPE);
  CHECK(std::string(mpe.name) == "MPE");
  CHECK_FALSE(notes->get(&host.plugin(), 2, true, &mpe));
  const auto* latency = host.extension<clap_plugin_latency_t>(CLAP_EXT_LATENCY);
  REQUIRE(latency);
  CHECK(latency->get(&host.plugin()) == 0);
}

TEST_CASE("The parameters: the level automatable, the health read-only, the controls modulatable per note",
          "[clap]") {
  ClapHost host;
  REQUIRE(host.ok());
  const auto* params = host.extension<clap_plugin_params_t>(CLAP_EXT_PARAMS);
  REQUIRE(params);
  REQUIRE(params->count(&host.plugin()) == param::kCount);
  const char* names[] = {"Level (dB)", "Voices", "Underruns", "Note-on latency (ms)", "Cache fill (%)"};
  for (clap_id id = 0; id < param::kFirstControl; ++id) {
    clap_param_info_t info{};
    REQUIRE(params->get_info(&host.plugin(), id, &info));
    CHECK(info.id == id);
    CHECK(std::string(info.name) == names[id]);
    CHECK(((info.flags & CLAP_PARAM_IS_READONLY) != 0) == (id != param::kLevel));
    CHECK((info.flags & CLAP_PARAM_IS_MODULATABLE) == 0);  // the level and health: automation only
  }
  constexpr uint32_t kPerNote = CLAP_PARAM_IS_MODULATABLE | CLAP_PARAM_IS_MODULATABLE_PER_NOTE_ID |
                                CLAP_PARAM_IS_MODULATABLE_PER_KEY | CLAP_PARAM_IS_MODULATABLE_PER_CHANNEL;
  for (clap_id id = param::kFirstControl; id < param::kCount; ++id) {
    clap_param_info_t info{};
    REQUIRE(params->get_info(&host.plugin(), id, &info));
    CHECK((info.flags & kPerNote) == kPerNote);
    CHECK((info.flags & CLAP_PARAM_IS_MODULATABLE_PER_PORT) == 0);  // a port's MIDI notes are not CLAP notes
  }
  clap_param_info_t level{};
  REQUIRE(params->get_info(&host.plugin(), param::kLevel, &level));
  CHECK(level.min_value == -80.0);
  CHECK(level.max_value == 12.0);
  CHECK(level.default_value == 0.0);
}

TEST_CASE("A level set in process() is heard from the next blocks; voices show while notes sound", "[clap]") {
  const auto dir = clapScratch("params");
  const auto instrument = writeStreamedInstrument(dir);
  // Two instances play the same notes; one of them is set to -12 dB after 9 blocks.
  ClapHost host({48000.0, 256, true}), unchanged({48000.0, 256, true});
  for (ClapHost* h : {&host, &unchanged}) {
    REQUIRE(h->ok());
    REQUIRE(h->loadState(stateFor(instrument)));
    REQUIRE(h->activate());
    const uint8_t on[] = {0x90, 60, 100}, on2[] = {0x90, 67, 100};
    h->midi(0, on);
    h->midi(0, on2);
    for (int n = 0; n < 9; ++n) h->process(256);
  }
  double voices = -1.0;
  REQUIRE(host.paramValue(param::kVoices, voices));
  CHECK(voices == 2.0);
  host.param(0, param::kLevel, -12.0);
  double level = 0.0;
  for (int n = 0; n < 20; ++n) {  // the callback on the main thread posts it; its ramp ends
    host.process(256);
    unchanged.process(256);
  }
  REQUIRE(host.paramValue(param::kLevel, level));
  CHECK(level == -12.0);
  const double quiet = peak(std::vector<float>(host.left(), host.left() + 256), 0, 256);
  const double loud = peak(std::vector<float>(unchanged.left(), unchanged.left() + 256), 0, 256);
  REQUIRE(loud > 0.05);
  CHECK(quiet / loud == Approx(std::pow(10.0, -12.0 / 20.0)).epsilon(0.001));
  double underruns = -1.0, fill = -1.0;
  REQUIRE(host.paramValue(param::kUnderruns, underruns));
  REQUIRE(host.paramValue(param::kCacheFill, fill));
  CHECK(underruns == 0.0);
  CHECK(fill > 0.0);
  CHECK(fill <= 100.0);
}

TEST_CASE("The health's changes reach the host as param value events at the block's end", "[clap]") {
  const auto dir = clapScratch("health-events");
  ClapHost host({48000.0, 256, true});
  REQUIRE(host.ok());
  REQUIRE(host.loadState(stateFor(writeStepInstrument(dir))));
  REQUIRE(host.activate());
  const auto voiceEvents = [&] {
    std::vector<ClapHost::SentParam> voices;
    for (const ClapHost::SentParam& p : host.sentParams())
      if (p.id == param::kVoices) voices.push_back(p);
    return voices;
  };
  host.note(CLAP_EVENT_NOTE_ON, 10, 1, 0, 60, 1.0);
  host.note(CLAP_EVENT_NOTE_ON, 20, 2, 0, 64, 1.0);
  host.process(256);
  std::vector<ClapHost::SentParam> sent = voiceEvents();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].frame == 255);
  CHECK(sent[0].value == 2.0);
  host.process(256);
  CHECK(voiceEvents().empty());  // unchanged: nothing sent
  host.note(CLAP_EVENT_NOTE_OFF, 0, 1, 0, 60, 0.0);
  for (int n = 0; n < 4 && voiceEvents().empty(); ++n) host.process(256);
  sent = voiceEvents();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].value == 1.0);
}

TEST_CASE("The keys the library names are the plugin's note names", "[clap]") {
  const auto dir = clapScratch("note-names");
  const auto instrument = writeStreamedInstrument(dir);
  std::ofstream(dir / "named.sfz") << "<control> label_key36=Kick label_key38=Snare\n"
                                      "<region> sample=long.wav lokey=36 hikey=38 pitch_keycenter=36\n";
  ClapHost host;
  REQUIRE(host.ok());
  const auto* names = host.extension<clap_plugin_note_name_t>(CLAP_EXT_NOTE_NAME);
  REQUIRE(names);
  REQUIRE(host.loadState(stateFor(dir / "named.sfz")));
  REQUIRE(host.activate());
  REQUIRE(names->count(&host.plugin()) == 2);
  clap_note_name_t name{};
  REQUIRE(names->get(&host.plugin(), 1, &name));
  CHECK(std::string(name.name) == "Snare");
  CHECK(name.key == 38);
  CHECK(name.channel == -1);
  CHECK(name.port == -1);
  CHECK(host.noteNamesChanged() == 1);
  // A library that names none: no names, and the host is told (after the loader thread
  // loaded it and the main thread heard).
  REQUIRE(host.loadState(stateFor(instrument)));
  host.process(64);
  CHECK(names->count(&host.plugin()) == 0);
  CHECK(host.noteNamesChanged() == 2);
}

}  // namespace clap_params_tests
