#include "control/HostControl.h"

#include <charconv>

namespace spindle::control {

namespace {

// NAME=ADDR[:PORT] and the client after its '@', if any (a JACK client name: no ':').
bool splitClient(std::string& spec, std::string& client, std::string& error) {
  const std::size_t at = spec.rfind('@');
  if (at == std::string::npos || at < spec.find('=')) return true;
  client = spec.substr(at + 1);
  spec.resize(at);
  if (!client.empty() && client.find_first_of(": \t") == std::string::npos) return true;
  error = "a host's JACK client is a name without ':' or spaces, not '" + client + "'";
  return false;
}

}  // namespace

std::optional<HostSettings> parseHostSpec(const std::string& whole, std::string& error) {
  std::string spec = whole, client;
  if (!splitClient(spec, client, error)) return std::nullopt;
  const std::size_t equals = spec.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == spec.size()) {
    error = "a host is NAME=ADDR[:PORT][@JACKCLIENT], not '" + whole + "'";
    return std::nullopt;
  }
  HostSettings host;
  host.name = spec.substr(0, equals);
  std::string address = spec.substr(equals + 1);
  // A port follows the last ':' unless the address is a bare IPv6 one ("[::1]:9951" or "::1").
  const std::size_t colon = address.rfind(':');
  const bool bracketed = address.front() == '[';
  const bool hasPort = colon != std::string::npos && (bracketed ? address[colon - 1] == ']' : address.find(':') == colon);
  if (hasPort) {
    const std::string port = address.substr(colon + 1);
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), host.port);
    if (ec != std::errc{} || end != port.data() + port.size() || host.port < 1 || host.port > 65535) {
      error = "host " + host.name + ": the port must be 1..65535, not '" + port + "'";
      return std::nullopt;
    }
    address.resize(colon);
  }
  if (bracketed && address.size() > 2 && address.back() == ']') address = address.substr(1, address.size() - 2);
  if (address.empty() || host.name.find_first_of(" \t[]@") != std::string::npos) {
    error = "a host is NAME=ADDR[:PORT][@JACKCLIENT], not '" + whole + "'";
    return std::nullopt;
  }
  host.address = address;
  host.jackClient = client;
  return host;
}

double HostView::value(const std::string& key, double fallback) const {
  for (const auto& [field, number] : status)
    if (field == key) return number;
  return fallback;
}

}  // namespace spindle::control
