// Signed OSC (control/OscAuth.h, OscGate.h): the secret file's checks, sign and verify,
// every byte of a signed packet altered, wrong secrets, replayed, old and future
// counters, packets signed for another receiver, senders with counters of their own and
// at most 1,024 of them, and the gate's policy per peer.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "RecordingTarget.h"
#include "catch.h"
#include "control/OscAuth.h"
#include "control/OscGate.h"

namespace osc_auth_tests {

using namespace spindle::control;

namespace {

const Bytes kSecret = {'c', 'l', 'u', 's', 't', 'e', 'r', '-', 's', 'e', 'c', 'r', 'e', 't', '-', '1'};
const OscMessage kVolume{"/spindle/part/volume", {OscValue::i(1), OscValue::f(-6.0)}};
constexpr int64_t kNow = 1'800'000'000'000'000;  // a fixed clock: 2027, in microseconds

constexpr const char* kHere = "10.77.0.1:9951";  // where remote() sends to

// A peer at 10.77.0.2 whose packets reached this server at 10.77.0.1:9951.
Peer remote() {
  Peer from = *Peer::udp("10.77.0.2", 40000);
  const Peer here = *Peer::udp("10.77.0.1", 9951);
  from.local = here.address;
  from.localLength = here.length;
  return from;
}

Bytes signFor(const Bytes& secret, const std::string& sender, int64_t counter, const std::string& receiver = kHere) {
  return signMessage(secret, {sender, receiver}, static_cast<uint64_t>(counter), kVolume);
}

std::filesystem::path secretFile(const std::string& text, mode_t mode) {
  const auto path = std::filesystem::temp_directory_path() / ("spindle-secret-" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  ::chmod(path.c_str(), mode);
  return path;
}

OscGate::Verdict admit(OscGate& gate, Bytes packet, const Peer& from = remote(), int64_t now = kNow) {
  static Bytes kept;  // the verdict points into the packet
  kept = std::move(packet);
  return gate.admit(from, kept.data(), kept.size(), now);
}

}  // namespace

TEST_CASE("the secret file is refused when missing, empty, short or open to others", "[control][auth]") {
  std::string error;
  CHECK_FALSE(readSecretFile("/nonexistent/spindle.secret", error));
  CHECK_THAT(error, Catch::Contains("/nonexistent/spindle.secret") && Catch::Contains("No such file"));
  auto path = secretFile("", 0600);
  CHECK_FALSE(readSecretFile(path, error));
  CHECK_THAT(error, Catch::Contains(path.string()) && Catch::Contains("is empty"));
  path = secretFile("short-secret\n", 0600);
  CHECK_FALSE(readSecretFile(path, error));
  CHECK_THAT(error, Catch::Contains("has 12 bytes") && Catch::Contains("at least 16"));
  path = secretFile("0123456789abcdef0123\n", 0644);
  CHECK_FALSE(readSecretFile(path, error));
  CHECK_THAT(error, Catch::Contains("mode 0644") && Catch::Contains("chmod 600 " + path.string()));
  path = secretFile("0123456789abcdef0123\r\n", 0400);
  const auto secret = readSecretFile(path, error);
  REQUIRE(secret);
  CHECK(std::string(secret->begin(), secret->end()) == "0123456789abcdef0123");
  std::filesystem::remove(path);
}

TEST_CASE("HMAC-SHA256 matches RFC 4231's test case 2", "[control][auth]") {
  const std::string data = "what do ya want for nothing?";
  const auto mac = hmacSha256(Bytes{'J', 'e', 'f', 'e'}, reinterpret_cast<const uint8_t*>(data.data()), data.size());
  const Mac expected = {0x5b, 0xdc, 0xc1, 0x46, 0xbf, 0x60, 0x75, 0x4e, 0x6a, 0x04, 0x24, 0x26, 0x08, 0x95, 0x75, 0xc7,
                        0x5a, 0x00, 0x3f, 0x08, 0x9d, 0x27, 0x39, 0x83, 0x9d, 0xec, 0x58, 0xb9, 0x64, 0xec, 0x38, 0x43};
  REQUIRE(mac);
  CHECK(*mac == expected);
}

TEST_CASE("a signed message parses back to its sender, receiver, counter and packet, and verifies",
          "[control][auth]") {
  Bytes packet = signFor(kSecret, "master", kNow);
  CHECK(packet.size() % 4 == 0);
  CHECK(isSignedPacket(packet.data(), packet.size()));
  std::string error;
  const auto parsed = parseSigned(packet.data(), packet.size(), error);
  REQUIRE(parsed);
  CHECK(parsed->sender == "master");
  CHECK(parsed->receiver == kHere);
  CHECK(parsed->counter == static_cast<uint64_t>(kNow));
  CHECK(Bytes(parsed->packet, parsed->packet + parsed->packetSize) == serialise(kVolume));
  CHECK(macMatches(kSecret, *parsed));
  Bytes other = kSecret;
  other.back() ^= 1;
  CHECK_FALSE(macMatches(other, *parsed));
}

TEST_CASE("every byte of a signed packet, altered, makes the gate refuse it", "[control][auth]") {
  const Bytes packet = signFor(kSecret, "master", kNow);
  OscGate reference({kSecret, false, {}});
  CHECK_FALSE(admit(reference, packet).refused);
  int refused = 0;
  for (std::size_t k = 0; k < packet.size(); ++k) {
    OscGate gate({kSecret, false, {}});
    Bytes altered = packet;
    altered[k] ^= 0x01;
    INFO("byte " << k);
    const auto verdict = admit(gate, altered);
    CHECK(verdict.refused);
    refused += verdict.refused.has_value();
  }
  CHECK(refused == static_cast<int>(packet.size()));
  Bytes shorter(packet.begin(), packet.end() - 4);
  OscGate gate({kSecret, false, {}});
  CHECK(admit(gate, shorter).refused == AuthRefusal::BadMac);
}

TEST_CASE("the gate refuses a wrong secret, a replay, an old or a future counter", "[control][auth]") {
  OscGate gate({kSecret, false, {}});
  Bytes wrong = kSecret;
  wrong[0] = 'C';
  auto verdict = admit(gate, signFor(wrong, "master", kNow));
  CHECK(verdict.refused == AuthRefusal::BadMac);
  CHECK_THAT(verdict.reason, Catch::Contains("signature does not match"));

  const Bytes once = signFor(kSecret, "master", kNow);
  verdict = admit(gate, once);
  REQUIRE_FALSE(verdict.refused);
  CHECK(verdict.verified);
  CHECK(verdict.route.sender == "master");
  CHECK(verdict.route.receiver == kHere);
  CHECK(Bytes(verdict.data, verdict.data + verdict.size) == serialise(kVolume));
  CHECK(admit(gate, once, remote(), kNow + 1000).refused == AuthRefusal::Replayed);
  CHECK(admit(gate, signFor(kSecret, "master", kNow - 1)).refused == AuthRefusal::Replayed);
  CHECK_FALSE(admit(gate, signFor(kSecret, "master", kNow + 1)).refused);

  const int64_t window = kCounterWindowUs;
  CHECK(admit(gate, signFor(kSecret, "late", kNow - window - 1)).refused == AuthRefusal::Stale);
  CHECK(admit(gate, signFor(kSecret, "early", kNow + window + 1)).refused == AuthRefusal::Stale);
  CHECK_FALSE(admit(gate, signFor(kSecret, "edge", kNow - window)).refused);
}

TEST_CASE("the gate takes a packet signed for the address it came in on, or for its identity, and no other",
          "[control][auth]") {
  OscGate gate({kSecret, false, "studio-b"});
  auto verdict = admit(gate, signFor(kSecret, "master", kNow, "10.77.0.3:9951"));  // another host's
  CHECK(verdict.refused == AuthRefusal::Misaddressed);
  CHECK_THAT(verdict.reason, Catch::Contains("10.77.0.3:9951") && Catch::Contains(kHere));
  CHECK(admit(gate, signFor(kSecret, "master", kNow + 1, "10.77.0.1:9952")).refused == AuthRefusal::Misaddressed);
  CHECK_FALSE(admit(gate, signFor(kSecret, "master", kNow + 2)).refused);
  CHECK_FALSE(admit(gate, signFor(kSecret, "master", kNow + 3, "studio-b")).refused);
  // A misaddressed packet leaves no counter behind: the sender's next one still passes.
  CHECK(admit(gate, signFor(kSecret, "other", kNow + 9, "studio-c")).refused == AuthRefusal::Misaddressed);
  CHECK_FALSE(admit(gate, signFor(kSecret, "other", kNow + 5)).refused);
  OscGate unnamed({kSecret, false, {}});
  CHECK(admit(unnamed, signFor(kSecret, "master", kNow, "studio-b")).refused == AuthRefusal::Misaddressed);
  Peer unknownLocal = remote();
  unknownLocal.localLength = 0;  // no destination address known: only an identity can match
  CHECK(admit(unnamed, signFor(kSecret, "master", kNow + 1), unknownLocal).refused == AuthRefusal::Misaddressed);
}

TEST_CASE("each sender has a counter of its own, and at most 1,024 senders are remembered", "[control][auth]") {
  ReplayGuard guard;
  CHECK_FALSE(guard.accept("host-a", kNow + 500, kNow));
  CHECK_FALSE(guard.accept("host-b", kNow + 100, kNow));  // below host-a's, but host-b's first
  CHECK(guard.accept("host-b", kNow + 100, kNow) == AuthRefusal::Replayed);
  CHECK(guard.accept("host-a", kNow + 200, kNow) == AuthRefusal::Replayed);
  CHECK_FALSE(guard.accept("host-b", kNow + 101, kNow));
  CHECK(guard.senders() == 2);

  for (std::size_t k = guard.senders(); k < kMaxSenders; ++k)
    REQUIRE_FALSE(guard.accept("sender-" + std::to_string(k), kNow + 1000, kNow + 1000));
  CHECK(guard.senders() == kMaxSenders);
  CHECK(guard.accept("one-more", kNow + 2000, kNow + 2000) == AuthRefusal::TooManySenders);
  CHECK_FALSE(guard.accept("host-a", kNow + 2001, kNow + 2000));  // a known sender still passes
  CHECK(guard.senders() == kMaxSenders);
  // Once their counters have left the 30 s window, the senders are forgotten to make room.
  const int64_t later = kNow + kCounterWindowUs + 1001;
  CHECK_FALSE(guard.accept("one-more", static_cast<uint64_t>(later), later));
  CHECK(guard.senders() == 2);  // host-a (its counter is recent enough) and one-more
}

TEST_CASE("which peers must sign: none without a secret, others with one, all when required", "[control][auth]") {
  Peer local = spindle::test::loopbackPeer();
  const Peer here = *Peer::udp("127.0.0.1", 9951);
  local.local = here.address;
  local.localLength = here.length;
  const Bytes plain = serialise(kVolume);
  OscGate open({{}, false, {}});
  CHECK_FALSE(admit(open, plain, remote()).refused);
  CHECK(admit(open, signFor(kSecret, "m", kNow)).refused == AuthRefusal::BadMac);
  CHECK(std::string(open.mode()) == "open");

  OscGate remoteOnly({kSecret, false, {}});
  CHECK_FALSE(admit(remoteOnly, plain, local).refused);
  const auto verdict = admit(remoteOnly, plain, remote());
  CHECK(verdict.refused == AuthRefusal::Unsigned);
  CHECK_THAT(verdict.reason, Catch::Contains("other hosts"));
  CHECK(std::string(remoteOnly.mode()) == "signed_remote");

  OscGate all({kSecret, true, {}});
  CHECK(admit(all, plain, local).refused == AuthRefusal::Unsigned);
  CHECK(admit(all, plain, *Peer::udp("::1", 9)).refused == AuthRefusal::Unsigned);
  CHECK_FALSE(admit(all, signFor(kSecret, "m", kNow, "127.0.0.1:9951"), local).refused);
  CHECK(std::string(all.mode()) == "signed_all");
}

TEST_CASE("replies are signed along their route with strictly increasing counters", "[control][auth]") {
  OscGate gate({kSecret, false, {}});
  const Bytes pong = serialise({"/spindle/pong", {}});
  const SignedRoute back{kHere, "master"};
  Bytes first = gate.signReply(pong, back, kNow), second = gate.signReply(pong, back, kNow);
  std::string error;
  const auto a = parseSigned(first.data(), first.size(), error), b = parseSigned(second.data(), second.size(), error);
  REQUIRE((a && b));
  CHECK(a->sender == kHere);
  CHECK(a->receiver == "master");
  CHECK(a->counter == static_cast<uint64_t>(kNow));
  CHECK(b->counter == static_cast<uint64_t>(kNow) + 1);
  CHECK((macMatches(kSecret, *a) && macMatches(kSecret, *b)));
}

TEST_CASE("a network address needs a secret or --osc-insecure; loopback needs neither", "[control][auth]") {
  std::string error;
  CHECK(oscExposureAllowed("127.0.0.1", false, false, error));
  CHECK(oscExposureAllowed("::1", false, false, error));
  CHECK(oscExposureAllowed("10.77.0.1", true, false, error));
  CHECK(oscExposureAllowed("0.0.0.0", false, true, error));
  CHECK_FALSE(oscExposureAllowed("0.0.0.0", false, false, error));
  CHECK_THAT(error, Catch::Contains("--osc-secret-file") && Catch::Contains("--osc-insecure"));
  CHECK_FALSE(oscExposureAllowed("::", false, false, error));
}

TEST_CASE("refusals are counted per reason and answered at most 20 times a second", "[control][auth]") {
  spindle::test::RecordingTarget target;
  spindle::test::RecordingSink sink;
  ControlCore core(target, sink);
  core.setAuthMode("signed_remote");
  for (int k = 0; k < 25; ++k) core.refuse(remote(), AuthRefusal::Unsigned, "unsigned OSC refused");
  core.refuse(remote(), AuthRefusal::Replayed, "replayed");
  core.countVerified();
  const auto sent = sink.take();
  CHECK(sent.size() == static_cast<std::size_t>(kRefusalRepliesPerSecond));
  CHECK(describe(sent.front().message) == "/spindle/error ss \"\" \"unsigned OSC refused\"");
  CHECK(core.refused(AuthRefusal::Unsigned) == 25);
  core.refuse(remote(), AuthRefusal::Misaddressed, "misaddressed");
  CHECK(describe(core.authMessage()) == "/spindle/auth shhhhhhh \"signed_remote\" 1 25 0 1 0 1 0");
  CHECK(authReport(core) ==
        "1 signed accepted; refused: 25 unsigned, 0 bad_mac, 1 replayed, 0 stale, 1 misaddressed, 0 too_many_senders");
  const OscMessage status = core.statusMessage();
  std::map<std::string, int64_t> values;
  for (std::size_t k = 0; k + 1 < status.args.size(); k += 2) values[status.args[k].text] = status.args[k + 1].integer;
  CHECK(values.at("auth_unsigned") == 25);
  CHECK(values.at("auth_replayed") == 1);
  CHECK(values.at("auth_bad_mac") == 0);
  CHECK(values.at("auth_stale") == 0);
  CHECK(values.at("auth_misaddressed") == 1);
  CHECK(values.at("auth_too_many_senders") == 0);
}

}  // namespace osc_auth_tests
