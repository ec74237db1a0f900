// The GUI driving a real engine: loading shows progress and then the instrument's
// name, clicking a key sounds the note, xruns move the counters and the timeline,
// note-on latencies fill the histogram. Offscreen (QT_QPA_PLATFORM=offscreen).
#include <QMimeData>
#include <QProgressBar>
#include <QSignalSpy>
#include <QToolButton>
#include <QtTest>

#include "FixturePaths.h"
#include "GuiHarness.h"
#include "gui/HealthCharts.h"
#include "gui/HealthPanel.h"
#include "gui/InstrumentFiles.h"
#include "gui/PianoKeyboard.h"

// Declares `name`, the fixture file at `relative`, or leaves the test: skipped, or failed
// under SPINDLE_REQUIRE_FIXTURES=1 (FixturePaths.h).
#define GUI_FIXTURE_OR_SKIP(name, relative)                                                  \
  const spindle::test::FixtureCheck name##Check = spindle::test::checkFixtures({relative}); \
  if (!name##Check.found()) {                                                               \
    if (name##Check.required) QFAIL(name##Check.message().c_str());                         \
    spindle::test::countSkip(QTest::currentTestFunction(), name##Check.message());          \
    QSKIP(name##Check.message().c_str());                                                   \
  }                                                                                         \
  const std::filesystem::path name = name##Check.dir / (relative)

namespace spindle::gui::test {

namespace {

// The largest files-total and the last files-done seen in loadProgress signals.
std::pair<int, int> progressSeen(const QSignalSpy& spy) {
  int total = 0, lastDone = 0;
  for (const QList<QVariant>& args : spy) {
    total = std::max(total, args.at(2).toInt());
    lastDone = args.at(1).toInt();
  }
  return {total, lastDone};
}

}  // namespace

class PlaybackTests : public QObject {
  Q_OBJECT

 private:
  // Loads the sine library into part 1 and lets the engine take the program.
  static void loadSine(Harness& h) {
    const auto sfz = writeSineLibrary(h.dir.filePath(QStringLiteral("lib")).toStdString());
    h.window.loadInto(0, QString::fromStdString(sfz.string()));
    QVERIFY(h.waitForLoad(0));
    h.link.poll();
    h.render(2);
    h.clear();
  }

  static double playKey(Harness& h, int key) {
    PianoKeyboard* keyboard = h.window.keyboard();
    const QPoint at = keyboard->keyRect(key).center();
    QTest::mousePress(keyboard, Qt::LeftButton, {}, at);
    h.render(40);  // 213 ms
    const double hz = frequency(h.left, kRate);
    const float level = peak(h.left);
    QTest::mouseRelease(keyboard, Qt::LeftButton, {}, at);
    h.render(20);
    h.clear();
    h.render(1);
    return level > 0.05f && peak(h.left) < 1e-3f ? hz : -1.0;  // sounding while held, silent after
  }

 private slots:
  void loadShowsProgressThenName() {
    Harness h;
    QSignalSpy progress(&h.link, &EngineLink::loadProgress);
    loadSine(h);
    if (QTest::currentTestFailed()) return;
    const auto [total, lastDone] = progressSeen(progress);
    QCOMPARE(total, 4);  // three samples and the missing one
    QCOMPARE(lastDone, 4);
    QCOMPARE(h.window.strip(0)->instrumentText(), QStringLiteral("Sine Test"));
    QCOMPARE(h.window.strip(0)->progressBar()->isVisible(), false);
  }

  void problemsListFileAndLine() {
    Harness h;
    loadSine(h);
    if (QTest::currentTestFailed()) return;
    const ProblemsModel& problems = h.window.problems();
    QStringList rows;
    for (int r = 0; r < problems.rowCount(); ++r)
      rows << problems.index(r, ProblemsModel::Location).data().toString() + " " +
                  problems.index(r, ProblemsModel::Message).data().toString();
    const QString all = rows.join('\n');
    QVERIFY2(all.contains(QStringLiteral("Sine Test.sfz:2 unknown opcode 'unknown_opcode_xyz'")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("Sine Test.sfz:6")) && all.contains(QStringLiteral("missing.wav")),
             qPrintable(all));
  }

  void droppingAFileOnAPartLoadsIt() {
    Harness h;
    const auto sfz = writeSineLibrary(h.dir.filePath(QStringLiteral("lib")).toStdString());
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(sfz.string()))});
    PartStrip* strip = h.window.strip(5);
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    // Straight to the strip: QApplication only routes drops that a real drag started.
    static_cast<QObject*>(strip)->event(&drop);
    QVERIFY(h.waitForLoad(5));
    QCOMPARE(strip->instrumentText(), QStringLiteral("Sine Test"));
    QCOMPARE(h.window.selectedPart(), 5);
  }

  void clickingAKeyPlaysItsPitch() {
    Harness h;
    loadSine(h);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(h.window.selectedPart(), 0);
    const double a4 = playKey(h, 69);
    QVERIFY2(std::abs(a4 - 440.0) < 2.0, qPrintable(QString::number(a4)));
    const double a5 = playKey(h, 81);
    QVERIFY2(std::abs(a5 - 880.0) < 4.0, qPrintable(QString::number(a5)));
  }

  void computerKeyboardPlays() {
    Harness h;
    loadSine(h);
    if (QTest::currentTestFailed()) return;
    PianoKeyboard* keyboard = h.window.keyboard();
    QTest::keyPress(keyboard, Qt::Key_H);  // A above the base C (C4): A4
    h.render(40);
    QVERIFY(peak(h.left) > 0.05f);
    QVERIFY(std::abs(frequency(h.left, kRate) - 440.0) < 2.0);
    QTest::keyRelease(keyboard, Qt::Key_H);
    QCOMPARE(h.link.part(0).heldHere.count(), 0u);
  }

  void xrunCounterAndTimelineMove() {
    Harness h;
    h.render(2);
    h.link.poll();
    HealthPanel* panel = h.window.health();
    QCOMPARE(panel->counterText(XrunSeries::Backend), QStringLiteral("0"));
    h.live.countBackendXrun();     // what the backend's xrun callback does
    h.render(1, kRate, 4 * kBlock);  // and the frame clock jumps
    h.render(1, 1e9);              // a cycle far over its budget (256 ns)
    h.link.poll();
    QCOMPARE(panel->counterText(XrunSeries::Backend), QStringLiteral("1"));
    QCOMPARE(panel->counterText(XrunSeries::Overrun), QStringLiteral("1"));
    const XrunBucket now = h.link.health().timeline().back();
    QCOMPARE(now[static_cast<std::size_t>(XrunSeries::Backend)], 1u);
    QCOMPARE(now[static_cast<std::size_t>(XrunSeries::Overrun)], 1u);
    h.live.countBackendXrun();
    h.link.poll();
    QCOMPARE(panel->counterText(XrunSeries::Backend), QStringLiteral("2"));
  }

  void latencyHistogramFills() {
    Harness h;
    loadSine(h);
    if (QTest::currentTestFailed()) return;
    for (int key = 60; key < 65; ++key) {
      h.link.noteOn(0, key, 100);
      h.render(3);
      h.link.noteOff(0, key);
      h.render(2);
    }
    h.link.poll();
    QCOMPARE(h.link.health().latencyCount(), 5u);
    QVERIFY(h.window.health()->histogram()->filledBins() >= 1);
    QVERIFY2(!h.window.health()->latencyText().contains(QStringLiteral("–")), qPrintable(h.window.health()->latencyText()));
  }
};

// The same with the fixtures' libraries (support/FixturePaths.h): run apart, as
// `spindle_gui_tests --fixtures` (ctest: spindle_gui_tests_fixtures), so that without the
// fixtures only these report skipped.
class PlaybackFixtureTests : public QObject {
  Q_OBJECT

 private slots:
  void loadFixtureLibrary() {
    GUI_FIXTURE_OR_SKIP(sfz, "dim_cabasa/Dim Cabasa.sfz");
    Harness h;
    QSignalSpy progress(&h.link, &EngineLink::loadProgress);
    h.window.loadInto(2, QString::fromStdString(sfz.string()));
    QVERIFY(h.window.strip(2)->isLoading());
    QVERIFY(h.waitForLoad(2));
    const auto [total, lastDone] = progressSeen(progress);
    QCOMPARE(total, 250);
    QCOMPARE(lastDone, 250);
    QCOMPARE(h.window.strip(2)->progressBar()->maximum(), 250);
    QCOMPARE(h.window.strip(2)->instrumentText(), QStringLiteral("Dim Cabasa"));
  }

  void droppingASoundFontOnAPartLoadsIt() {
    GUI_FIXTURE_OR_SKIP(sf2, "sf2/TimGM6mb.sf2");
    Harness h;
    QVERIFY(isInstrumentPath(QString::fromStdString(sf2.string())));
    QVERIFY(instrumentDialogFilter().contains(QStringLiteral("*.sf2")));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(sf2.string()))});
    PartStrip* strip = h.window.strip(9);
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    static_cast<QObject*>(strip)->event(&drop);
    QVERIFY(h.waitForLoad(9));
    QCOMPARE(strip->instrumentText(), QStringLiteral("TimGM6mb1.sf2"));
    // The font plays on every empty part too, each on its own channel: a General MIDI
    // song plays after one drop. The parts share one Program.
    for (int i = 0; i < 3; ++i) {  // commands beyond the engine's queue go on the next poll
      h.render(1);
      h.link.poll();
    }
    for (int part = 0; part < 16; ++part) {
      QVERIFY2(h.link.part(part).program == h.link.part(9).program, qPrintable(QStringLiteral("part %1 %2").arg(part).arg(h.link.part(part).name)));
      QCOMPARE(h.engine.stats().parts[static_cast<std::size_t>(part)].program, h.link.part(9).program);
      QCOMPARE(h.link.part(part).sharedFrom, part == 9 ? -1 : 9);
    }
    QCOMPARE(h.window.strip(0)->instrumentText(), QStringLiteral("TimGM6mb1.sf2"));
    QVERIFY(h.link.sendMidi(0x90, 60, 100));  // channel 1: the piano
    h.render(3);
    const int voices = h.engine.stats().parts[0].voices;
    QVERIFY2(voices >= 1 && voices <= 2, qPrintable(QString::number(voices)));  // preset 0 only: one zone, or a stereo pair
    // A part given something else leaves the others playing the font.
    h.window.loadInto(3, QString::fromStdString(writeSineLibrary(std::filesystem::path(h.dir.filePath(QStringLiteral("lib")).toStdString())).string()));
    QVERIFY(h.waitForLoad(3));
    h.render(2);
    h.link.poll();
    QCOMPARE(h.link.part(3).sharedFrom, -1);
    QVERIFY(h.link.part(3).program != h.link.part(9).program);
    QCOMPARE(h.engine.stats().parts[4].program, h.link.part(9).program);
  }

  void cancelStopsALoad() {
    GUI_FIXTURE_OR_SKIP(sfz, "dim_cabasa/Dim Cabasa.sfz");
    Harness h;
    QSignalSpy finished(&h.link, &EngineLink::loadFinished);
    h.window.loadInto(1, QString::fromStdString(sfz.string()));
    QTest::mouseClick(h.window.strip(1)->cancelButton(), Qt::LeftButton);
    QVERIFY(h.waitForLoad(1));
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(1).toBool(), false);
    QCOMPARE(h.window.strip(1)->instrumentText(), QString());
  }
};


int runPlaybackTests(int argc, char** argv) {
  PlaybackTests tests;
  return QTest::qExec(&tests, argc, argv);
}

int runPlaybackFixtureTests(int argc, char** argv) {
  PlaybackFixtureTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "PlaybackTests.moc"
