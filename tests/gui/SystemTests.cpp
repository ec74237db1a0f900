// Engine stats in the GUI and the System check dialog: notes from the MIDI port (the
// path JACK's MIDI input takes) show as held keys for as long as they are held, the part
// strips show real voice counts and levels, the doctor panel lists every check of a
// fixture tree, a one-second latency test fills the histogram, and the disk test
// recommends a preload. Offscreen.
#include <QTreeWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>
#include <array>

#include "FixtureTrees.h"
#include "GuiHarness.h"
#include "gui/DoctorPanel.h"
#include "gui/DiskPanel.h"
#include "gui/LatencyPanel.h"
#include "gui/PianoKeyboard.h"
#include "gui/Theme.h"
#include "tools/Doctor.h"

namespace spindle::gui::test {

namespace {

// One cycle with a MIDI message on the backend's port at the cycle's first frame.
void renderWithPortEvent(Harness& h, uint8_t status, uint8_t key, uint8_t velocity) {
  std::vector<float> l(kBlock), r(kBlock);
  const std::array<uint8_t, 3> bytes{status, key, velocity};
  h.live.beginCycle(io::CycleStart{h.frame, kBlock, io::monotonicNs(), kRate});
  h.live.addPortEvent(0, bytes.data(), bytes.size());
  h.live.endCycle(l.data(), r.data());
  h.frame += kBlock;
}

bool loadSineInto(Harness& h, int part) {
  const auto sfz = writeSineLibrary(h.dir.filePath(QStringLiteral("lib")).toStdString());
  h.window.loadInto(part, QString::fromStdString(sfz.string()));
  if (!h.waitForLoad(part)) return false;
  h.link.poll();
  h.render(2);
  return true;
}

}  // namespace

class SystemTests : public QObject {
  Q_OBJECT

 private slots:
  void portNotesShowHeldUntilReleased() {
    Harness h;
    QVERIFY(loadSineInto(h, 0));
    renderWithPortEvent(h, 0x90, 64, 100);
    h.render(100);  // 533 ms: longer than any "recently played" light
    h.link.poll();
    QVERIFY(h.window.keyboard()->lit()[64]);
    QCOMPARE(h.window.keyboard()->lit().count(), 1u);
    QCOMPARE(h.window.strip(0)->voicesText(), QStringLiteral("1"));
    QVERIFY2(h.window.strip(0)->meterDb() > -30.0f, qPrintable(QString::number(static_cast<double>(h.window.strip(0)->meterDb()))));
    renderWithPortEvent(h, 0x80, 64, 0);
    h.link.poll();
    QCOMPARE(h.window.keyboard()->lit().count(), 0u);
    h.render(20);  // the 10 ms release ends
    h.link.poll();
    QCOMPARE(h.window.strip(0)->voicesText(), QStringLiteral("·"));
  }

  void heldKeysArePerPart() {
    Harness h;
    QVERIFY(loadSineInto(h, 0));
    renderWithPortEvent(h, 0x93, 70, 100);  // channel 4
    h.link.poll();
    QCOMPARE(h.window.keyboard()->lit().count(), 0u);  // part 1 is shown
    h.window.selectPart(3);
    h.link.poll();
    QVERIFY(h.window.keyboard()->lit()[70]);
    QVERIFY(h.link.part(3).held[70]);
  }

