#include "SfzWriter.h"

#include <fstream>
#include <iomanip>
#include <ostream>
#include <stdexcept>

#include "Spec.h"

namespace spindle::instrument {
namespace {

// Within a layer the samples already carry the dynamics, so velocity only shades the
// level (-8 dB at velocity 1 rather than silence).
constexpr int kSustainVelTrack = 60;
// Key-off: soft releases are quieter, and the thump fades the longer the key was held
// (rt_decay, dB per second held) because a decayed tine has less left to damp.
constexpr int kReleaseVelTrack = 80;
constexpr double kReleaseRtDecay = 3.0;
constexpr double kReleaseVolume = -6.0;

void writeHeader(std::ostream& out) {
  out << "// Spindle EP: the bundled default instrument, a tine electric piano synthesised by\n"
         "// spindle-make-instrument (resources/instrument). Generated: edit the generator.\n"
      << "// " << kKeyCount << " sampled keys C2..C7 (every " << kKeyStep << " semitones), "
      << kLayers.size() << " velocity layers, " << kRoundRobins << " round robins, release samples.\n\n"
      << "<control> default_path=" << kSampleDir << "/\n\n"
      << "<global> ampeg_attack=0.001 ampeg_decay=0 ampeg_sustain=100 volume=-3\n";
}

void writeSustainGroup(std::ostream& out, int layer) {
  const VelocityLayer& l = kLayers[static_cast<std::size_t>(layer)];
  out << "\n<group> lovel=" << l.loVel << " hivel=" << l.hiVel << " seq_length=" << kRoundRobins
      << " amp_veltrack=" << kSustainVelTrack << "\n";
  for (int index = 0; index < kKeyCount; ++index) {
    const int key = sampledKey(index);
    for (int rr = 0; rr < kRoundRobins; ++rr) {
      out << "<region> sample=" << sustainFileName(key, layer, rr) << " lokey=" << loKeyOf(index)
          << " hikey=" << hiKeyOf(index) << " pitch_keycenter=" << key << " seq_position=" << rr + 1
          << " ampeg_release=" << releaseTime(key) << "\n";
    }
  }
}

void writeReleaseGroup(std::ostream& out) {
  out << "\n<group> trigger=release rt_decay=" << kReleaseRtDecay << " volume=" << kReleaseVolume
      << " amp_veltrack=" << kReleaseVelTrack << " ampeg_release=0.05\n";
  for (int index = 0; index < kKeyCount; ++index) {
    const int key = sampledKey(index);
    out << "<region> sample=" << releaseFileName(key) << " lokey=" << loKeyOf(index) << " hikey=" << hiKeyOf(index)
        << " pitch_keycenter=" << key << "\n";
  }
}

}  // namespace

void writeSfz(const std::filesystem::path& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot create " + path.string());
  out << std::fixed << std::setprecision(3);
  writeHeader(out);
  for (int layer = 0; layer < static_cast<int>(kLayers.size()); ++layer) writeSustainGroup(out, layer);
  writeReleaseGroup(out);
  out.flush();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace spindle::instrument
