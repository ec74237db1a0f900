#pragma once
// The modes of spindle-live-probe (LiveProbe.cpp lists them and their options), and the
// command-line and waiting helpers they share.
//
//   LiveProbe.cpp        main, the helpers, run (the note-latency probe)
//   ProbeKeyboards.cpp   chord, keyboard
//   ProbeInstrument.cpp  instrument
//   ProbeClock.cpp       clock
//   ProbeNet.cpp         net (notes to NetJACK2 hosts, per-host latency)
//   ProbeBend.cpp        bend (MPE per-note bends, each timed on the output)
#include <filesystem>
#include <functional>
#include <string>

namespace spindle::live {

// Notes one probe run sends at most, and the process cycles it lets pass before the first.
constexpr int kMaxNotes = 4096;
constexpr int kWarmupCycles = 40;

// The value after `name` among argv[2..], else `fallback`.
std::string option(int argc, char** argv, const std::string& name, const std::string& fallback);
// Polls `done` every 10 ms for up to `seconds`; whether it came true.
bool waitFor(const std::function<bool()>& done, double seconds);

int runProbe(int argc, char** argv);
int chord(int argc, char** argv);
int keyboard(int argc, char** argv);
int clock(int argc, char** argv);
int netProbe(int argc, char** argv);
int bendProbe(int argc, char** argv);
int writeInstrument(const std::filesystem::path& dir);

}  // namespace spindle::live
