#include "dspreset/MusicalTime.h"

#include <algorithm>

namespace spindle::dspreset {

double musicalTimeBeats(int index) {
  constexpr int kStraight = 18;  // six note values, three forms each
  const int i = std::clamp(index, 0, kStraight + 2);
  if (i >= kStraight) return 4.0 * (i - kStraight + 2);  // 2, 3, 4 bars
  const double note = 0.125 * static_cast<double>(1 << (i / 3));  // 1/32 = 1/8 beat
  constexpr double kForm[3] = {2.0 / 3.0, 1.0, 1.5};
  return note * kForm[i % 3];
}

}  // namespace spindle::dspreset
