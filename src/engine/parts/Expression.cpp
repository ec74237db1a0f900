#include "engine/parts/Expression.h"

#include <algorithm>
#include <cmath>

namespace spindle::engine {

// RP-053: the two zones never share a channel; the message that makes them meet wins
// and the other zone keeps what is left (a lower zone of 15 leaves the upper none). A
// zone switched off leaves the other as it is (a lower zone of 15 stays 15).
void MpeLayout::configure(bool upper, int members) noexcept SPINDLE_REALTIME {
  members = std::clamp(members, 0, kChannels - 1);
  int& own = upper ? upper_ : lower_;
  int& other = upper ? lower_ : upper_;
  own = members;
  if (members > 0) other = std::max(0, std::min(other, kChannels - 2 - members));  // none: the other keeps its own
  (upper ? upperRange_ : lowerRange_) = kMemberRange;
}

int MpeLayout::masterOf(int channel) const noexcept SPINDLE_REALTIME {
  if (lower_ > 0 && channel >= 1 && channel <= lower_) return 0;
  if (upper_ > 0 && channel >= kChannels - 1 - upper_ && channel <= kChannels - 2) return kChannels - 1;
  return -1;
}

void NoteExpression::follow(const mod::ControllerState& zone) noexcept SPINDLE_REALTIME {
  std::array<float, kOwnLast - kOwnFirst + 1> own{};
  for (int n = kOwnFirst; n <= kOwnLast; ++n) own[static_cast<size_t>(n - kOwnFirst)] = controllers.value(n);
  const float timbre = unmodulated(kTimbreCc);
  const float modWheel = unmodulated(1), expression = unmodulated(11);
  controllers = zone;
  for (int n = kOwnFirst; n <= kOwnLast; ++n) controllers.set(n, own[static_cast<size_t>(n - kOwnFirst)]);
  controllers.set(kTimbreCc, timbre);
  if (ownsModWheel) controllers.set(1, modWheel);
  if (ownsExpression) controllers.set(11, expression);
  applyOffsets();
}

void NoteExpression::applyOffsets() noexcept SPINDLE_REALTIME {
  for (size_t c = 0; c < ccOffset.size(); ++c) {
    if (ccOffset[c] == 0.0f) continue;
    ccBase[c] = controllers.value(static_cast<int>(c));
    controllers.set(static_cast<int>(c), ccBase[c] + ccOffset[c]);
  }
}

void NoteExpression::modulate(int cc, float offset) noexcept SPINDLE_REALTIME {
  if (cc < 0 || cc >= static_cast<int>(ccOffset.size())) return;
  const auto c = static_cast<size_t>(cc);
  const float base = unmodulated(cc);
  ccOffset[c] = std::isfinite(offset) ? std::clamp(offset, -1.0f, 1.0f) : 0.0f;
  ccBase[c] = base;
  controllers.set(cc, base + ccOffset[c]);
}

void NoteExpression::setOwn(int cc, float value) noexcept SPINDLE_REALTIME {
  if (cc < 0 || cc >= static_cast<int>(ccOffset.size())) return;
  const auto c = static_cast<size_t>(cc);
  ccBase[c] = std::clamp(value, 0.0f, 1.0f);
  controllers.set(cc, ccBase[c] + ccOffset[c]);
}

void NoteExpression::takeNoteSlots(const mod::ControllerState& zone) noexcept SPINDLE_REALTIME {
  for (int n = controllers::kPolyAftertouch; n <= kOwnLast; ++n) controllers.set(n, zone.value(n));
}

void NoteExpression::setBend(int value) noexcept SPINDLE_REALTIME {
  bend = std::clamp(value, -8192, 8191);
  const float unit = static_cast<float>(bend) / (bend < 0 ? 8192.0f : 8191.0f);
  controllers.set(controllers::kPitchBend, 0.5f + 0.5f * unit);
}

// The timbre starts at the centre (64), as MPE controllers send it before a gesture moves it.
void NoteExpression::reset(const mod::ControllerState& zone) noexcept SPINDLE_REALTIME {
  controllers = zone;
  setBend(0);
  controllers.set(controllers::kChannelAftertouch, 0.0f);
  controllers.setMidi7(kTimbreCc, 64);
  rpn = 0x3FFF;
  keysDown.fill(false);
  ccOffset.fill(0.0f);
}

void NoteExpression::claim(int partIndex, const mod::ControllerState& partControllers, int key, bool down) noexcept
    SPINDLE_REALTIME {
  controllers = partControllers;
  bend = 0;  // the part's bend goes on in the note's pitch (PartMix::bend); controller 128 keeps the part's
  keysDown.fill(false);
  keysDown[static_cast<size_t>(key & 0x7F)] = down;
  part = partIndex;
  gain = 1.0f;
  pan = 0.0f;
  ownsModWheel = ownsExpression = false;
  ccOffset.fill(0.0f);
}

}  // namespace spindle::engine
