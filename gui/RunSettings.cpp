#include "gui/RunSettings.h"

namespace spindle::gui {

AppSettings effectiveSettings(const AppSettings& saved, const app::GuiLaunch& launch) {
  AppSettings s = saved;
  if (launch.backend) s.backend = QString::fromStdString(*launch.backend);
  if (launch.clientName) s.clientName = QString::fromStdString(*launch.clientName);
  if (launch.polyphony) s.polyphony = *launch.polyphony;
  if (launch.quality) s.quality = *launch.quality;
  if (launch.oscPort) s.oscPort = *launch.oscPort;
  if (launch.oscBind) s.oscBind = QString::fromStdString(*launch.oscBind);
  if (launch.oscSecretFile) s.oscSecretFile = QString::fromStdString(*launch.oscSecretFile);
  if (launch.oscInsecure) s.oscInsecure = *launch.oscInsecure;
  if (launch.oscRequireSigned) s.oscRequireSigned = *launch.oscRequireSigned;
  if (launch.connectAudio) s.connectAudio = *launch.connectAudio;
  if (launch.connectMidi) s.connectMidi = *launch.connectMidi;
  return s;
}

io::ConnectionPolicy connectionPolicy(const AppSettings& s, const app::GuiLaunch& launch) {
  io::ConnectionPolicy policy;
  policy.audio = s.connectAudio;
  policy.midi = s.connectMidi;
  policy.midiFrom = launch.midiFrom;
  return policy;
}

stream::StreamingOptions streamingOptions(const AppSettings& s) { return stream::liveStreamingOptions(s.preloadFrames); }

}  // namespace spindle::gui
