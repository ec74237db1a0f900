#pragma once
// The OSC addresses of a part's instrument effects (core/PartEffects.h): the list
// (/spindle/part/effects i) and the player's bypass of one of them
// (/spindle/part/effect/bypass i i i). Effects are numbered from 1 on the wire, in the
// instrument's file order, as parts are. Part of OscApi's table (OscApi.h).
// Thread: the control thread.
#include <vector>

#include "control/OscApi.h"

namespace spindle::control {

std::vector<OscEntry> partEffectsApi();
std::vector<OscReplyDoc> partEffectsReplies();

}  // namespace spindle::control
