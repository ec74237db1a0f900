#include "io/NetworkLatency.h"

#include <jack/jack.h>

#include <algorithm>
#include <string_view>
#include <vector>

namespace spindle::io {

NetworkLatency NetworkLatency::fromPlayback(uint32_t playbackFrames, uint32_t periodFrames) noexcept {
  NetworkLatency n;
  if (periodFrames == 0 || playbackFrames < periodFrames) return n;
  n.slavePeriods = 2 * (playbackFrames - periodFrames) / periodFrames;
  n.roundTripFrames = 2 * playbackFrames - periodFrames;
  return n;
}

namespace {

bool isNetPort(jack_port_t* port) {
  std::vector<char> a(static_cast<std::size_t>(jack_port_name_size())), b(a.size());
  char* aliases[2] = {a.data(), b.data()};
  const int count = jack_port_get_aliases(port, aliases);
  for (int i = 0; i < count; ++i)
    if (std::string_view(aliases[i]).starts_with("net_pcm:")) return true;
  return false;
}

}  // namespace

uint32_t readNetJackPlayback(jack_client_t* client) noexcept {
  const char** names = jack_get_ports(client, nullptr, JACK_DEFAULT_AUDIO_TYPE, JackPortIsPhysical | JackPortIsInput);
  if (!names) return 0;
  uint32_t playback = 0;
  for (const char** name = names; *name; ++name) {
    jack_port_t* port = jack_port_by_name(client, *name);
    if (!port || !isNetPort(port)) continue;
    jack_latency_range_t range{};
    jack_port_get_latency_range(port, JackPlaybackLatency, &range);
    playback = std::max(playback, range.max);
  }
  jack_free(names);
  return playback;
}

}  // namespace spindle::io
