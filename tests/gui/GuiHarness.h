#pragma once
// The GUI tests' rig: a real Engine driven block by block through io::LiveProcessor,
// the path a live backend takes (beginCycle/endCycle on "the audio thread", which
// here is the test's thread between GUI events), the session's Control over it (what
// OSC drives: `control`), an EngineLink and a MainWindow on top, settings in a
// temporary directory. Plus a generated sine library.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSettings>
#include <QTemporaryDir>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/Engine.h"
#include "gui/EngineLink.h"
#include "gui/MainWindow.h"
#include "gui/PartStrip.h"
#include "io/LiveProcessor.h"
#include "io/ProcessTimer.h"
#include "io/WavWriter.h"
#include "session/Control.h"

namespace spindle::gui::test {

inline constexpr double kRate = 48000.0;
inline constexpr int kBlock = 256;

inline engine::EngineConfig engineConfig() {
  engine::EngineConfig config;
  config.sampleRate = kRate;
  config.maxBlockFrames = kBlock;
  config.polyphony = 32;
  return config;
}

struct Harness {
  QTemporaryDir dir;
  control::ProblemLog problems;
  session::Library library{stream::PoolOptions{}};
  engine::Engine engine{engineConfig()};
  io::LiveProcessor live{engine};
  session::Control control{engine, live, 0, library, problems};
  EngineLink link{control, {"test", 0, false, false}};
  QSettings store{dir.filePath(QStringLiteral("spindle.conf")), QSettings::IniFormat};
  MainWindow window{link, store};
  uint64_t frame = 0;
  std::vector<float> left, right;  // everything rendered since the last clear()

  Harness() {
    window.show();  // laid out as a user would see it (offscreen)
    QCoreApplication::processEvents();
  }

  // Renders `blocks` periods; `rate` is the rate the cycle claims (its time budget).
  // The window's notes and controls are stamped with the frame the wall clock gives them
  // (Control::sendMidiAt), which runs ahead of these renders whenever the test thread was
  // slow between two of them (a loaded machine): the periods up to that frame are
  // rendered first, as a sound server's clock would have played them.
  void render(int blocks, double rate = kRate, uint64_t skipFrames = 0) {
    catchUp(rate);
    for (int b = 0; b < blocks; ++b) {
      frame += skipFrames;
      skipFrames = 0;
      renderPeriod(rate);
    }
  }
  void renderPeriod(double rate) {
    std::vector<float> l(kBlock), r(kBlock);
    live.beginCycle(io::CycleStart{frame, kBlock, io::monotonicNs(), rate});
    live.endCycle(l.data(), r.data());
    left.insert(left.end(), l.begin(), l.end());
    right.insert(right.end(), r.begin(), r.end());
    frame += kBlock;
  }
  void catchUp(double rate) {
    constexpr uint64_t kAtMost = 10 * static_cast<uint64_t>(kRate);  // a stall longer than 10 s is a failure
    const std::optional<uint64_t> due = live.clock().frameAt(io::monotonicNs());
    for (uint64_t played = 0; due && frame < *due && played < kAtMost; played += kBlock) renderPeriod(rate);
  }
  void clear() {
    left.clear();
    right.clear();
  }
  // Polls the link (what its 30 Hz timer does) and renders, until `part` is loaded.
  bool waitForLoad(int part, int timeoutMs = 60000) {
    QElapsedTimer timer;
    timer.start();
    do {
      QCoreApplication::processEvents();
      link.poll();
      render(1);
      if (!link.loading(part) && !window.strip(part)->isLoading()) return true;
    } while (timer.elapsed() < timeoutMs);
    return false;
  }
};

// Peak of a span of frames.
inline float peak(const std::vector<float>& x, std::size_t from = 0) {
  float p = 0.0f;
  for (std::size_t i = from; i < x.size(); ++i) p = std::max(p, std::abs(x[i]));
  return p;
}

// Frequency from rising zero crossings, over the frames after the first audible one.
inline double frequency(const std::vector<float>& x, double rate) {
  std::size_t start = 0;
  while (start < x.size() && std::abs(x[start]) < 1e-3f) ++start;
  int crossings = 0;
  std::size_t first = 0, last = 0;
  for (std::size_t i = start + 1; i < x.size(); ++i)
    if (x[i - 1] < 0.0f && x[i] >= 0.0f) {
      if (crossings++ == 0) first = i;
      last = i;
    }
  return crossings > 1 ? (crossings - 1) * rate / static_cast<double>(last - first) : 0.0;
}

// A library in `folder`: three sine samples (A4 = 440 Hz each, played at their own key
// ranges), plus one unknown opcode and one missing sample for the problems panel.
inline std::filesystem::path writeSineLibrary(const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder / "samples");
  std::vector<float> sine(static_cast<std::size_t>(kRate));
  for (std::size_t i = 0; i < sine.size(); ++i)
    sine[i] = 0.5f * static_cast<float>(std::sin(2.0 * M_PI * 440.0 * static_cast<double>(i) / kRate));
  for (const char* name : {"low.wav", "mid.wav", "high.wav"}) {
    std::string error;
    auto writer = io::WavWriter::create(folder / "samples" / name, static_cast<int>(kRate), io::WavFormat::Float32, error);
    writer->write(sine.data(), sine.data(), static_cast<int64_t>(sine.size()));
    writer->close();
  }
  const std::filesystem::path sfz = folder / "Sine Test.sfz";
  std::ofstream out(sfz);
  out << "<control> default_path=samples/\n"
         "<global> ampeg_release=0.01 unknown_opcode_xyz=1\n"
         "<region> sample=low.wav lokey=24 hikey=59 pitch_keycenter=69\n"
         "<region> sample=mid.wav lokey=60 hikey=79 pitch_keycenter=69\n"
         "<region> sample=high.wav lokey=80 hikey=96 pitch_keycenter=69\n"
         "<region> sample=missing.wav lokey=97 hikey=100\n";
  return sfz;
}

}  // namespace spindle::gui::test
