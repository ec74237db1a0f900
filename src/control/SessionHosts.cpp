#include "control/SessionHosts.h"

#include "control/SessionValues.h"

namespace spindle::control {

namespace {

// "part N KEY": N (0-based) and KEY; false when the key is not one.
bool splitPartKey(const std::string& key, int& part, std::string& rest) {
  if (key.rfind("part ", 0) != 0) return false;
  const std::size_t space = key.find(' ', 5);
  if (space == std::string::npos || !toInt(key.substr(5, space - 5), 1, 16, part)) return false;
  --part;
  rest = key.substr(space + 1);
  return true;
}

bool partLine(HostPartSettings& p, const std::string& key, const std::string& value, std::string& message) {
  int cc = 0, number = 0;
  if (key == "instrument") {
    p.library = value;
  } else if (key == "volume") {
    float db = 0.0f;
    if (!toFloat(value, -144.0f, 12.0f, db)) {
      message = "bad volume '" + value + "' (-144..12 dB)";
      return false;
    }
    p.volumeDb = db;
  } else if (key.rfind("cc ", 0) == 0 && toInt(key.substr(3), 0, 127, cc)) {
    if (!toInt(value, 0, 127, number)) {
      message = "bad controller value '" + value + "' (0..127)";
      return false;
    }
    p.controls[cc] = number;
  } else {
    message = "unknown host part key '" + key + "' (instrument, volume, cc N)";
    return false;
  }
  return true;
}

}  // namespace

bool parseHostLine(HostSettings& host, const std::string& key, const std::string& value, std::string& message) {
  if (key == "address") {
    const auto parsed = parseHostSpec(host.name + "=" + value, message);
    if (!parsed) return false;
    host.address = parsed->address;
    host.port = parsed->port;
    if (!parsed->jackClient.empty()) host.jackClient = parsed->jackClient;
    return true;
  }
  if (key == "jack_client") {
    const auto parsed = parseHostSpec(host.name + "=x@" + value, message);
    if (!parsed) return false;
    host.jackClient = parsed->jackClient;
    return true;
  }
  int part = 0;
  std::string rest;
  if (!splitPartKey(key, part, rest)) {
    message = "unknown host key '" + key + "' (address, jack_client, part N instrument, part N volume, part N cc M)";
    return false;
  }
  return partLine(host.parts[part], rest, value, message);
}

std::string formatHostSections(const std::vector<HostSettings>& hosts) {
  std::ostringstream out;
  for (const HostSettings& host : hosts) {
    out << "\n[host " << host.name << "]\naddress = " << host.address << ":" << host.port << "\n";
    if (!host.jackClient.empty()) out << "jack_client = " << host.jackClient << "\n";
    for (const auto& [part, p] : host.parts) {
      const std::string prefix = "part " + std::to_string(part + 1) + " ";
      if (!p.library.empty()) out << prefix << "instrument = " << p.library << "\n";
      if (p.volumeDb) out << prefix << "volume = " << *p.volumeDb << "\n";
      for (const auto& [cc, value] : p.controls) out << prefix << "cc " << cc << " = " << value << "\n";
    }
  }
  return out.str();
}

}  // namespace spindle::control
