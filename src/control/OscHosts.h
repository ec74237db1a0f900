#pragma once
// The OSC addresses of a master's remote Spindles (HostControl.h): /spindle/host/list,
// /spindle/host/status, /spindle/host/parts read them; /spindle/host/load,
// /spindle/host/part/volume and /spindle/host/part/cc drive a remote part. Part of
// OscApi's table (OscApi.h), which adds them after its own.
// Thread: the control thread.
#include <vector>

#include "control/OscApi.h"

namespace spindle::control {

std::vector<OscEntry> hostsApi();
std::vector<OscReplyDoc> hostsReplies();

}  // namespace spindle::control