  void doctorPanelListsEveryCheck() {
    spindle::test::TempDir tree("gui-doctor");
    const tools::SystemRoot system = spindle::test::genericTree(tree);
    const tools::DoctorReport expected = tools::runDoctor(system, tools::Profile::LowLatency);
    DoctorPanel panel(system);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.busy() && panel.checks()->topLevelItemCount() > 0, 10000);
    QCOMPARE(panel.checks()->topLevelItemCount(), static_cast<int>(expected.checks.size()));
    QCOMPARE(expected.checks.size(), std::size_t{12});
    for (int i = 0; i < panel.checks()->topLevelItemCount(); ++i) {
      const QTreeWidgetItem* item = panel.checks()->topLevelItem(i);
      const tools::Check& check = expected.checks[static_cast<std::size_t>(i)];
      QCOMPARE(item->data(0, Qt::UserRole).toString(), QString::fromStdString(check.id));
      QCOMPARE(item->text(0), QString::fromLatin1(tools::statusName(check.status)));
      QCOMPARE(item->text(1), QString::fromStdString(check.title));
      QCOMPARE(item->childCount(), check.fix.empty() ? 0 : 1);
      const QColor colour = check.status == tools::Status::Fail   ? theme::kBad
                            : check.status == tools::Status::Warn ? theme::kWarn
                                                                  : theme::kGood;
      QCOMPARE(item->foreground(0).color(), colour);
    }
    const QTreeWidgetItem* rtprio = panel.checks()->topLevelItem(5);
    QCOMPARE(rtprio->data(0, Qt::UserRole).toString(), QStringLiteral("limits.rtprio"));
    QCOMPARE(rtprio->text(0), QStringLiteral("FAIL"));
    QVERIFY(panel.changes()->toPlainText().contains(QStringLiteral("Kernel command line")));
  }

  void doctorPanelAllPassOnATunedTree() {
    spindle::test::TempDir tree("gui-doctor-rt");
    DoctorPanel panel(spindle::test::rtTree(tree));
    QTRY_VERIFY_WITH_TIMEOUT(!panel.busy() && panel.checks()->topLevelItemCount() > 0, 10000);
    QCOMPARE(panel.checks()->topLevelItemCount(), 12);
    for (int i = 0; i < 12; ++i) QCOMPARE(panel.checks()->topLevelItem(i)->text(0), QStringLiteral("PASS"));
  }

  void latencyTestFillsTheHistogram() {
    LatencyPanel panel;
    QVERIFY(panel.run(1));
    QVERIFY(panel.running());
    QVERIFY(!panel.run(1));  // one run at a time
    QTRY_VERIFY_WITH_TIMEOUT(panel.result().has_value(), 20000);
    const tools::Histogram& lateness = panel.result()->wakeup.lateness;
    QVERIFY(lateness.count() > 0);
    QVERIFY(lateness.maxUs() >= lateness.percentileUs(0.5));
    uint64_t bars = 0;
    for (uint64_t c : panel.histogram()->counts()) bars += c;
    QCOMPARE(bars, lateness.count());
    QVERIFY(panel.periodTable()->rowCount() > 0);
  }

  // The Disk tab: stream starts measured in a folder of ours, the recommended preload
  // shown, and "Use this preload" hands exactly that on (the window saves it).
  void diskTestRecommendsAPreload() {
    spindle::test::TempDir folder("gui-disk");
    DiskPanel panel(QString::fromStdString(folder.path().string()), 4096);
    QSignalSpy chosen(&panel, &DiskPanel::preloadChosen);
    QVERIFY(!panel.useButton()->isEnabled());  // nothing measured yet
    panel.run();
    QVERIFY(panel.busy());
    QTRY_VERIFY_WITH_TIMEOUT(!panel.busy() && panel.useButton()->isEnabled(), 60000);
    const tools::StreamStartResult& r = panel.result();
    QVERIFY2(r.error.empty(), r.error.c_str());
    QVERIFY(r.startsMs.size() > 100);
    QCOMPARE(r.preloadFrames, tools::preloadForStart(r.worstMs));
    panel.useButton()->click();
    QCOMPARE(chosen.size(), 1);
    QCOMPARE(chosen.at(0).at(0).toInt(), static_cast<int>(r.preloadFrames));
    QVERIFY(std::filesystem::is_empty(folder.path()));  // its files removed
  }
};

int runSystemTests(int argc, char** argv) {
  SystemTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "SystemTests.moc"
