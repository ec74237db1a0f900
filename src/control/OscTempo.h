#pragma once
// The OSC addresses of the engine's tempo: /spindle/tempo f sets the tempo (the set
// tempo, engine/Tempo.h: the JACK transport and MIDI clocks outrank it) and
// /spindle/tempo/get replies /spindle/tempo with the tempo playing and its source.
// Part of OscApi's table (OscApi.h), which adds them after its own.
// Thread: the control thread.
#include <vector>

#include "control/OscApi.h"

namespace spindle::control {

std::vector<OscEntry> tempoApi();
std::vector<OscReplyDoc> tempoReplies();

}  // namespace spindle::control
