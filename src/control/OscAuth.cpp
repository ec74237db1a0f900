#include "control/OscAuth.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>

namespace spindle::control {

namespace {

constexpr std::size_t kMaxSecretBytes = 4096;
constexpr const char* kMacDomain = "spindle-signed-2";  // this format's MAC input begins with it

std::size_t padded(std::size_t n) { return (n + 3) & ~std::size_t{3}; }

void putString(Bytes& out, const std::string& text) {
  out.insert(out.end(), text.begin(), text.end());
  out.resize(padded(out.size() + 1), 0);
}

void putBigEndian(Bytes& out, uint64_t value, int bytes) {
  for (int k = bytes - 1; k >= 0; --k) out.push_back(static_cast<uint8_t>(value >> (8 * k)));
}

void putBlob(Bytes& out, const uint8_t* data, std::size_t size) {
  putBigEndian(out, size, 4);
  out.insert(out.end(), data, data + size);
  out.resize(padded(out.size()), 0);
}

uint64_t getBigEndian(const uint8_t* p, int bytes) {
  uint64_t value = 0;
  for (int k = 0; k < bytes; ++k) value = (value << 8) | p[k];
  return value;
}

// Moves `at` to `to` over bytes that must all be zero (OSC's padding, one canonical form).
bool skipPadding(const uint8_t* data, std::size_t size, std::size_t& at, std::size_t to) {
  if (to > size) return false;
  for (; at < to; ++at)
    if (data[at] != 0) return false;
  return true;
}

// Reads an OSC string at `at`; false when it is not terminated inside `size`.
bool getString(const uint8_t* data, std::size_t size, std::size_t& at, std::string& text) {
  const auto* end = static_cast<const uint8_t*>(std::memchr(data + at, 0, size - at));
  if (!end) return false;
  text.assign(reinterpret_cast<const char*>(data + at), static_cast<std::size_t>(end - (data + at)));
  at = static_cast<std::size_t>(end - data);
  return skipPadding(data, size, at, padded(at + 1));
}

bool getBlob(uint8_t* data, std::size_t size, std::size_t& at, uint8_t*& blob, std::size_t& blobSize) {
  if (size - at < 4) return false;
  blobSize = getBigEndian(data + at, 4);
  if (blobSize > size - at - 4) return false;
  blob = data + at + 4;
  at += 4 + blobSize;
  return skipPadding(data, size, at, padded(at));
}

Bytes macInput(const SignedRoute& route, uint64_t counter, const uint8_t* packet, std::size_t size) {
  Bytes input;
  input.reserve(std::strlen(kMacDomain) + route.sender.size() + route.receiver.size() + 11 + size);
  for (const std::string& field : {std::string(kMacDomain), route.sender, route.receiver}) {
    input.insert(input.end(), field.begin(), field.end());
    input.push_back(0);
  }
  putBigEndian(input, counter, 8);
  input.insert(input.end(), packet, packet + size);
  return input;
}

std::string permissionError(const std::string& path, const struct stat& info) {
  if (!S_ISREG(info.st_mode)) return "the OSC secret file " + path + " is not a regular file";
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
  if (info.st_mode & (S_IRWXG | S_IRWXO))
    return "the OSC secret file " + path + " is open to group or others (mode " + mode + "): chmod 600 " + path;
  return {};
}

}  // namespace

std::optional<Bytes> readSecretFile(const std::string& path, std::string& error) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    error = "cannot read the OSC secret file " + path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  if (error = permissionError(path, info); !error.empty()) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  Bytes secret((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.is_open()) error = "cannot read the OSC secret file " + path;
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  if (error.empty() && secret.empty()) error = "the OSC secret file " + path + " is empty";
  else if (error.empty() && secret.size() < kMinSecretBytes)
    error = "the OSC secret in " + path + " has " + std::to_string(secret.size()) + " bytes; it needs at least " +
            std::to_string(kMinSecretBytes) + " (e.g. openssl rand -hex 32 > " + path + ")";
  else if (error.empty() && secret.size() > kMaxSecretBytes)
    error = "the OSC secret file " + path + " holds more than " + std::to_string(kMaxSecretBytes) + " bytes";
  if (!error.empty()) return std::nullopt;
  return secret;
}

std::optional<Mac> hmacSha256(const Bytes& key, const uint8_t* data, std::size_t size) {
  Mac mac{};
  unsigned int length = 0;
  if (key.size() > kMaxSecretBytes) return std::nullopt;
  const uint8_t* done = HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), data, size, mac.data(), &length);
  if (done == nullptr || length != mac.size()) return std::nullopt;
  return mac;
}

