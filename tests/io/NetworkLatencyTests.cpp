#include "catch.h"
#include "io/LiveStats.h"
#include "io/NetworkLatency.h"

namespace network_latency_tests {

using namespace spindle::io;

// The playback latencies JACK 1.9.21's net driver declares on a slave's system:playback
// ports (L * P / 2 + P, async) and the round trips tests/net measured through them.
TEST_CASE("NetworkLatency: the round trip from a NetJACK2 slave's playback latency", "[io][net]") {
  struct Case { uint32_t playback, period, slavePeriods, roundTrip; };
  for (const Case c : {Case{256, 256, 0, 256}, Case{384, 256, 1, 512}, Case{512, 256, 2, 768},
                       Case{768, 256, 4, 1280}, Case{1280, 512, 3, 2048}, Case{96, 64, 1, 128}}) {
    const NetworkLatency n = NetworkLatency::fromPlayback(c.playback, c.period);
    CHECK(n.slavePeriods == c.slavePeriods);
    CHECK(n.roundTripFrames == c.roundTrip);
    CHECK(n.roundTripPeriods() == c.slavePeriods + 1);
    CHECK(n.roundTripFrames == n.roundTripPeriods() * c.period);
  }
}

TEST_CASE("NetworkLatency: no round trip off a net slave", "[io][net]") {
  CHECK(NetworkLatency::fromPlayback(0, 256).roundTripFrames == 0);
  CHECK(NetworkLatency::fromPlayback(64, 256).roundTripFrames == 0);  // a sound card's
  CHECK(NetworkLatency::fromPlayback(512, 0).roundTripFrames == 0);
}

TEST_CASE("formatStats: the network line only on a slave", "[io][net]") {
  LiveStatsSnapshot s;
  s.sampleRate = 48000.0;
  s.periodFrames = 256;
  CHECK(formatStats(s).find("network:") == std::string::npos);
  s.networkRoundTripFrames = 768;
  s.networkSlavePeriods = 2;
  const std::string text = formatStats(s);
  CHECK(text.find("network:           NetJACK2 slave, round trip 768 frames (16.000 ms, 3 periods: the slave's -l 2 "
                  "+ 1 master period)") != std::string::npos);
}

}  // namespace network_latency_tests
