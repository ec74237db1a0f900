// fuzz_osc: one OSC packet (message or bundle) through the same path the OSC server
// takes: liblo's deserialisation (OscDispatcher) into Spindle's dispatch table
// (ControlCore::handle: OscApi lookup, argument checks, handlers, replies), then the
// control thread's tick (load events, subscription pushes).
//
// The ControlTarget records calls (tests/control/RecordingTarget.h). Session files are
// real: /spindle/session/save and /load have their file argument pointed into a
// scratch folder, so the session reader parses what an earlier input wrote there.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "RecordingTarget.h"
#include "ScratchDir.h"
#include "control/ControlCore.h"
#include "control/OscDispatcher.h"
#include "control/OscServer.h"

namespace {

using namespace spindle;

// Serialises every reply, as the server would before sending it.
class SerialisingSink final : public control::ReplySink {
 public:
  void send(const control::Peer&, const control::OscMessage& message) override {
    if (control::serialise(message).size() % 4 != 0) __builtin_trap();
  }
};

control::OscDispatcher& dispatcher() {
  static control::OscDispatcher* instance = [] {
    auto* d = new control::OscDispatcher;
    std::string error;
    if (!d->create(error)) std::abort();
    return d;
  }();
  return *instance;
}

control::OscMessage confine(control::OscMessage message) {
  if (message.path.rfind("/spindle/session/", 0) == 0 && !message.args.empty() && message.args[0].isString())
    message.args[0].text = (fuzz::scratch().path() / "session.spindle").string();
  return message;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size > control::kMaxPacket) return -1;
  test::RecordingTarget target;
  SerialisingSink sink;
  control::ControlCore core(target, sink);
  const control::Peer from = test::loopbackPeer();
  std::vector<uint8_t> packet(data, data + size);
  std::string error;
  const auto handle = [&](const control::OscMessage& m) { core.handle(from, confine(m)); };
  if (!dispatcher().dispatch(packet.data(), packet.size(), handle, error)) core.reportMalformed(from, error);
  const auto now = control::ControlCore::Clock::now();
  core.tick(now);
  core.tick(now + std::chrono::seconds(1));
  return 0;
}
