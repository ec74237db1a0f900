#include "app/ConnectionLog.h"

namespace spindle::app {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text.empty() ? "none" : text;
}

}  // namespace

void ConnectionLog::tick(bool settled) {
  for (const std::string& message : backend_.takeConnectionMessages()) out_ << "spindle: " << message << std::endl;
  if (!settled) return;
  const io::ConnectionReport report = backend_.connections();
  if (report.server.empty() || report.hint() == hintLogged_) return;
  hintLogged_ = report.hint();
  out_ << line() << std::flush;
}

std::string ConnectionLog::line() const {
  const io::ConnectionReport report = backend_.connections();
  std::vector<std::string> midi;
  for (const io::MidiSource& source : report.midiSources)
    if (source.connected) midi.push_back(source.name);
  const std::string hint = report.hint();
  return "connections:       MIDI in: " + joined(midi) + "; audio out: " + joined(report.audioPeers) +
         (hint.empty() ? "" : " (" + hint + ")") + "\n";
}

}  // namespace spindle::app
