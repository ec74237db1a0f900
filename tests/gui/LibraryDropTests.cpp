// Dragging from the Libraries panel onto a part strip, with the real index, model and
// strips (LibraryHome.h's fake home): the browser's rows give the drag its QMimeData as
// the view's startDrag does (the view's model, the row's indexes), and the strip gets
// the QDragEnterEvent and QDropEvent a display server would send. A dropped entry loads
// into that part; a dropped SoundFont preset loads its font there and selects that
// preset there only; the parts with an instrument of their own keep it.
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QCheckBox>
#include <QMimeData>
#include <QTreeView>
#include <QtTest>
#include <array>
#include <memory>

#include "LibraryHome.h"

namespace spindle::gui::test {

namespace {

// What the view's startDrag hands the drag: the model's data for the row's indexes.
std::unique_ptr<QMimeData> dragOf(LibraryBrowser& browser, const QModelIndex& row) {
  const QAbstractItemModel* model = browser.view()->model();
  QModelIndexList indexes;
  for (int c = 0; c < model->columnCount(row.parent()); ++c) indexes << row.siblingAtColumn(c);
  return std::unique_ptr<QMimeData>(model->mimeData(indexes));
}

// Enters `strip` with `mime` and drops it there; true when both were accepted.
bool dropOnto(PartStrip* strip, const QMimeData& mime) {
  const QPoint at = strip->rect().center();
  QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(strip, &enter);
  if (!enter.isAccepted()) return false;
  QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(strip, &drop);
  return drop.isAccepted();
}

struct Parts {
  std::array<QString, limits::kChannels> paths;
  std::array<const engine::Program*, limits::kChannels> programs{};
};

Parts partsNow(Harness& h) {
  Parts now;
  const engine::EngineStats stats = h.engine.stats();
  for (std::size_t p = 0; p < limits::kChannels; ++p) {
    now.paths[p] = h.link.part(static_cast<int>(p)).path;
    now.programs[p] = stats.parts[p].program;
  }
  return now;
}

// Key 69 on part `part`'s channel, its pitch in Hz.
double pitchOfA4(Harness& h, int part) {
  h.render(2);
  h.clear();
  h.link.sendMidi(static_cast<uint8_t>(0x90 | part), 69, 100);
  h.render(40);
  h.link.sendMidi(static_cast<uint8_t>(0x80 | part), 69, 0);
  h.render(20);
  return frequency(h.left, kRate);
}

}  // namespace

class LibraryDropTests : public QObject {
  Q_OBJECT

 private slots:
  // An SFZ row dropped on part 4's strip loads it there; part 1's instrument and the
  // empty parts stay as they were.
  void droppedEntryLoadsIntoThatPart() {
    FakeHome home;
    Harness h;
    LibraryBrowser& browser = *h.window.browser();
    QVERIFY(waitUntil(h, [&] { return rowNamed(browser, QStringLiteral("Sine Test")).isValid(); }));
    h.window.loadInto(0, home.sfz);
    QVERIFY(h.waitForLoad(0));
    const Parts before = partsNow(h);
    QVERIFY(before.programs[0] != nullptr);

    const std::unique_ptr<QMimeData> mime = dragOf(browser, rowNamed(browser, QStringLiteral("Sine Test")));
    QCOMPARE(mime->urls().size(), 1);
    QCOMPARE(mime->urls().front().toLocalFile(), home.sfz);
    QVERIFY(dropOnto(h.window.strip(3), *mime));
    QVERIFY(waitUntil(h, [&] { return h.link.part(3).path == home.sfz && !h.link.loading(3); }));
    QVERIFY(h.waitForLoad(3));
    h.render(2);
    const Parts after = partsNow(h);
    QCOMPARE(h.link.part(3).name, QStringLiteral("Sine Test"));
    QVERIFY(after.programs[3] != nullptr);
    for (std::size_t p = 0; p < limits::kChannels; ++p) {
      if (p == 3) continue;
      QCOMPARE(after.paths[p], before.paths[p]);
      QCOMPARE(after.programs[p], before.programs[p]);
    }
    QCOMPARE(std::round(pitchOfA4(h, 3)), 440.0);  // the sine library's A4
  }

  // A preset row (Gamma Bells, 0:2, 880 Hz) dropped on part 6 loads its font there and
  // selects that preset there: part 6 plays 880 Hz. Part 1 keeps its SFZ; the empty
  // parts, which play a loaded font as General MIDI asks, keep their own preset (0:0,
  // 220 Hz), so the dropped preset reached part 6 only.
  void droppedPresetLoadsThatPresetIntoThatPart() {
    FakeHome home;
    Harness h;
    LibraryBrowser& browser = *h.window.browser();
    QVERIFY(waitUntil(h, [&] { return rowNamed(browser, QStringLiteral("Gamma Bells")).isValid(); }));
    h.window.loadInto(0, home.sfz);
    QVERIFY(h.waitForLoad(0));
    const Parts before = partsNow(h);

    const QModelIndex font = rowNamed(browser, QStringLiteral("Test Font"));
    const std::unique_ptr<QMimeData> mime = dragOf(browser, rowNamed(browser, QStringLiteral("Gamma Bells"), font));
    QCOMPARE(mime->urls().size(), 1);
    QCOMPARE(mime->urls().front().toLocalFile(), home.font);
    QCOMPARE(mime->urls().front().fragment(), QStringLiteral("preset=2"));
    QVERIFY(dropOnto(h.window.strip(5), *mime));
    QVERIFY(waitUntil(h, [&] { return h.link.part(5).path == home.font && !h.link.loading(5); }));
    QVERIFY(h.waitForLoad(5));
    QCOMPARE(h.link.part(5).name, QStringLiteral("Test Font"));
    const Parts after = partsNow(h);
    QCOMPARE(after.paths[0], before.paths[0]);
    QCOMPARE(after.programs[0], before.programs[0]);
    QCOMPARE(std::round(pitchOfA4(h, 5)), 880.0);  // Gamma Bells, not the font's first preset
    QCOMPARE(std::round(pitchOfA4(h, 0)), 440.0);  // part 1: still the sine library
    QCOMPARE(std::round(pitchOfA4(h, 7)), 220.0);  // an empty part: the font's 0:0, not 0:2
    QVERIFY(browser.marks().recent().contains(LibraryMarks::key(home.font, 2)));
  }

  // A folder row carries no file: a strip refuses it, and nothing loads.
  void droppedFolderIsRefused() {
    FakeHome home;
    Harness h;
    LibraryBrowser& browser = *h.window.browser();
    QVERIFY(waitUntil(h, [&] { return rowNamed(browser, QStringLiteral("Sine Test")).isValid(); }));
    browser.foldersBox()->setChecked(true);
    const QModelIndex folder = browser.view()->model()->index(0, 0);
    QCOMPARE(folder.data(LibraryModel::KindRole).toInt(), static_cast<int>(LibraryModel::FolderRow));
    const std::unique_ptr<QMimeData> mime = dragOf(browser, folder);
    QVERIFY(mime->urls().isEmpty());
    QVERIFY(!dropOnto(h.window.strip(2), *mime));
    h.link.poll();
    QVERIFY(!h.link.loading(2));
    QVERIFY(h.link.part(2).path.isEmpty());
  }
};

int runLibraryDropTests(int argc, char** argv) {
  LibraryDropTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "LibraryDropTests.moc"
