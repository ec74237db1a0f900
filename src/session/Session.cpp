#include "session/Session.h"

#include "control/NsmClient.h"
#include "session/ServerChoice.h"

namespace spindle::session {

namespace {
constexpr int kMaxBlockFrames = 1024;  // the engine's block: longer server periods are cut
}  // namespace

Session::Session(SessionOptions options)
    : options_(std::move(options)), library_(stream::poolOptionsFor(options_.streaming)) {}

Session::~Session() { stop(); }

bool Session::loadInstrument(const std::string& path, const std::string& savedAs, LoadReport& report) {
  instrument_ = library_.load(path);
  instrumentPath_ = savedAs;
  report = instrument_->report;
  for (const SampleError& error : report.sampleErrors) problems_.add(control::ProblemKind::Load, error.file, error.message);
  return instrument_->program != nullptr;
}

bool Session::connect(const std::function<bool(const std::string& error)>& retry) {
  backend_ = connectToServer(options_.server, options_.backend, retry);
  return backend_ != nullptr;
}

void Session::startEngine() {
  engine::EngineConfig config;
  config.sampleRate = backend_->sampleRate();
  config.maxBlockFrames = kMaxBlockFrames;
  streaming_ = std::make_unique<stream::Streaming>(options_.streaming, options_.polyphony);
  config.streams = streaming_->bank();
  config.polyphony = options_.polyphony;
  config.quality = static_cast<engine::Quality>(options_.quality);
  config.effects = engine::effectsSettings(options_.effects);
  engine_ = std::make_unique<engine::Engine>(config);
  live_ = std::make_unique<io::LiveProcessor>(*engine_);
  library_.setOutputRate(config.sampleRate);  // convolution responses of the loads from now on
  control_ = std::make_unique<Control>(*engine_, *live_, kControlMidiInput, library_, problems_, options_.effects);
  control_->attach(backend_.get(), inputs());
  control_->setStreaming(streaming_.get());
  control_->setHosts(&hosts_);
}

// The MIDI inputs /spindle/connections reports, in the LiveProcessor's order after the
// server's port (whose activity is input 0).
std::vector<Connections::Input> Session::inputs() const {
  std::vector<Connections::Input> list{{0, "midi_in"}, {1 + kControlMidiInput, options_.controlInputName}};
  if (!options_.midiDevice.empty()) list.push_back({1 + kDeviceMidiInput, "device"});
  if (options_.alsaSeq) list.push_back({1 + kAlsaSeqMidiInput, "alsa_seq"});
  return list;
}

bool Session::applyTunings(std::string& error) {
  if (options_.scale.empty() && options_.keymap.empty()) return true;
  for (int part = 0; part < control::kParts; ++part) {
    if (control_->setPartTuning(part, options_.scale, options_.keymap, error)) continue;
    if (error.empty()) error = "the engine refused the tuning";
    return false;
  }
  return true;
}

// Everything the engine plays from its first cycle reaches it before the server starts it.
bool Session::start(std::string& error) {
  startEngine();
  if (instrument_ && instrument_->program) control_->playEverywhere(std::move(*instrument_), instrumentPath_);
  instrument_.reset();
  if (options_.tempo && !control_->setTempo(*options_.tempo)) {
    error = "the engine refused the tempo";
    return false;
  }
  if ((options_.mpeLower > 0 && !control_->setMpeZone(false, options_.mpeLower)) ||
      (options_.mpeUpper > 0 && !control_->setMpeZone(true, options_.mpeUpper))) {
    error = "the engine refused the MPE zones";
    return false;
  }
  if (!applyTunings(error)) return false;
  control_->pump();
  backend_->setConnectionPolicy(options_.connections);  // before start: its first scan obeys it
  return backend_->start(*live_, error);
}

bool Session::startHosts(const control::Bytes& secret, const std::string& identity,
                         const std::vector<control::HostSettings>& hosts, std::vector<std::string>& errors) {
  hosts_.setSigning(secret, identity);
  hosts_.setSampleRate(backend_->sampleRate());
  for (const control::HostSettings& host : hosts) {
    std::string error;
    if (!hosts_.add(host, error)) errors.push_back("--host " + host.name + ": " + error);
  }
  return errors.empty();
}

bool Session::startOsc(control::OscServerOptions options, control::NsmClient* nsm, std::string& error) {
  osc_ = std::make_unique<control::OscServer>(*control_, std::move(options));
  if (nsm) osc_->attachNsm(*nsm);
  if (osc_->start(error)) return true;
  osc_.reset();
  return false;
}

std::vector<std::string> Session::startMidi() {
  std::vector<std::string> warnings;
  std::string error;
  if (!options_.midiDevice.empty()) {
    midiDevice_ = std::make_unique<io::MidiInputThread>(*live_, kDeviceMidiInput);
    midiDeviceOpen_ = midiDevice_->start(options_.midiDevice, error);
    if (!midiDeviceOpen_) warnings.push_back("MIDI device " + error);
  }
  if (options_.alsaSeq) {
    alsaSeq_ = std::make_unique<io::AlsaSeqInput>(*live_, kAlsaSeqMidiInput);
    const io::ConnectionPolicy policy = backend_->connectionPolicy();
    alsaSeq_->setFollow(policy.midi, policy.midiFrom);
    alsaSeqOpen_ = alsaSeq_->start(options_.backend.clientName, error);
    if (!alsaSeqOpen_) warnings.push_back(error);
  }
  return warnings;
}

ServerEvent Session::superviseServer(bool reconnect) {
  if (!lost_) {
    if (!backend_->lost()) return ServerEvent::None;
    lost_ = true;
    problems_.add(control::ProblemKind::Server, "",
                  std::string("the ") + backend_->kind() + " server went away; reconnecting");
    backend_->disconnect();
    live_->setConnected(false);
    // The note-offs of keys released while the server is away never arrive (its MIDI
    // ports are gone): no voice may hang after the reconnect. The engine's FIFO holds
    // the command until the first cycle on the new connection.
    if (!control_->panic())
      problems_.add(control::ProblemKind::Server, "", "could not silence the voices (command queue full)");
    return ServerEvent::Lost;
  }
  std::string error;
  if (!reconnect || !backend_->connect(error)) return ServerEvent::None;
  if (!backend_->start(*live_, error)) {
    backend_->disconnect();
    return ServerEvent::None;
  }
  lost_ = false;
  live_->countReconnect();
  return ServerEvent::Reconnected;
}

// Once: a door stops the session, then its destructor would again.
void Session::stop() {
  if (stopped_) return;
  stopped_ = true;
  if (osc_) osc_->stop();
  if (control_) control_->stopLoads();
  if (midiDevice_) midiDevice_->stop();
  if (alsaSeq_) alsaSeq_->stop();
  if (backend_) backend_->disconnect();  // the audio thread has stopped for good after this
  if (!control_) return;
  control_->pump();  // the last disk errors into the problem log
  control_->takeBackAll();
}

}  // namespace spindle::session
