// The Libraries panel over 2,000 generated instruments (1,900 SFZ, 100 SoundFonts of one
// preset) in the fake home (LibraryHome.h), cold: the window's index scans them on its
// own thread while the gui thread's event loop keeps turning, and the browser ends with
// every one listed. What is checked holds on any machine: the rows, the thread that
// scanned, the progress the gui thread saw between turns, the model growing in batches
// of at most LibraryModel::kBatchRows rows. How long the event loop stalls
// meanwhile is measured, not asserted: bench/library_gui.py.
#include <sys/syscall.h>
#include <unistd.h>

#include <QTreeView>
#include <QtTest>
#include <algorithm>
#include <set>

#include "LibraryHome.h"
#include "ThreadNamed.h"

namespace spindle::gui::test {

namespace {

constexpr int kSfz = 1900, kFonts = 100;

// kSfz SFZ files in folders of 100, each folder's over four shared WAV files, and kFonts
// SoundFonts of one preset each.
void writeMany(const fs::path& folder) {
  for (int i = 0; i < kSfz; ++i) {
    const fs::path group = folder / ("lib" + std::to_string(i / 100));
    if (i % 100 == 0) {
      writeSineLibrary(group);  // samples/low.wav, mid.wav, high.wav, and an SFZ not counted here
      fs::remove(group / "Sine Test.sfz");
    }
    std::ofstream(group / ("inst" + std::to_string(i) + ".sfz"))
        << "<control> default_path=samples/ label_cc1=Tone\n<region> sample=low.wav hikey=59\n"
           "<region> sample=mid.wav lokey=60 hikey=79\n<region> sample=high.wav lokey=80\n";
  }
  spindle::test::Sf2Spec font;
  spindle::test::Sf2Sample sample;
  sample.name = "s";
  sample.frames.assign(500, 1000);
  font.samples.push_back(sample);
  font.instruments.push_back({"i", {{{{53, 0}}, {}}}});
  font.presets.push_back({"One", 0, 0, {{{{41, 0}}, {}}}});
  const std::vector<uint8_t> bytes = spindle::test::writeSf2(font);
  fs::create_directories(folder / "fonts");
  for (int i = 0; i < kFonts; ++i)
    std::ofstream(folder / "fonts" / ("font" + std::to_string(i) + ".sf2"), std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// The entries and preset rows of the source model whose files lie under `prefix`.
std::pair<int, int> rowsUnder(const LibraryModel& model, const QString& prefix) {
  int entries = 0, presets = 0;
  for (int r = 0; r < model.rowCount(); ++r) {
    const QModelIndex row = model.index(r, 0);
    if (!row.data(LibraryModel::PathRole).toString().startsWith(prefix)) continue;
    ++entries;
    presets += model.rowCount(row);
  }
  return {entries, presets};
}

// The model's insertions: the rows each brought (an entry's presets included), the most
// that one of several entries brought (a single font may bring more: its presets come
// with it), and resets.
struct Insertions {
  int count = 0, rows = 0, most = 0, resets = 0;

  void watch(const LibraryModel& model) {
    const auto inserted = [this, &model](const QModelIndex& parent, int first, int last) {
      if (parent.isValid()) return;
      int brought = 0;
      for (int r = first; r <= last; ++r) brought += 1 + model.rowCount(model.index(r, 0));
      ++count;
      rows += brought;
      if (last > first) most = std::max(most, brought);
    };
    QObject::connect(&model, &QAbstractItemModel::rowsInserted, inserted);
    QObject::connect(&model, &QAbstractItemModel::modelReset, [this] { ++resets; });
  }
};

}  // namespace

class LibraryScaleTests : public QObject {
  Q_OBJECT

 private slots:
  void coldScanOfTwoThousandInstruments() {
    FakeHome home;
    const fs::path many = home.library / "Many";
    writeMany(many);
    const QString prefix = QString::fromStdString(many.string());
    Harness h;  // the window starts its index: no cache in the fake home, so a cold scan
    LibraryBrowser& browser = *h.window.browser();
    library::Index& index = h.window.libraryIndex();
    const pid_t gui = static_cast<pid_t>(syscall(SYS_gettid));
    const int shownAtStart = browser.model().rowCount();
    Insertions insertions;
    insertions.watch(browser.model());
    pid_t scanner = 0;
    std::set<int> between;  // progress the gui thread saw strictly inside the scan
    QVERIFY(waitUntil(
        h,
        [&] {
          const library::Progress p = index.progress();
          if (p.scanning && p.done > 0 && p.done < p.total) between.insert(p.done);
          if (p.scanning && scanner == 0) scanner = threadNamed("library");
          return !p.scanning && browser.model().pendingCount() == 0 &&
                 rowsUnder(browser.model(), prefix).first >= kSfz + kFonts;
        },
        180000));
    QCOMPARE(rowsUnder(browser.model(), prefix), std::make_pair(kSfz + kFonts, kFonts));
    QVERIFY(index.loads() >= static_cast<std::uint64_t>(kSfz + kFonts));  // each read by the loader: cold
    QVERIFY2(between.size() >= 2, qPrintable(QString::number(between.size())));
    QVERIFY(scanner != 0);
    QVERIFY(scanner != gui);
    // The list grew a batch at a time (a batch per event-loop turn), never in one reset.
    QCOMPARE(insertions.resets, 0);
    QVERIFY2(insertions.most <= LibraryModel::kBatchRows, qPrintable(QString::number(insertions.most)));
    QVERIFY(insertions.rows >= kSfz + 2 * kFonts - shownAtStart);
    QVERIFY(insertions.count >= (kSfz + 2 * kFonts - shownAtStart) / LibraryModel::kBatchRows);
  }
};

int runLibraryScaleTests(int argc, char** argv) {
  LibraryScaleTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "LibraryScaleTests.moc"
