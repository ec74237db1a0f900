#include "tools/OscClient.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "control/OscDispatcher.h"
#include "control/Peer.h"
#include "tools/CliArgs.h"

namespace spindle::tools {

namespace {

using control::Bytes;
using control::OscValue;

struct ClientArgs {
  std::string secretFile, identity, to, dumpFile, sendFile, host, path, types;
  int port = 0, waitMs = 500;
  std::vector<std::string> values;
};

constexpr const char* kOscUsage =
    "usage: spindle-osc --secret-file FILE [--identity NAME] [--to NAME] [--wait MS] [--dump-packet FILE]\n"
    "                   HOST PORT /address [types [args...]]\n"
    "       spindle-osc [--secret-file FILE] --send-packet FILE HOST PORT\n"
    "Sends one signed OSC message over UDP (types i h f d s S T F N, as oscsend) and prints the\n"
    "replies that arrive within MS milliseconds (default 500). --identity: the sender's name, whose\n"
    "counter Spindle tracks (default this host's name). --to: the receiver the packet is signed for\n"
    "(default HOST:PORT; a Spindle's --osc-identity). --dump-packet writes the signed packet as sent;\n"
    "--send-packet sends such a file unchanged. Exit: 0 sent, 1 an error reply, 2 wrong arguments,\n"
    "3 not sent.\n";

std::optional<OscValue> buildValue(char type, const std::string& text) {
  try {
    switch (type) {
      case 'i': return OscValue::i(std::stoi(text));
      case 'h': return OscValue::h(std::stoll(text));
      case 'f': return OscValue::f(std::stod(text));
      case 'd': return OscValue{'d', 0, std::stod(text), {}};
      case 's': return OscValue::s(text);
      case 'S': return OscValue{'S', 0, 0.0, text};
      default: return std::nullopt;
    }
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string hostName() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || !name[0]) return "spindle-osc";
  return name;
}

bool parseOption(ArgCursor& cursor, ClientArgs& a, bool& missing) {
  if (auto v = cursor.option("--secret-file", "", missing)) a.secretFile = *v;
  else if (auto id = cursor.option("--identity", "", missing)) a.identity = *id;
  else if (auto to = cursor.option("--to", "", missing)) a.to = *to;
  else if (auto dump = cursor.option("--dump-packet", "", missing)) a.dumpFile = *dump;
  else if (auto send = cursor.option("--send-packet", "", missing)) a.sendFile = *send;
  else if (auto wait = cursor.option("--wait", "", missing)) {
    long long ms = 0;
    if (!parseInt(*wait, 0, 60000, ms)) return false;
    a.waitMs = static_cast<int>(ms);
  } else {
    return false;
  }
  return true;
}

std::optional<ClientArgs> parseClientArgs(const std::vector<std::string>& args, std::string& error) {
  ClientArgs a;
  ArgCursor cursor(args);
  std::vector<std::string> positional;
  while (!cursor.done()) {
    bool missing = false;
    if (cursor.current().rfind("--", 0) == 0 && positional.empty() && parseOption(cursor, a, missing)) continue;
    if (missing || (cursor.current().rfind("--", 0) == 0 && positional.empty())) {
      error = "wrong or incomplete option " + cursor.current();
      return std::nullopt;
    }
    positional.push_back(cursor.current());
    cursor.next();
  }
  long long port = 0;
  const std::size_t needed = a.sendFile.empty() ? 3 : 2;
  if (positional.size() < needed || (!a.sendFile.empty() && positional.size() > 2) ||
      !parseInt(positional[1], 1, 65535, port) || (a.sendFile.empty() && a.secretFile.empty())) {
    error = "expected HOST PORT /address [types args...] and --secret-file (or --send-packet FILE HOST PORT)";
    return std::nullopt;
  }
  a.host = positional[0];
  a.port = static_cast<int>(port);
  if (needed == 3) a.path = positional[2];
  if (positional.size() > 3) a.types = positional[3];
  a.values.assign(positional.begin() + std::min<std::ptrdiff_t>(4, std::ssize(positional)), positional.end());
  if (a.identity.empty()) a.identity = hostName();
  return a;
}

}  // namespace

std::optional<control::OscMessage> buildMessage(const std::string& path, const std::string& types,
                                                const std::vector<std::string>& values, std::string& error) {
  control::OscMessage m{path, {}};
  std::size_t next = 0;
  for (char type : types) {
    if (type == 'T' || type == 'F' || type == 'N') {
      m.args.push_back(OscValue{type, type == 'T' ? 1 : 0, 0.0, {}});
      continue;
    }
    const auto value = next < values.size() ? buildValue(type, values[next]) : std::nullopt;
    if (!value) {
      error = "argument " + std::to_string(next + 1) + " does not fit type '" + std::string(1, type) + "'";
      return std::nullopt;
    }
    m.args.push_back(*value);
    ++next;
  }
  if (next != values.size() || path.empty() || path[0] != '/') {
    error = path.empty() || path[0] != '/' ? "the address must start with /" : "more values than types";
    return std::nullopt;
  }
  return m;
}

std::optional<ReadReply> readReply(const Bytes& secret, const control::SignedRoute& expected, Bytes packet,
                                   int64_t nowUs, std::string& error) {
  ReadReply reply;
  uint8_t* data = packet.data();
  std::size_t size = packet.size();
  if (control::isSignedPacket(data, size)) {
    const auto p = control::parseSigned(data, size, error);
    const bool fresh = p && std::llabs(static_cast<int64_t>(p->counter) - nowUs) <= control::kCounterWindowUs;
    if (!p || secret.empty() || !control::macMatches(secret, *p) || !fresh) {
      error = "a signed reply did not verify (wrong secret, altered, or its clock is over 30 s off)";
      return std::nullopt;
    }
    if (p->sender != expected.sender || p->receiver != expected.receiver) {
      error = "a signed reply came from '" + p->sender + "' to '" + p->receiver + "', not from '" + expected.sender +
              "' to '" + expected.receiver + "'";
      return std::nullopt;
    }
    data = p->packet;
    size = p->packetSize;
    reply.verified = true;
  }
  control::OscDispatcher dispatcher;
  if (!dispatcher.create(error)) return std::nullopt;
  const bool ok = dispatcher.dispatch(data, size, [&](const control::OscMessage& m) {
    reply.lines.push_back((reply.verified ? "" : "unsigned ") + control::describe(m));
    reply.error |= m.path == "/spindle/error";
  }, error);
  if (!ok) return std::nullopt;
  return reply;
}

namespace {

// The route of what is sent: this sender to --to, or to HOST:PORT as numbers.
control::SignedRoute routeOf(const ClientArgs& a) {
  const auto to = control::Peer::udp(a.host, a.port);
  return {a.identity, !a.to.empty() ? a.to : to ? to->endpoint() : a.host};
}

std::optional<Bytes> packetToSend(const ClientArgs& a, const Bytes& secret, std::string& error) {
  if (!a.sendFile.empty()) {
    std::ifstream in(a.sendFile, std::ios::binary);
    Bytes bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.is_open() || bytes.empty()) error = "cannot read the packet file " + a.sendFile;
    if (!error.empty()) return std::nullopt;
    return bytes;
  }
  const auto message = buildMessage(a.path, a.types, a.values, error);
  if (!message) return std::nullopt;
  Bytes packet = control::signMessage(secret, routeOf(a), static_cast<uint64_t>(control::nowMicros()), *message);
  if (packet.empty()) error = "signing failed (libcrypto's HMAC)";
  if (!a.dumpFile.empty()) {
    std::ofstream out(a.dumpFile, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(packet.data()), static_cast<std::streamsize>(packet.size()));
    if (!out) error = "cannot write the packet file " + a.dumpFile;
  }
  if (!error.empty()) return std::nullopt;
  return packet;
}

// Sends `packet` from a fresh UDP socket and prints what comes back to it within the wait.
int sendAndListen(const ClientArgs& a, const Bytes& packet, const Bytes& secret, std::ostream& out, std::ostream& err) {
  const auto to = control::Peer::udp(a.host, a.port);
  if (!to) {
    err << "spindle-osc: HOST must be a numeric IPv4 or IPv6 address, not '" << a.host << "'\n";
    return 2;
  }
  const int fd = ::socket(to->address.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || ::sendto(fd, packet.data(), packet.size(), 0, reinterpret_cast<const sockaddr*>(&to->address),
                         to->length) != static_cast<ssize_t>(packet.size())) {
    err << "spindle-osc: cannot send to " << a.host << ":" << a.port << "\n";
    if (fd >= 0) ::close(fd);
    return 3;
  }
  int status = 0;
  Bytes buffer(65536);
  pollfd p{fd, POLLIN, 0};
  while (::poll(&p, 1, a.waitMs) > 0) {
    const ssize_t n = ::recv(fd, buffer.data(), buffer.size(), 0);
    if (n <= 0) break;
    std::string error;
    const control::SignedRoute sent = routeOf(a);
    const auto reply =
        readReply(secret, {sent.receiver, sent.sender}, Bytes(buffer.begin(), buffer.begin() + n), control::nowMicros(), error);
    if (!reply) err << "spindle-osc: " << error << "\n";
    if (!reply || reply->error) status = 1;
    if (reply)
      for (const std::string& line : reply->lines) out << line << std::endl;
  }
  ::close(fd);
  return status;
}

}  // namespace

int runOscClient(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    out << kOscUsage;
    return 0;
  }
  std::string error;
  const auto a = parseClientArgs(args, error);
  if (!a) {
    err << "spindle-osc: " << error << "\n" << kOscUsage;
    return 2;
  }
  Bytes secret;
  if (!a->secretFile.empty()) {
    auto read = control::readSecretFile(a->secretFile, error);
    if (!read) {
      err << "spindle-osc: " << error << "\n";
      return 2;
    }
    secret = std::move(*read);
  }
  const auto packet = packetToSend(*a, secret, error);
  if (!packet) {
    err << "spindle-osc: " << error << "\n";
    return 2;
  }
  return sendAndListen(*a, *packet, secret, out, err);
}

}  // namespace spindle::tools
