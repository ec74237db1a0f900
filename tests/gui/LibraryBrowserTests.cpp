// The Libraries panel against the real library index and a real engine (GuiHarness.h),
// offscreen, with HOME and the XDG folders in a scratch directory holding an SFZ, a
// SoundFont of three presets (sines of 220, 440 and 880 Hz), a Hydrogen kit and a broken
// file: the browser lists what the index found at the window's first start, typing
// filters it, a click auditions an entry on the preview part (counted there; no part's
// instrument changes), a double-click loads it (or a font's preset) into the selected part.
#include <QAbstractItemView>
#include <QLineEdit>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTreeView>
#include <QtTest>

#include "LibraryHome.h"
#include "gui/Audition.h"

namespace spindle::gui::test {

namespace {

// The entry and preset rows the view shows of the fake home's library (the index's fixed
// places may hold more on this machine).
int shownHere(const QAbstractItemModel& model, const QString& library, const QModelIndex& parent = {}) {
  int count = 0;
  for (int r = 0; r < model.rowCount(parent); ++r) {
    const QModelIndex row = model.index(r, 0, parent);
    if (row.data(LibraryModel::PathRole).toString().startsWith(library)) ++count;
    count += shownHere(model, library, row);
  }
  return count;
}

bool listed(Harness& h, const QStringList& names) {
  for (const QString& name : names)
    if (!rowNamed(*h.window.browser(), name).isValid()) return false;
  return true;
}

void click(LibraryBrowser& browser, const QModelIndex& row, bool twice) {
  QTreeView* view = browser.view();
  view->scrollTo(row);
  const QPoint at = view->visualRect(row).center();
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
  if (!twice) return;
  // What a display server sends for the second press of a double-click, then its release.
  QMouseEvent second(QEvent::MouseButtonDblClick, QPointF(at), view->viewport()->mapToGlobal(QPointF(at)), Qt::LeftButton,
                     Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(view->viewport(), &second);
  QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, at);
}

}  // namespace

class LibraryBrowserTests : public QObject {
  Q_OBJECT

 private slots:
  // The first start lists the SFZ, the font with its three presets under it and the kit;
  // the broken file, if the index lists it at all, carries its error.
  void firstStartListsWhatTheIndexFound() {
    FakeHome home;
    Harness h;
    LibraryBrowser& browser = *h.window.browser();
    QVERIFY(waitUntil(h, [&] { return listed(h, {"Sine Test", "Test Font", "Test Kit"}); }));
    const QModelIndex font = rowNamed(browser, QStringLiteral("Test Font"));
    QCOMPARE(browser.view()->model()->rowCount(font), 3);
    for (const char* preset : {"Alpha Pad", "Beta Keys", "Gamma Bells"}) QVERIFY(rowNamed(browser, preset, font).isValid());
    QCOMPARE(rowNamed(browser, QStringLiteral("Beta Keys"), font).data(LibraryModel::PresetRole).toInt(), 1);
    const QModelIndex broken = rowNamed(browser, QStringLiteral("Broken"));
    if (broken.isValid()) QVERIFY(browser.model().entry(browser.filter().mapToSource(broken))->error.size() > 0);
    const QString library = QString::fromStdString(home.library.string());
    QCOMPARE(shownHere(browser.filter(), library), 6 + (broken.isValid() ? 1 : 0));
  }

  // Each word typed narrows the list at once: a name, a preset's name (its font shows
  // with it), a format, nothing at all.
  void typingFilters() {
    FakeHome home;
    Harness h;
    LibraryBrowser& browser = *h.window.browser();
    QVERIFY(waitUntil(h, [&] { return listed(h, {"Sine Test", "Test Font", "Test Kit"}); }));
    const QString library = QString::fromStdString(home.library.string());
    const int all = shownHere(browser.filter(), library);
    QVERIFY(all >= 6);
    QTest::keyClicks(browser.searchField(), QStringLiteral("sine te"));
    QCOMPARE(shownHere(browser.filter(), library), 1);
    QCOMPARE(browser.filter().shownEntries(), 1);
    browser.searchField()->clear();
    QTest::keyClicks(browser.searchField(), QStringLiteral("gamma"));
    QCOMPARE(shownHere(browser.filter(), library), 2);  // the font and its preset
    QVERIFY(rowNamed(browser, QStringLiteral("Gamma Bells")).isValid());
    QVERIFY(!rowNamed(browser, QStringLiteral("Alpha Pad")).isValid());
    browser.searchField()->setText(QStringLiteral("test font"));
    QCOMPARE(shownHere(browser.filter(), library), 4);  // the font and its three presets
    browser.searchField()->setText(QStringLiteral("zzz no such"));
    QCOMPARE(browser.filter().shownEntries(), 0);
    browser.searchField()->clear();
    QCOMPARE(shownHere(browser.filter(), library), all);
  }

