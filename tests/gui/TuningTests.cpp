// The part strip's tuning button: a Scala scale and keyboard map chosen for a part are
// read, shown by name, played by the engine (a note's pitch measured from the render),
// kept in the session, and cleared back to 12-TET; a bad file leaves the part as it was
// and the status bar names the file and line. Against a real engine (GuiHarness.h).
#include <QStatusBar>
#include <QtTest>
#include <fstream>
#include <iomanip>

#include "GuiHarness.h"
#include "gui/TuningButton.h"

namespace spindle::gui::test {

class TuningTests : public QObject {
  Q_OBJECT

 private:
  // Frequency of the left channel over [from, to) frames by upward zero crossings.
  static double hz(const std::vector<float>& x, std::size_t from, std::size_t to) {
    double first = -1.0, last = -1.0;
    int crossings = 0;
    for (std::size_t i = from + 1; i < std::min(to, x.size()); ++i) {
      if (x[i - 1] < 0.0f && x[i] >= 0.0f) {
        const double t = static_cast<double>(i - 1) + static_cast<double>(-x[i - 1] / (x[i] - x[i - 1]));
        if (first < 0.0) first = t;
        last = t;
        ++crossings;
      }
    }
    return crossings > 2 ? (crossings - 1) * kRate / (last - first) : 0.0;
  }
  // Plays key on part 0 for ~0.35 s and measures its pitch.
  static double playedHz(Harness& h, int key) {
    h.clear();
    h.link.noteOn(0, key, 100);
    h.render(64);
    h.link.noteOff(0, key);
    h.render(8);
    return hz(h.left, 4096, 15000);
  }
  static QString writeScale(const Harness& h) {
    const QString path = h.dir.filePath(QStringLiteral("nineteen.scl"));
    std::ofstream out(path.toStdString());
    out << "! nineteen.scl\n19-tone equal\n19\n" << std::fixed << std::setprecision(6);
    for (int i = 1; i < 19; ++i) out << 1200.0 * i / 19.0 << '\n';
    out << "2/1\n";
    return path;
  }

 private slots:
  void choosingAScaleRetunesThePartAndShowsItsName() {
    Harness h;
    h.window.loadInto(0, QString::fromStdString(writeSineLibrary(h.dir.filePath(QStringLiteral("lib")).toStdString()).string()));
    QVERIFY(h.waitForLoad(0));
    TuningButton* button = h.window.strip(0)->tuningButton();
    QCOMPARE(button->text(), QStringLiteral("12-TET"));
    QVERIFY(std::fabs(1200.0 * std::log2(playedHz(h, 69) / 440.0)) < 1.0);

    button->chooseScale(writeScale(h));
    h.link.poll();
    QCOMPARE(h.link.part(0).scaleName, QStringLiteral("19-tone equal"));
    QVERIFY(button->text().startsWith(QStringLiteral("19")));  // elided to the button's width
    QVERIFY(button->toolTip().contains(QStringLiteral("Tuning: 19-tone equal")));
    // Without a keyboard map key 60 is middle C and every key one 19th of an octave.
    const double expected = 261.6255653 * std::exp2(9.0 / 19.0);
    const double measured = playedHz(h, 69);
    QVERIFY2(std::fabs(1200.0 * std::log2(measured / expected)) < 1.0, qPrintable(QString::number(measured)));

    const QString map = h.dir.filePath(QStringLiteral("a432.kbm"));
    std::ofstream(map.toStdString()) << "0\n0\n127\n60\n69\n432.0\n0\n";
    button->chooseKeymap(map);
    h.link.poll();
    QCOMPARE(h.link.part(0).keymapPath, map);
    QVERIFY(std::fabs(1200.0 * std::log2(playedHz(h, 69) / 432.0)) < 1.0);

    button->clear();
    h.link.poll();
    QCOMPARE(button->text(), QStringLiteral("12-TET"));
    QVERIFY(h.link.part(0).scalePath.isEmpty() && h.link.part(0).keymapPath.isEmpty());
    QVERIFY(std::fabs(1200.0 * std::log2(playedHz(h, 69) / 440.0)) < 1.0);
  }

  void aBadScaleIsNamedWithItsLineAndChangesNothing() {
    Harness h;
    const QString bad = h.dir.filePath(QStringLiteral("bad.scl"));
    std::ofstream(bad.toStdString()) << "Bad\n2\n100.0\nfive\n";
    h.window.strip(3)->tuningButton()->chooseScale(bad);
    QVERIFY(h.window.statusBar()->currentMessage().contains(bad + QStringLiteral(":4:")));
    QVERIFY(h.link.part(3).scalePath.isEmpty());
    QCOMPARE(h.window.strip(3)->tuningButton()->text(), QStringLiteral("12-TET"));
  }

  void theSessionKeepsThePartsTuning() {
    Harness h;
    const QString scale = writeScale(h);
    QVERIFY(h.link.setTuning(5, scale, {}).isEmpty());
    control::ControlTarget& target = h.control;  // what OSC drives
    QTRY_COMPARE(QString::fromStdString(target.sessionState().parts[5].scale), scale);
    std::string error;
    QVERIFY(target.setPartTuning(6, scale.toStdString(), {}, error));
    QTRY_COMPARE(h.link.part(6).scaleName, QStringLiteral("19-tone equal"));
    QVERIFY(!target.setPartTuning(6, "/nowhere/x.scl", {}, error));
    QCOMPARE(QString::fromStdString(error), QStringLiteral("/nowhere/x.scl: cannot be read"));
  }
};

int runTuningTests(int argc, char** argv) {
  TuningTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "TuningTests.moc"
