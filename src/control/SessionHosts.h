#pragma once
// A session's remote hosts (HostControl.h): one section per host a master drives.
//
//   [host a]
//   address = 192.168.1.20:9951      (ADDR[:PORT], as --host NAME=ADDR[:PORT])
//   jack_client = spindle_host1      (its NetJACK2 client on the master: routed; optional)
//   part 1 instrument = /srv/libraries/piano/piano.sfz   (a path on that host, kept as written)
//   part 1 volume = -6
//   part 1 cc 91 = 40                (controller = value, 0..127, on the part's channel)
//
// Thread: any (the control thread in Spindle).
#include <string>
#include <vector>

#include "control/HostControl.h"

namespace spindle::control {

// One "key = value" line of a [host NAME] section into `host`; false with `message`.
bool parseHostLine(HostSettings& host, const std::string& key, const std::string& value, std::string& message);
// Every host's section, each after a blank line; "" when there are none.
std::string formatHostSections(const std::vector<HostSettings>& hosts);

}  // namespace spindle::control
