// spindle-live-probe instrument DIR: the test instruments the live tests play.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "ProbeModes.h"
#include "io/WavWriter.h"

namespace spindle::live {

namespace {

// 20 s of a deterministic non-silent signal, mono: streamed past the preload.
bool writeLongSample(const std::filesystem::path& wavPath) {
  std::string error;
  auto wav = spindle::io::WavWriter::create(wavPath, 48000, spindle::io::WavFormat::Float32, error);
  if (!wav) return false;
  std::vector<float> block(4800);
  for (int b = 0; b < 200; ++b) {
    for (std::size_t i = 0; i < block.size(); ++i)
      block[i] = 0.25f * static_cast<float>(std::sin(0.01 * static_cast<double>(b * 4800 + static_cast<int>(i))));
    if (!wav->write(block.data(), block.data(), static_cast<int>(block.size()))) return false;
  }
  return wav->close();
}

}  // namespace

int writeInstrument(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  std::string error;
  auto wav = spindle::io::WavWriter::create(dir / "impulse.wav", 48000, spindle::io::WavFormat::Float32, error);
  std::vector<float> frames(64, 0.0f);
  frames[0] = 1.0f;
  if (!wav || !wav->write(frames.data(), frames.data(), 64) || !wav->close()) {
    std::cerr << "probe: cannot write impulse.wav: " << error << '\n';
    return 2;
  }
  std::ofstream sfz(dir / "impulse.sfz");
  sfz << "// One full-scale frame, then silence: its onset is the note's first output frame.\n"
         "<region> sample=impulse.wav lokey=0 hikey=127 pitch_keycenter=60 pitch_keytrack=0\n"
         "amp_veltrack=0 loop_mode=one_shot\n";
  std::ofstream streamed(dir / "streamed.sfz");
  streamed << "// 20 s streamed from disk; keys above 60 read it faster (up to 4x at key 84).\n"
              "<region> sample=long.wav lokey=0 hikey=127 pitch_keycenter=60 loop_mode=one_shot\n";
  // A constant level, looped: silent while the note's own pitch bend is fully down
  // (its amplitude follows controller 128, the note's bend on an MPE member channel), so
  // a bend's arrival is an onset (spindle-live-probe bend).
  std::vector<float> level(64, 0.5f);
  auto dc = spindle::io::WavWriter::create(dir / "dc.wav", 48000, spindle::io::WavFormat::Float32, error);
  const bool dcOk = dc && dc->write(level.data(), level.data(), 64) && dc->close();
  std::ofstream bend(dir / "bend.sfz");
  bend << "// Sounds as its note's bend goes up; silent at full bend down (amplitude_oncc128).\n"
          "<region> sample=dc.wav lokey=0 hikey=127 pitch_keycenter=60 pitch_keytrack=0 amp_veltrack=0\n"
          "loop_mode=loop_continuous loop_start=0 loop_end=63 amplitude_oncc128=100 ampeg_release=0\n";
  return sfz && streamed && dcOk && bend && writeLongSample(dir / "long.wav") ? 0 : 2;
}

}  // namespace spindle::live
