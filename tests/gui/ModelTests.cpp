// The GUI's models and painted widgets on their own: health history, key maps,
// problems, recent libraries, settings, keyboard geometry.
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "gui/HealthModel.h"
#include "gui/KeyMap.h"
#include "gui/PianoKeyboard.h"
#include "gui/ProblemsModel.h"
#include "gui/Settings.h"

namespace spindle::gui::test {

namespace {

HealthInput connectedInput() {
  HealthInput in;
  in.live.sampleRate = 48000.0;
  in.live.periodFrames = 256;
  in.live.connected = true;
  in.realtime.backend = "jack";
  in.realtime.memoryLocked = true;
  in.realtime.audioThreadKnown = true;
  in.realtime.priority = 70;
  return in;
}

}  // namespace

class ModelTests : public QObject {
  Q_OBJECT

 private slots:
  void timelineBucketsPerSecond() {
    HealthModel model;
    HealthInput in = connectedInput();
    model.update(in, 100.2);
    in.live.backendXruns = 2;
    model.update(in, 100.5);
    in.live.streamUnderruns = 1;
    model.update(in, 103.1);
    QCOMPARE(model.timeline().size(), std::size_t{4});
    QCOMPARE(model.timeline()[0][0], 2u);
    QCOMPARE(model.timeline()[3][2], 1u);
    QCOMPARE(model.total(XrunSeries::Backend), 2u);
    QCOMPARE(model.total(XrunSeries::Underrun), 1u);
    in.live.detectedXruns = 2;  // the same two xruns, seen as frame-clock gaps
    model.update(in, 104.0);
    QCOMPARE(model.total(XrunSeries::Backend), 2u);
    model.update(in, 104.0 + 2 * HealthModel::kSeconds);  // a long pause: start over
    QCOMPARE(model.timeline().size(), std::size_t{1});
    for (int s = 0; s < 3000; ++s) model.update(in, 1000.0 + s * 0.5);
    QCOMPARE(model.timeline().size(), std::size_t{HealthModel::kSeconds});
  }

  void loadFromHistogramDeltas() {
    HealthModel model;
    HealthInput in = connectedInput();
    model.update(in, 1.0);
    in.live.process.counts[2] = 3;  // 10-15 %
    in.live.process.counts[8] = 1;  // 40-45 %
    in.live.process.maxNs = 2'000'000;
    in.live.process.lastBudgetNs = 5'333'333;
    model.update(in, 1.1);
    QCOMPARE(model.loadAverage(), (3 * 12.5 + 42.5) / 4);
    QCOMPARE(model.loadPeak(), 45.0);
    QVERIFY(std::abs(model.loadMax() - 37.5) < 0.1);
  }

  void latencyBinsInMilliseconds() {
    HealthModel model;
    model.update(connectedInput(), 1.0);
    model.addNoteLatency(480);      // 10 ms
    model.addNoteLatency(48000);    // 1 s: the open-ended last bin
    QCOMPARE(model.latencyBins()[20], 1u);
    QCOMPARE(model.latencyBins()[HealthModel::kLatencyBins - 1], 1u);
    QCOMPARE(model.latencyCount(), 2u);
  }

  void realtimeHints() {
    HealthModel model;
    HealthInput in = connectedInput();
    model.update(in, 1.0);
    QCOMPARE(model.realtimeHint(), std::string());
    in.realtime.priority = 0;
    model.update(in, 2.0);
    QVERIFY(model.realtimeHint().find("not real-time") != std::string::npos);
    in.live.connected = false;
    model.update(in, 3.0);
    QVERIFY(model.realtimeHint().find("Not connected") != std::string::npos);
  }

  void keyMapShowsRangesAndKeyswitches() {
    engine::Program program;
    Region plain;
    plain.lokey = 36;
    plain.hikey = 60;
    Region switched;
    switched.lokey = 61;
    switched.hikey = 72;
    switched.swLast = 24;
    program.regions = {plain, switched};
    program.prepare();
    const KeyMap map = keyMapOf(program);
    QVERIFY(map.playable[40] && map.playable[72]);
    QVERIFY(!map.playable[30] && !map.playable[73]);
    QVERIFY(map.keyswitch[24] && !map.playable[24]);
  }

