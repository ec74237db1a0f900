#pragma once
// OfflineRenderer: plays a timed list of MIDI events through an Engine as fast as
// the CPU allows, block by block, and hands every rendered block to a sink.
//
// Thread: one thread plays both roles the live wiring splits, in turn: it posts
// nothing itself (the caller posts SetProgram etc. before render()), then calls
// Engine::process() as the audio thread would, block after block.
//
// Each block covers `blockFrames` frames (fewer before a tempo change); an event at absolute frame F lands in the
// block holding F at offset F - blockStart, so timing is sample-accurate whatever
// the block size. A block never carries more than limits::kMaxEventsPerBlock
// events: when more fall inside one, the block is cut short before the first that
// does not fit (when all of them share one frame the excess is delayed by 1 frame).
//
// After the last event (and the song's own end) the renderer continues until the
// engine reports no active voice and no sounding effect (the reverb and chorus tails
// end below -120 dBFS for a whole block), or until `tailCapSeconds` have passed with
// voices still active, or `effectTailCapSeconds` after the last voice ended.
//
// Nothing here is real-time: blocks go through Engine::processWaiting, which waits for
// the disk before each stretch of frames, so a streamed render does not depend on the
// disk's speed and equals a render with every sample in RAM. RenderOptions::live
// renders as a live audio thread would instead (Engine::process: nothing waits).
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/Engine.h"
#include "io/MidiFile.h"

namespace spindle::io {

struct RenderOptions {
  int blockFrames = 256;          // <= the engine's maxBlockFrames
  double endSeconds = 0.0;        // render at least this long (the song's length)
  double tailCapSeconds = 30.0;   // after the last event, at most this much tail
  // Runs before every block (tests: let the disk catch up between live blocks).
  std::function<void()> beforeBlock = {};
  // The song's tempo changes (MidiSong::tempos): each reaches the engine
  // (Engine::setSongTempo) at its frame, which starts a block.
  std::vector<TempoChange> tempos = {};
  // Engine::process as a live audio thread calls it (streams never waited for) instead
  // of Engine::processWaiting.
  bool live = false;
  double effectTailCapSeconds = 10.0;  // after the last voice ended, at most this much effect tail
};

struct RenderStats {
  int64_t frames = 0;             // frames rendered and written
  int64_t lastEventFrame = 0;
  uint32_t peakVoices = 0;
  uint64_t notesStarted = 0, voicesStolen = 0;
  double wallSeconds = 0.0;       // the whole render loop, sink included
  double cpuSeconds = 0.0;        // process CPU time over the same span
  double processSeconds = 0.0;    // wall time inside Engine::process alone
  bool tailCapped = false;        // voices still sounded when the tail cap was hit
  bool sinkFailed = false;        // the sink refused a block; rendering stopped
};

class OfflineRenderer {
 public:
  // Receives each block; returns false to stop rendering (e.g. a write error).
  using Sink = std::function<bool(const float* left, const float* right, int frames)>;

  OfflineRenderer(engine::Engine& engine, RenderOptions options);
  RenderStats render(const std::vector<TimedMidiEvent>& events, const Sink& sink);

 private:
  int gatherBlock(const std::vector<int64_t>& frames, const std::vector<TimedMidiEvent>& events,
                  std::size_t& next, int64_t blockStart, int maxLength);
  // Applies the tempo changes due by `frame`; returns the frames until the next one.
  int64_t applyTempos(std::size_t& next, int64_t frame) const;
  bool finished(std::size_t next, std::size_t eventCount, int64_t frame, int64_t endFrame,
                int64_t capFrame, RenderStats& stats);

  engine::Engine& engine_;
  RenderOptions options_;
  std::vector<MidiEvent> blockEvents_;
  std::vector<float> left_, right_;
  int64_t voicesEnded_ = -1;  // the frame from which no voice sounded, while effects ring on
};

}  // namespace spindle::io
