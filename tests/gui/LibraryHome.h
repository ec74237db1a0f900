#pragma once
// The library tests' fake home (GuiHarness.h's rig underneath): HOME and the XDG folders
// in a scratch directory holding an SFZ, a SoundFont of three presets (sines of 220, 440
// and 880 Hz), a Hydrogen kit and a broken file, and the helpers that find the browser's
// rows and wait for the index.
#include <QAbstractItemModel>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <map>

#include "GuiHarness.h"
#include "Sf2Writer.h"
#include "gui/LibraryBrowser.h"
#include "library/LibraryIndex.h"

namespace spindle::gui::test {

namespace fs = std::filesystem;

// A SoundFont whose presets 0:0, 0:1 and 0:2 each play one sine (220, 440, 880 Hz at key 69).
inline void writeThreePresetFont(const fs::path& file) {
  spindle::test::Sf2Spec font;
  font.name = "Test Font";
  const char* names[] = {"Alpha Pad", "Beta Keys", "Gamma Bells"};
  for (uint16_t i = 0; i < 3; ++i) {
    spindle::test::Sf2Sample sample;
    sample.name = std::string("sine") + std::to_string(i);
    sample.rate = static_cast<uint32_t>(kRate);
    sample.key = 69;
    sample.frames.resize(static_cast<std::size_t>(kRate));
    for (std::size_t f = 0; f < sample.frames.size(); ++f)
      sample.frames[f] = static_cast<int16_t>(12000.0 * std::sin(2.0 * M_PI * 220.0 * (1 << i) * static_cast<double>(f) / kRate));
    font.samples.push_back(sample);
    font.instruments.push_back({sample.name, {{{{53, i}}, {}}}});  // kSampleID i
    font.presets.push_back({names[i], i, 0, {{{{41, i}}, {}}}});    // kInstrument i
  }
  const std::vector<uint8_t> bytes = spindle::test::writeSf2(font);
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

inline void writeKit(const fs::path& folder) {
  fs::create_directories(folder);
  writeSineLibrary(folder / "sines");  // its samples: a kick to the kit
  fs::copy_file(folder / "sines" / "samples" / "low.wav", folder / "kick.wav");
  fs::remove_all(folder / "sines");
  std::ofstream(folder / "drumkit.xml") << "<drumkit_info><name>Test Kit</name><instrumentList><instrument><id>0</id>"
                                           "<name>Kick</name><filename>kick.wav</filename></instrument>"
                                           "</instrumentList></drumkit_info>";
}

// HOME and the XDG folders in a scratch directory, the four instruments in the first of
// the index's standard places, for as long as it lives.
struct FakeHome {
  QTemporaryDir dir;
  std::map<QByteArray, QByteArray> saved;
  fs::path library;
  QString sfz, font, kit, broken;

  FakeHome() {
    const fs::path root = dir.path().toStdString();
    for (const auto& [name, sub] : std::map<QByteArray, std::string>{{"HOME", "home"},
                                                                     {"XDG_DATA_HOME", "home/.local/share"},
                                                                     {"XDG_CACHE_HOME", "home/.cache"},
                                                                     {"XDG_CONFIG_HOME", "home/.config"},
                                                                     {"XDG_DATA_DIRS", "usr/share"}}) {
      saved[name] = qgetenv(name.constData());
      fs::create_directories(root / sub);
      qputenv(name.constData(), QByteArray::fromStdString((root / sub).string()));
    }
    const std::vector<fs::path> roots = library::standardRoots();
    library = roots.empty() ? root / "home" : roots.front();
    fs::create_directories(library);
    sfz = QString::fromStdString(writeSineLibrary(library / "Sines").string());
    font = QString::fromStdString((library / "Test Font.sf2").string());
    writeThreePresetFont(font.toStdString());
    writeKit(library / "Test Kit");
    kit = QString::fromStdString((library / "Test Kit").string());
    broken = QString::fromStdString((library / "Broken.sf2").string());
    std::ofstream(broken.toStdString()) << "RIFF\x10\0\0\0not a soundfont at all";
  }
  ~FakeHome() {
    for (const auto& [name, value] : saved) {
      if (value.isEmpty()) qunsetenv(name.constData());
      else qputenv(name.constData(), value);
    }
  }
};

// Lets the index's threads, the browser's timer and the link run until `done`.
template <typename Done>
inline bool waitUntil(Harness& h, Done done, int timeoutMs = 30000) {
  QElapsedTimer timer;
  timer.start();
  while (timer.elapsed() < timeoutMs) {
    QCoreApplication::processEvents();
    h.link.poll();
    h.render(1);
    if (done()) return true;
    QTest::qWait(5);
  }
  return false;
}

// The view's row (top level, or a preset under its font) whose name column reads `name`.
inline QModelIndex rowNamed(LibraryBrowser& browser, const QString& name, const QModelIndex& parent = {}) {
  const QAbstractItemModel* model = browser.view()->model();
  for (int r = 0; r < model->rowCount(parent); ++r) {
    const QModelIndex row = model->index(r, 0, parent);
    if (row.data().toString() == name || row.data().toString().endsWith(QLatin1Char(' ') + name)) return row;
    if (const QModelIndex below = rowNamed(browser, name, row); below.isValid()) return below;
  }
  return {};
}

}  // namespace spindle::gui::test
