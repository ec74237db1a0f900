#pragma once
// The OSC addresses of the shared reverb and chorus, of the master stage and of the
// parts' sends: one address per setting (/spindle/reverb/room-size f,
// /spindle/master/gain f), a query per effect (/spindle/reverb, /spindle/chorus,
// /spindle/master), and per part its send levels (CC91, CC93).
// Part of OscApi's table (OscApi.h), which adds them after its own.
// Thread: the control thread.
#include <vector>

#include "control/OscApi.h"

namespace spindle::control {

std::vector<OscEntry> effectsApi();
std::vector<OscReplyDoc> effectsReplies();

}  // namespace spindle::control
