// The connections panel without a server (GuiHarness.h: a real engine, no backend):
// its input rows light and name the channel of what the engine took, the parts list
// follows loads, and the connection settings are saved as the integers the headless
// `spindle` reads. The panel against a real jackd: ConnectionsLiveTest.cpp.
#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QtTest>

#include "GuiHarness.h"
#include "gui/ConnectionsPanel.h"
#include "gui/Settings.h"

namespace spindle::gui::test {

class ConnectionsPanelTests : public QObject {
  Q_OBJECT

 private:
  static QString text(Harness& h, const QString& name) {
    auto* label = h.window.findChild<QLabel*>(name);
    return label ? label->text() : QStringLiteral("<no %1>").arg(name);
  }
  // What the 30 Hz timer does: the engine takes the GUI's events, the link polls.
  static void cycle(Harness& h) {
    h.render(1);
    h.link.poll();
  }

 private slots:
  void withoutAServerTheHintSaysSo() {
    Harness h;
    QCOMPARE(text(h, QStringLiteral("connectionHint")), QStringLiteral("not connected to a sound server"));
    QCOMPARE(text(h, QStringLiteral("connectionStatus")), QStringLiteral("not connected to a sound server"));
    QCOMPARE(text(h, QStringLiteral("audioOutput")), QStringLiteral("not connected to a sound server"));
    QVERIFY(!h.window.connections()->findChild<QCheckBox*>());  // no source to feed Spindle
  }

  // The harness's GUI input is LiveProcessor input 0: activity row 1.
  void aRowLightsForItsMessagesAndNamesTheirChannel() {
    Harness h;
    h.window.connections()->addInput(QStringLiteral("keyboard"), 1, QStringLiteral("Keyboard and OSC"), {});
    auto* light = h.window.findChild<ActivityLight*>(QStringLiteral("light:keyboard"));
    QVERIFY(light);
    QCOMPARE(text(h, QStringLiteral("channel:keyboard")), QStringLiteral("ch –"));
    h.link.noteOn(2, 60, 100);  // part 3: MIDI channel 3, due a period or two from now
    QTRY_COMPARE_WITH_TIMEOUT((cycle(h), text(h, QStringLiteral("channel:keyboard"))), QStringLiteral("ch 3"), 1000);
    QVERIFY(light->lit());
    auto* channel = h.window.findChild<QLabel*>(QStringLiteral("channel:keyboard"));
    QVERIFY(channel->toolTip().startsWith(QStringLiteral("Channel messages: 1, the last on channel 3")));
    QVERIFY(channel->toolTip().contains(QStringLiteral("part 3 has no instrument")));
    QTRY_VERIFY_WITH_TIMEOUT((cycle(h), !light->lit()), 1000);  // steady again after ~200 ms
    QVERIFY(!h.window.findChild<ActivityLight*>(QStringLiteral("light:midi_in"))->lit());  // no port traffic
  }

  void thePartsListFollowsLoads() {
    Harness h;
    QVERIFY(!h.window.findChild<QLabel*>(QStringLiteral("part:2")));
    h.window.loadInto(1, QString::fromStdString(writeSineLibrary(h.dir.filePath(QStringLiteral("lib")).toStdString()).string()));
    QVERIFY(h.waitForLoad(1));
    QCOMPARE(text(h, QStringLiteral("part:2")), QStringLiteral("Sine Test"));
    h.link.unload(1);
    QVERIFY(!h.window.findChild<QLabel*>(QStringLiteral("part:2")));
  }

  // Integers, not QSettings' "true": control/UserSettings.h reads integers only.
  void connectionSettingsAreSavedAsIntegers() {
    QTemporaryDir dir;
    QSettings store(dir.filePath(QStringLiteral("spindle.conf")), QSettings::IniFormat);
    QVERIFY(loadSettings(store).connectAudio && loadSettings(store).connectMidi);  // on by default
    AppSettings s;
    s.connectMidi = false;
    saveSettings(store, s);
    QFile file(store.fileName());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("[connections]\naudio=1\nmidi=0\n"));
    QVERIFY(loadSettings(store).connectAudio);
    QVERIFY(!loadSettings(store).connectMidi);
  }
};

int runConnectionsPanelTests(int argc, char** argv) {
  ConnectionsPanelTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "ConnectionsPanelTests.moc"
