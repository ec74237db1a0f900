// fuzz_osc_gate: the OSC server's door (control/OscGate.h), which reads network bytes
// before anything is authenticated: parseSigned, the MAC check, the receiver check and
// the replay guard, over a sequence of packets admitted by one gate (GateInput.h).
// Seeds are real signed packets (fuzz_make_seeds): one that verifies, the same twice
// (replayed), one signed for another receiver, one for the gate's identity, a stale one.
//
// Invariants checked on every packet: a refusal has a reason; what passes lies inside
// the packet given; a verified packet is non-empty and names its sender and this gate
// (its address or identity); an unsigned packet passes unchanged, and only from a peer
// that need not sign (never, here: the peer is remote and the gate has a secret).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "GateInput.h"
#include "control/OscGate.h"

namespace {

using namespace spindle;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

void admitOne(control::OscGate& gate, const control::Peer& from, std::vector<uint8_t> packet, int64_t now) {
  uint8_t* begin = packet.data();
  const auto verdict = gate.admit(from, begin, packet.size(), now);
  if (verdict.refused) {
    check(!verdict.reason.empty() && !verdict.verified);
    return;
  }
  check(verdict.verified);  // a remote peer of a gate with a secret must sign
  check(verdict.size > 0 && verdict.data >= begin && verdict.data + verdict.size <= begin + packet.size());
  check(!verdict.route.sender.empty());
  check(verdict.route.receiver == fuzz::kGateHere || verdict.route.receiver == fuzz::kGateIdentity);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  control::OscGate gate({fuzz::kGateSecret, false, fuzz::kGateIdentity});
  const control::Peer from = fuzz::gatePeer();
  int64_t now = fuzz::kGateNow;
  for (std::size_t at = 0; at + 2 <= size; now += fuzz::kGateStepUs) {
    const std::size_t length = std::min<std::size_t>((std::size_t{data[at]} << 8) | data[at + 1], size - at - 2);
    admitOne(gate, from, std::vector<uint8_t>(data + at + 2, data + at + 2 + length), now);
    at += 2 + length;
  }
  return 0;
}