std::string senderIdentity(const std::string& configured, const std::string& client) {
  if (!configured.empty()) return configured;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0 || host[0] == 0) std::strcpy(host, "localhost");
  return std::string(host) + "/" + client;
}

int64_t nowMicros() {
  using namespace std::chrono;
  return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

Bytes signPacket(const Bytes& secret, const SignedRoute& route, uint64_t counter, const uint8_t* packet,
                 std::size_t size) {
  const Bytes input = macInput(route, counter, packet, size);
  const std::optional<Mac> mac = hmacSha256(secret, input.data(), input.size());
  if (!mac) return {};
  Bytes out;
  out.reserve(72 + route.sender.size() + route.receiver.size() + size);
  putString(out, kSignedPath);
  putString(out, ",sshbb");
  putString(out, route.sender);
  putString(out, route.receiver);
  putBigEndian(out, counter, 8);
  putBlob(out, packet, size);
  putBlob(out, mac->data(), mac->size());
  return out;
}

Bytes signMessage(const Bytes& secret, const SignedRoute& route, uint64_t counter, const OscMessage& message) {
  const Bytes packet = serialise(message);
  return signPacket(secret, route, counter, packet.data(), packet.size());
}

bool isSignedPacket(const uint8_t* data, std::size_t size) {
  const std::size_t length = std::strlen(kSignedPath) + 1;
  return size >= length && std::memcmp(data, kSignedPath, length) == 0;
}

std::optional<SignedPacket> parseSigned(uint8_t* data, std::size_t size, std::string& error) {
  std::size_t at = 0;
  std::string path, types;
  SignedPacket p;
  uint8_t* mac = nullptr;
  std::size_t macSize = 0;
  const bool ok = getString(data, size, at, path) && path == kSignedPath && getString(data, size, at, types) &&
                  types == ",sshbb" && getString(data, size, at, p.sender) && getString(data, size, at, p.receiver) &&
                  size - at >= 8;
  if (ok) {
    p.counter = getBigEndian(data + at, 8);
    at += 8;
  }
  if (!ok || !getBlob(data, size, at, p.packet, p.packetSize) || !getBlob(data, size, at, mac, macSize) ||
      macSize != sizeof(Mac) || at != size || p.sender.empty() || p.receiver.empty() || p.packetSize == 0) {
    error = "malformed signed packet (expected /spindle/signed ,sshbb sender receiver counter packet mac)";
    return std::nullopt;
  }
  p.mac = mac;
  return p;
}

bool macMatches(const Bytes& secret, const SignedPacket& packet) {
  const Bytes input = macInput({packet.sender, packet.receiver}, packet.counter, packet.packet, packet.packetSize);
  const std::optional<Mac> expected = hmacSha256(secret, input.data(), input.size());
  return expected && CRYPTO_memcmp(expected->data(), packet.mac, expected->size()) == 0;
}

const char* wireName(AuthRefusal why) {
  switch (why) {
    case AuthRefusal::Unsigned: return "unsigned";
    case AuthRefusal::BadMac: return "bad_mac";
    case AuthRefusal::Replayed: return "replayed";
    case AuthRefusal::Stale: return "stale";
    case AuthRefusal::Misaddressed: return "misaddressed";
    case AuthRefusal::TooManySenders: return "too_many_senders";
  }
  return "unknown";
}

std::optional<AuthRefusal> ReplayGuard::accept(const std::string& sender, uint64_t counter, int64_t nowUs) {
  const auto signedCounter = static_cast<int64_t>(counter);
  if (counter > static_cast<uint64_t>(INT64_MAX) || signedCounter < nowUs - kCounterWindowUs ||
      signedCounter > nowUs + kCounterWindowUs)
    return AuthRefusal::Stale;
  const auto it = highest_.find(sender);
  if (it != highest_.end()) {
    if (counter <= it->second) return AuthRefusal::Replayed;
    it->second = counter;
    return std::nullopt;
  }
  if (highest_.size() >= kMaxSenders) forgetOld(nowUs);
  if (highest_.size() >= kMaxSenders) return AuthRefusal::TooManySenders;
  highest_.emplace(sender, counter);
  return std::nullopt;
}

void ReplayGuard::forgetOld(int64_t nowUs) {
  std::erase_if(highest_, [nowUs](const auto& entry) {
    return static_cast<int64_t>(entry.second) < nowUs - kCounterWindowUs;
  });
}

}  // namespace spindle::control
