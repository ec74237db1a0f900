#pragma once
// The settings of one GUI run: the saved ones (Settings.h) with the command line
// (GuiLaunch) over them, and what the backend and the streams take from them.
//
// Thread: gui thread.
#include "gui/GuiSession.h"
#include "gui/Settings.h"
#include "io/Connections.h"
#include "stream/Streaming.h"

namespace spindle::gui {

// `saved`, with every setting the command line gives for this run in its place.
AppSettings effectiveSettings(const AppSettings& saved, const app::GuiLaunch& launch);
// What Spindle connects by itself: the settings' choices, the command line's --midi-from.
io::ConnectionPolicy connectionPolicy(const AppSettings& s, const app::GuiLaunch& launch);
stream::StreamingOptions streamingOptions(const AppSettings& s);

}  // namespace spindle::gui