  void problemsShowFileAndLine() {
    ProblemsModel model;
    model.setProblems(3, {{Problem::Severity::Error, "/lib/a.sfz", 12, "sample not found: 'x.wav'"},
                          {Problem::Severity::Warning, "/lib/a.sfz", 0, "whole file"}});
    model.setProblems(1, {{Problem::Severity::Warning, "/lib/b.sfz", 3, "unknown opcode 'foo' (ignored)"}});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.errorCount(), 1);
    QCOMPARE(model.index(0, ProblemsModel::Location).data().toString(), QStringLiteral("b.sfz:3"));
    QCOMPARE(model.index(1, ProblemsModel::Location).data().toString(), QStringLiteral("a.sfz:12"));
    QCOMPARE(model.index(2, ProblemsModel::Location).data().toString(), QStringLiteral("a.sfz"));
    QCOMPARE(model.index(1, ProblemsModel::Location).data(Qt::ToolTipRole).toString(), QStringLiteral("/lib/a.sfz:12"));
    model.setProblems(3, {});
    QCOMPARE(model.rowCount(), 1);
  }

  void recentLibrariesMostRecentFirst() {
    QTemporaryDir dir;
    QSettings store(dir.filePath(QStringLiteral("s.conf")), QSettings::IniFormat);
    RecentLibraries recent(store);
    recent.add(QStringLiteral("/a.sfz"));
    recent.add(QStringLiteral("/b.sfz"));
    recent.add(QStringLiteral("/a.sfz"));
    QCOMPARE(recent.list(), QStringList({QStringLiteral("/a.sfz"), QStringLiteral("/b.sfz")}));
    for (int i = 0; i < 20; ++i) recent.add(QStringLiteral("/%1.sfz").arg(i));
    QCOMPARE(recent.list().size(), RecentLibraries::kMaxRecent);
    QCOMPARE(recent.list().front(), QStringLiteral("/19.sfz"));
  }

  void settingsKeptInTheXdgConfigDir() {
    QTemporaryDir dir;
    const QByteArray before = qgetenv("XDG_CONFIG_HOME");
    qputenv("XDG_CONFIG_HOME", dir.path().toUtf8());
    AppSettings s;
    s.backend = QStringLiteral("pipewire");
    s.polyphony = 64;
    s.oscPort = 7001;
    s.oscBind = QStringLiteral("0.0.0.0");
    s.oscSecretFile = QStringLiteral("/etc/spindle/cluster.secret");
    s.oscRequireSigned = true;
    saveSettings(*openSettings(), s);
    QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("spindle/spindle.conf"))));
    QVERIFY(loadSettings(*openSettings()) == s);
    if (before.isEmpty()) qunsetenv("XDG_CONFIG_HOME");
    else qputenv("XDG_CONFIG_HOME", before);
  }

  void keyboardGeometryAndComputerKeys() {
    PianoKeyboard keyboard;
    keyboard.resize(1000, 100);
    for (int key = 21; key <= 108; ++key) QCOMPARE(keyboard.keyAt(keyboard.keyRect(key).center()), key);
    QCOMPARE(PianoKeyboard::keyForComputerKey(Qt::Key_A, 60), 60);
    QCOMPARE(PianoKeyboard::keyForComputerKey(Qt::Key_W, 60), 61);
    QCOMPARE(PianoKeyboard::keyForComputerKey(Qt::Key_K, 60), 72);
    QCOMPARE(PianoKeyboard::keyForComputerKey(Qt::Key_Q, 60), -1);
    QSignalSpy on(&keyboard, &PianoKeyboard::noteOn);
    QTest::keyPress(&keyboard, Qt::Key_X);  // octave up
    QTest::keyPress(&keyboard, Qt::Key_A);
    QCOMPARE(on.size(), 1);
    QCOMPARE(on.at(0).at(0).toInt(), 72);
  }
};

int runModelTests(int argc, char** argv) {
  ModelTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "ModelTests.moc"