  // A click auditions the entry on the preview part: its notes are counted there and
  // sound, and no part's instrument changes.
  void clickAuditionsOnThePreviewPart() {
    FakeHome home;
    Harness h;
    LibraryBrowser& browser = *h.window.browser();
    QVERIFY(waitUntil(h, [&] { return listed(h, {"Sine Test", "Test Font"}); }));
    h.window.loadInto(2, home.sfz);
    QVERIFY(h.waitForLoad(2));
    std::array<QString, limits::kChannels> names;
    std::array<const engine::Program*, limits::kChannels> programs{};
    for (int p = 0; p < limits::kChannels; ++p) names[static_cast<std::size_t>(p)] = h.link.part(p).path;
    const engine::EngineStats before = h.engine.stats();
    for (int p = 0; p < limits::kChannels; ++p) programs[static_cast<std::size_t>(p)] = before.parts[static_cast<std::size_t>(p)].program;

    click(browser, rowNamed(browser, QStringLiteral("Gamma Bells")), false);
    QVERIFY(waitUntil(h, [&] { return h.engine.stats().previewNotes >= 1; }));
    h.clear();
    QVERIFY(waitUntil(h, [&] { return h.engine.stats().previewNotes >= 3; }));
    QVERIFY(peak(h.left) > 0.05f);  // the phrase sounds in the main output
    const session::PreviewState state = h.link.previewState();
    QCOMPARE(QString::fromStdString(state.path), home.font);
    QCOMPARE(state.preset, 2);
    const engine::EngineStats after = h.engine.stats();
    for (int p = 0; p < limits::kChannels; ++p) {
      QCOMPARE(h.link.part(p).path, names[static_cast<std::size_t>(p)]);
      QCOMPARE(after.parts[static_cast<std::size_t>(p)].program, programs[static_cast<std::size_t>(p)]);
    }
    QCOMPARE(h.link.part(2).name, QStringLiteral("Sine Test"));
  }

  // The audition itself, as a click starts it: the font's preset 0:1 loads on the preview
  // part and its phrase (three keys of the preset's range) plays there at 440 Hz (Beta
  // Keys' sine), while part 1's instrument stays; a new choice silences the one before.
  void auditionPlaysAPresetOnThePreviewPart() {
    FakeHome home;
    Harness h;
    h.window.loadInto(0, home.sfz);
    QVERIFY(h.waitForLoad(0));
    const engine::Program* part1 = h.engine.stats().parts[0].program;
    QVERIFY(part1 != nullptr);
    h.window.audition()->start(home.font, 1);
    QVERIFY(waitUntil(h, [&] { return h.engine.stats().previewNotes >= 1; }));
    QVERIFY(h.window.audition()->active());
    QCOMPARE(Audition::phrase(-1, -1), (std::vector<int>{60, 64, 67}));
    QCOMPARE(Audition::phrase(36, 51), (std::vector<int>{43, 47, 50}));
    QCOMPARE(Audition::phrase(60, 61), (std::vector<int>{60, 61}));
    h.clear();
    h.render(8);
    QVERIFY(h.engine.stats().preview.voices >= 1);
    // The phrase's first key, 60, of Beta Keys' 440 Hz sine at key 69: 261.6 Hz.
    const double hz = frequency(h.left, kRate);
    QVERIFY2(std::abs(hz - 440.0 * std::pow(2.0, -9.0 / 12.0)) < 3.0, qPrintable(QString::number(hz)));
    QVERIFY(waitUntil(h, [&] { return h.engine.stats().previewNotes >= 3; }));
    QCOMPARE(h.engine.stats().parts[0].program, part1);
    QCOMPARE(h.link.part(0).name, QStringLiteral("Sine Test"));

    h.window.audition()->start(home.sfz, -1);  // another entry: the font's voices stop
    QVERIFY(waitUntil(h, [&] { return h.link.previewState().path == home.sfz.toStdString() && !h.link.previewState().loading; }));
    QVERIFY(waitUntil(h, [&] { return h.engine.stats().preview.program != nullptr && h.engine.stats().previewNotes >= 4; }));
    QCOMPARE(h.link.previewState().loKey, 24);  // Sine Test's regions that play: 24..96 (not missing.wav's)
    QCOMPARE(h.link.previewState().hiKey, 96);
  }

  // A double-click loads the entry into the selected part; a preset's row, that preset
  // (its sine's pitch is the proof).
  void doubleClickLoadsIntoTheSelectedPart() {
    FakeHome home;
    Harness h;
    LibraryBrowser& browser = *h.window.browser();
    QVERIFY(waitUntil(h, [&] { return listed(h, {"Sine Test", "Test Font"}); }));
    h.window.selectPart(4);
    QSignalSpy activated(browser.view(), &QAbstractItemView::activated);
    QSignalSpy clicked(browser.view(), &QAbstractItemView::clicked);
    click(browser, rowNamed(browser, QStringLiteral("Sine Test")), true);
    QCOMPARE(activated.count(), 1);
    QVERIFY(clicked.count() >= 1);  // the first press auditions it (a double-click is a click first)
    QVERIFY(h.waitForLoad(4));
    QCOMPARE(h.link.part(4).name, QStringLiteral("Sine Test"));
    QCOMPARE(h.link.part(4).path, home.sfz);

    h.window.selectPart(6);
    click(browser, rowNamed(browser, QStringLiteral("Beta Keys")), true);
    QVERIFY(waitUntil(h, [&] { return h.link.part(6).path == home.font && !h.link.loading(6); }));
    h.render(2);
    h.clear();
    h.link.sendMidi(0x96, 69, 100);
    h.render(40);
    QCOMPARE(std::round(frequency(h.left, kRate)), 440.0);  // Beta Keys, not the font's first preset (220 Hz)
    QVERIFY(h.window.browser()->marks().recent().contains(LibraryMarks::key(home.font, 1)));
  }
};

int runLibraryBrowserTests(int argc, char** argv) {
  LibraryBrowserTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "LibraryBrowserTests.moc"
