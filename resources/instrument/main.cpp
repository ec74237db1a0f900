// spindle-make-instrument OUTDIR
//
// Synthesises Spindle's bundled default instrument, "Spindle EP", so that Spindle makes
// sound with no sample library at hand. Writes OUTDIR/spindle-ep.sfz, OUTDIR/samples/*.flac
// (mono, 48 kHz, 24-bit) and OUTDIR/demo.mid. Output is bit-for-bit deterministic.
//
// The synthesis model (TineModel.cpp), and why it sounds like a tine electric piano:
//  * A tine is a thin steel cantilever struck by a felt hammer. Its displacement is a sum
//    of exponentially decaying modes: the fundamental (tuned exactly to the key, with a
//    fast-decaying share on top of a slow one, giving the percussive "ping" then a long
//    bloom of 6 s in the bass down to 2 s in the treble), and the first two bending modes
//    at 6.27x and 17.55x the fundamental. Those are inharmonic and die within a few tenths
//    of a second: the metallic clang at the start of every note.
//  * The hammer's contact time shortens as it is struck harder (the felt stiffens), so a
//    hard strike starts with a sharper edge. The bending modes grow with the square of the
//    strike strength, the fundamental only linearly.
//  * The electromagnetic pickup is a nonlinear, off-centre reader of the tine's position:
//    the flux is tanh(drive * x + bias) - tanh(bias), and the coil outputs its rate of
//    change (a first difference: +6 dB/octave, no DC). A gentle strike stays in its linear
//    part and sounds round and sine-like; a hard one swings into the curve, and because the
//    tine sits off-axis the saturation is asymmetric, adding even harmonics - the "bark".
//    This, not just loudness, is why the three velocity layers get brighter as they rise.
//  * A little low-passed noise adds the hammer's thump; its cutoff rises with strength.
//  * Round robins keep the pitch but change what a real second strike changes: the noise
//    seed, the bending-mode tuning (+0.45 %), the tine's rest position (pickup bias), the
//    hammer's contact time and the balance of the fast and slow decays.
//  * Release samples are the damper felt landing: a low noise "thunk" and the tine choked
//    to silence within ~0.1 s.
#include <chrono>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>

#include "DemoSong.h"
#include "SampleFile.h"
#include "SfzWriter.h"
#include "Spec.h"
#include "TineModel.h"

namespace {

using namespace spindle::instrument;
namespace fs = std::filesystem;

// Every sustain sample: all keys x velocity layers x round robins. Returns frames written.
std::int64_t writeSustainSamples(const fs::path& sampleDir) {
  std::int64_t total = 0;
  for (int index = 0; index < kKeyCount; ++index) {
    const int key = sampledKey(index);
    for (std::size_t layer = 0; layer < kLayers.size(); ++layer) {
      for (int rr = 0; rr < kRoundRobins; ++rr) {
        const Strike strike{key, kLayers[layer].strike, rr};
        const auto frames = renderSustain(strike, sustainFrames(key), kLayers[layer].peakLevel);
        writeFlac24(sampleDir / sustainFileName(key, static_cast<int>(layer), rr), frames);
        total += static_cast<std::int64_t>(frames.size());
      }
    }
  }
  return total;
}

std::int64_t writeReleaseSamples(const fs::path& sampleDir) {
  std::int64_t total = 0;
  for (int index = 0; index < kKeyCount; ++index) {
    const int key = sampledKey(index);
    const auto frames = renderRelease(key, releaseFrames(), kReleasePeakLevel);
    writeFlac24(sampleDir / releaseFileName(key), frames);
    total += static_cast<std::int64_t>(frames.size());
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: spindle-make-instrument OUTDIR\n";
    return 2;
  }
  try {
    const auto start = std::chrono::steady_clock::now();
    const fs::path outDir = argv[1];
    fs::create_directories(outDir / kSampleDir);
    const std::int64_t frames = writeSustainSamples(outDir / kSampleDir) + writeReleaseSamples(outDir / kSampleDir);
    writeSfz(outDir / kSfzFileName);
    writeDemoSong(outDir / kMidiFileName);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    std::cout << "spindle-make-instrument: " << outDir.string() << ": " << frames << " frames ("
              << static_cast<double>(frames) / kSampleRate << " s of audio) in " << elapsed.count() << " s\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "spindle-make-instrument: " << e.what() << "\n";
    return 1;
  }
}
