#include "tools/JackTest.h"

#include <jack/jack.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace spindle::tools {
namespace {

// Shared between the caller and JACK's process thread. The process thread alone writes the
// histograms while the client is active; the caller reads them after jack_deactivate(),
// which waits for the last cycle to finish.
struct ProbeState {
  jack_client_t* client = nullptr;
  jack_port_t* port = nullptr;
  JackResult* result = nullptr;
  jack_time_t loadUs = 0;
  std::atomic<uint64_t> xruns{0};
  uint64_t cyclesSeen = 0;
};

constexpr uint64_t kSettleCycles = 8;  // the first cycles after activation are not typical

int processCallback(jack_nframes_t frames, void* arg) {
  auto* state = static_cast<ProbeState*>(arg);
  const jack_time_t start = jack_get_time();
  jack_nframes_t currentFrames = 0;
  jack_time_t currentUsecs = 0, nextUsecs = 0;
  float periodUsecs = 0;
  const bool timed = jack_get_cycle_times(state->client, &currentFrames, &currentUsecs, &nextUsecs, &periodUsecs) == 0;
  auto* out = static_cast<float*>(jack_port_get_buffer(state->port, frames));
  std::memset(out, 0, sizeof(float) * frames);
  while (jack_get_time() - start < state->loadUs) {
  }
  if (++state->cyclesSeen > kSettleCycles && timed) {
    state->result->lateness.add(start > currentUsecs ? start - currentUsecs : 0);
    state->result->duration.add(jack_get_time() - start);
    ++state->result->cycles;
  }
  return 0;
}

int xrunCallback(void* arg) {
  static_cast<ProbeState*>(arg)->xruns.fetch_add(1, std::memory_order_relaxed);
  return 0;
}

void quiet(const char*) {}

std::string serverNameFor(const JackOptions& options) {
  if (!options.serverName.empty()) return options.serverName;
  const char* env = std::getenv("JACK_DEFAULT_SERVER");
  return env && *env ? env : "default";
}

jack_client_t* openClient(JackResult& result) {
  jack_set_error_function(quiet);
  jack_set_info_function(quiet);
  jack_status_t status{};
  const auto flags = static_cast<jack_options_t>(JackNoStartServer | JackServerName);
  jack_client_t* client = jack_client_open("spindle-latency", flags, &status, result.serverName.c_str());
  if (!client) {
    result.note = "skipped: no JACK server '" + result.serverName + "' is running (spindle-latency never starts one)";
  }
  return client;
}

}  // namespace

JackResult runJackTest(const JackOptions& options) {
  JackResult result;
  result.serverName = serverNameFor(options);
  jack_client_t* client = openClient(result);
  if (!client) return result;
  ProbeState state;
  state.client = client;
  state.result = &result;
  result.sampleRate = jack_get_sample_rate(client);
  result.periodFrames = jack_get_buffer_size(client);
  const double periodUs = 1e6 * result.periodFrames / std::max<uint32_t>(result.sampleRate, 1);
  state.loadUs = static_cast<jack_time_t>(periodUs * options.loadPercent / 100.0);
  state.port = jack_port_register(client, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
  jack_set_process_callback(client, processCallback, &state);
  jack_set_xrun_callback(client, xrunCallback, &state);
  if (!state.port || jack_activate(client) != 0) {
    result.note = "skipped: could not register a port or activate on JACK server '" + result.serverName + "'";
    jack_client_close(client);
    return result;
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(options.seconds));
  jack_deactivate(client);
  jack_client_close(client);
  result.xruns = state.xruns.load(std::memory_order_relaxed);
  result.ran = true;
  return result;
}

}  // namespace spindle::tools
