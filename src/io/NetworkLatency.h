#pragma once
// NetworkLatency: what a Spindle on a NetJACK2 slave (`jackd -d net`) adds to the
// master's graph, from the values JACK gives the slave's clients.
//
// JACK 1.9.21's net driver declares on the slave's system:playback_N ports (their alias
// is net_pcm:to_master_:inN) a playback latency of
//     L * P / 2 + P        (default async mode; the slave's -l L periods, P = period)
// and the master's netmanager declares the other half (L * P / 2) on its
// midi_to_slave_N ports. From the master's MIDI output, through this host, back to the
// master's audio input a note takes
//     round trip = L * P + P = (L + 1) periods = 2 * playback - P
// frames: the slave's L periods of network buffering, split half each way, plus one
// master period in async mode. Spindle's own share is 0 frames (events render at their
// frame), so the master hears each note exactly this many frames after its event.
// A slave in sync mode (jackd -S) declares L * P / 2 alone; its ports do not tell the
// modes apart, so the figure assumes the default async mode (docs/cluster.md).
// Measured on the master through veth links at P 256: -l 0, 1, 2 gave 256, 512 and 768
// frames for every note (tests/net checks -l 1 and 2 on every run).
//
// Threads: fromPlayback is plain arithmetic (any thread); readNetJackPlayback reads the
// server's port table, JACK's latency callback thread or main.
#include <jack/types.h>

#include <cstdint>

namespace spindle::io {

struct NetworkLatency {
  uint32_t slavePeriods = 0;    // the slave's -l
  uint32_t roundTripFrames = 0; // master MIDI out -> this host -> master audio in; 0: not a slave
  uint32_t roundTripPeriods() const noexcept { return slavePeriods + 1; }

  // From the playback latency of the server's net ports and the period; a playback
  // latency below one period (not the async net driver's) gives no round trip.
  static NetworkLatency fromPlayback(uint32_t playbackFrames, uint32_t periodFrames) noexcept;
};

// The largest playback latency of the server's physical audio inputs that are a
// NetJACK2 slave's ports (alias net_pcm:...), or 0 when the server is not a net slave.
uint32_t readNetJackPlayback(jack_client_t* client) noexcept;

}  // namespace spindle::io
