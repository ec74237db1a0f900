#pragma once
// What fuzz_osc_gate's inputs mean, shared with fuzz_make_seeds, which writes real signed
// packets in this form: a sequence of packets, each a 2-byte big-endian length and its
// bytes, admitted in turn by one OscGate (the secret and identity below) from a peer at
// 10.77.0.2 that reached this server at 10.77.0.1:9951, on a clock that starts at kNow
// and advances 1 ms per packet.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "control/OscAuth.h"
#include "control/Peer.h"

namespace spindle::fuzz {

inline const control::Bytes kGateSecret = {'f', 'u', 'z', 'z', '-', 'c', 'l', 'u', 's', 't', 'e', 'r', '-', 'k', 'e', 'y'};
inline constexpr const char* kGateIdentity = "studio-b";
inline constexpr const char* kGateHere = "10.77.0.1:9951";
inline constexpr int64_t kGateNow = 1'800'000'000'000'000;  // 2027, in microseconds
inline constexpr int64_t kGateStepUs = 1000;

inline control::Peer gatePeer() {
  control::Peer from = *control::Peer::udp("10.77.0.2", 40000);
  const control::Peer here = *control::Peer::udp("10.77.0.1", 9951);
  from.local = here.address;
  from.localLength = here.length;
  return from;
}

// Appends `packet` to an input, framed.
inline void appendFramed(std::vector<uint8_t>& input, const control::Bytes& packet) {
  input.push_back(static_cast<uint8_t>(packet.size() >> 8));
  input.push_back(static_cast<uint8_t>(packet.size()));
  input.insert(input.end(), packet.begin(), packet.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(packet.size(), 0xFFFF)));
}

}  // namespace spindle::fuzz
