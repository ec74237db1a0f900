#pragma once
// OscAuth: signed OSC. A signed packet is one OSC message that carries another packet
// (a message or a bundle, as it would be sent unsigned), who signed it, whom it is for, a
// counter and an HMAC-SHA256 keyed with the cluster's shared secret (OpenSSL's libcrypto):
//
//   /spindle/signed ,sshbb  sender    receiver  counter    packet          mac
//                           s (name)  s (name)  h (int64)  b (OSC bytes)   b (32 bytes)
//   mac = HMAC-SHA256(secret, "spindle-signed-2" 0x00 sender 0x00 receiver 0x00
//                             counter (8 bytes, big-endian) packet)
//
// The receiver names the one Spindle the packet is for, so a packet captured on its way
// to one host is refused by every other host that shares the secret: by default the
// address and port it was sent to ("10.0.0.2:9951", "[fd00::2]:9951"), or the name a
// server was given (--osc-identity). A reply names the requester as its receiver and, as
// its sender, the receiver the request named, so replies are told apart per host.
// The counter is microseconds since the Unix epoch on the signer's clock, strictly
// increasing per sender. A verifier (ReplayGuard) refuses a counter not above the
// highest it has accepted from that sender, or further than kCounterWindowUs from its
// own clock. docs/osc.md ("Security") is the reference for other clients.
//
// Thread: any; ReplayGuard is one thread's (the control thread's on the server).
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "control/OscMessage.h"

namespace spindle::control {

using Bytes = std::vector<uint8_t>;
using Mac = std::array<uint8_t, 32>;

inline constexpr std::size_t kMinSecretBytes = 16;
inline constexpr const char* kSignedPath = "/spindle/signed";
inline constexpr int64_t kCounterWindowUs = 30'000'000;  // ±30 s from the verifier's clock
inline constexpr std::size_t kMaxSenders = 1024;          // senders a ReplayGuard remembers at once

// The secret held in `path`: its bytes without trailing line ends. nullopt with `error`
// (naming the file) when it is missing, not a regular file, empty, shorter than
// kMinSecretBytes, or open to group or others (its mode must be 0600 or stricter).
std::optional<Bytes> readSecretFile(const std::string& path, std::string& error);

// nullopt when libcrypto fails (never a MAC of zeros).
std::optional<Mac> hmacSha256(const Bytes& key, const uint8_t* data, std::size_t size);
// Microseconds since the Unix epoch (the counter signers use).
int64_t nowMicros();
// The name a Spindle signs as: `configured` (--osc-identity) when given, else
// "HOSTNAME/CLIENT" for the JACK client name `client`.
std::string senderIdentity(const std::string& configured, const std::string& client);

// Who signs a packet and whom it is for.
struct SignedRoute {
  std::string sender;
  std::string receiver;
};

// The signed packet carrying `packet` (the OSC bytes of a message or bundle); empty when
// libcrypto fails, so nothing unsigned or wrongly signed is ever sent.
Bytes signPacket(const Bytes& secret, const SignedRoute& route, uint64_t counter, const uint8_t* packet,
                 std::size_t size);
Bytes signMessage(const Bytes& secret, const SignedRoute& route, uint64_t counter, const OscMessage& message);

// A signed packet taken apart; `packet` and `mac` point into the bytes it was read from.
struct SignedPacket {
  std::string sender;
  std::string receiver;
  uint64_t counter = 0;
  uint8_t* packet = nullptr;
  std::size_t packetSize = 0;
  const uint8_t* mac = nullptr;  // sizeof(Mac) bytes
};

// True when `data` is addressed to /spindle/signed (whatever follows).
bool isSignedPacket(const uint8_t* data, std::size_t size);
// nullopt with `error` when `data` is not a well-formed /spindle/signed message.
std::optional<SignedPacket> parseSigned(uint8_t* data, std::size_t size, std::string& error);
// Whether the MAC matches (compared in constant time); false when libcrypto fails.
bool macMatches(const Bytes& secret, const SignedPacket& packet);

// Misaddressed: the packet names another receiver (or, a reply, comes from another
// sender than the one asked). TooManySenders: a new sender while kMaxSenders are
// remembered, none of them old enough to forget.
enum class AuthRefusal { Unsigned, BadMac, Replayed, Stale, Misaddressed, TooManySenders };
inline constexpr std::size_t kAuthRefusals = 6;
// unsigned, bad_mac, replayed, stale, misaddressed, too_many_senders
const char* wireName(AuthRefusal why);

// The highest counter accepted per sender. Senders whose highest counter has left the
// window are forgotten: every counter at or below it is stale anyway. At most
// kMaxSenders are remembered; a new one beyond them is refused until some are forgotten.
class ReplayGuard {
 public:
  // nullopt: accepted (and now the highest); otherwise why it is refused.
  std::optional<AuthRefusal> accept(const std::string& sender, uint64_t counter, int64_t nowUs);
  std::size_t senders() const noexcept { return highest_.size(); }

 private:
  void forgetOld(int64_t nowUs);
  std::map<std::string, uint64_t> highest_;
};

}  // namespace spindle::control
