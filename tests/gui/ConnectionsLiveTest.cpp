// spindle_gui_connections: the window's connections against a real JACK server, run by
// connections.sh (a dummy-backend jackd under a private name, Xvfb). A GuiSession starts
// as `spindle` does (the real JackBackend, engine, EngineLink and MainWindow), and
// spindle-live-probe's keyboard stands in for a hardware keyboard plugged in later: a
// physical, terminal MIDI output that never connects itself, so any link to it is
// Spindle's. Every check reads the window's widgets or `jack_lsp -c`.
//
// The test cases run in order, one session throughout: nothing plugged in, a keyboard
// plugged in and played, unplugged by hand in the panel and back, MIDI following
// turned off in the settings while a second keyboard arrives.
#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <functional>
#include <memory>
#include <set>
#include <utility>

#include "GuiHarness.h"
#include "gui/ConnectionsPanel.h"
#include "gui/GuiSession.h"
#include "gui/MainWindow.h"
#include "gui/Settings.h"
#include "gui/Theme.h"

namespace spindle::gui::test {

namespace {

using Links = std::set<std::pair<QString, QString>>;

// Every link on the server, both ways round, as `jack_lsp -c` lists them.
Links jackLinks() {
  QProcess lsp;
  lsp.start(QStringLiteral("jack_lsp"), {QStringLiteral("-c")});
  Links links;
  if (!lsp.waitForFinished(5000)) return links;
  QString port;
  for (const QString& line : QString::fromUtf8(lsp.readAllStandardOutput()).split('\n')) {
    if (line.startsWith(QStringLiteral("   "))) links.emplace(port, line.trimmed());
    else port = line.trimmed();
  }
  return links;
}

bool jackLinked(const char* a, const char* b) {
  return jackLinks().count({QString::fromLatin1(a), QString::fromLatin1(b)}) > 0;
}

// Runs the event loop in short steps until `done` or `ms` ran out; `each` after every step.
bool spin(const std::function<bool()>& done, int ms, const std::function<void()>& each = {}) {
  QElapsedTimer timer;
  timer.start();
  while (!done()) {
    if (timer.elapsed() > ms) return false;
    QTest::qWait(5);
    if (each) each();
  }
  return true;
}

// A stand-in keyboard: spindle-live-probe keyboard. It quits by itself after --hold
// seconds, so even a crashed test leaves none behind for long.
struct Keyboard {
  QProcess process;
  QByteArray output;

  void start(const QString& name, const QStringList& more) {
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(qEnvironmentVariable("SPINDLE_PROBE"),
                  QStringList{QStringLiteral("keyboard"), QStringLiteral("--name"), name, QStringLiteral("--hold"),
                              QStringLiteral("60")} + more);
  }
  bool said(const char* text) {
    output += process.readAll();
    return output.contains(text);
  }
  ~Keyboard() {
    process.terminate();
    if (!process.waitForFinished(3000)) process.kill();
  }
};

}  // namespace

class ConnectionsLiveTests : public QObject {
  Q_OBJECT

 private:
  template <typename W>
  W* find(const QString& name) {
    return session_->window().findChild<W*>(name);
  }
  QString text(const QString& label) {
    auto* l = find<QLabel>(label);
    return l ? l->text() : QStringLiteral("<no %1>").arg(label);
  }
  bool fed(const QString& source) {
    auto* box = find<QCheckBox>(QStringLiteral("feeds:") + source);
    return box && box->isChecked();
  }

  QTemporaryDir dir_;
  std::unique_ptr<QSettings> store_;
  app::GuiLaunch launch_;
  std::unique_ptr<GuiSession> session_;
  Keyboard kb1_, kb2_;

 private slots:
  void initTestCase();
  void hintWithoutMidi();
  void keyboardIsFollowedAndLights();
  void clearingTheBoxDisconnects();
  void followingOffLeavesNewKeyboards();
  void cleanupTestCase();
};

// Settings of this run only: no OSC server (no port to collide), connections on.
void ConnectionsLiveTests::initTestCase() {
  if (qEnvironmentVariableIsEmpty("JACK_DEFAULT_SERVER") || qEnvironmentVariableIsEmpty("SPINDLE_PROBE"))
    QFAIL("run it through connections.sh: it starts jackd and names the probe");
  store_ = std::make_unique<QSettings>(dir_.filePath(QStringLiteral("spindle.conf")), QSettings::IniFormat);
  AppSettings settings;
  settings.oscPort = 0;
  saveSettings(*store_, settings);
  launch_.instrument = writeSineLibrary(dir_.filePath(QStringLiteral("sine")).toStdString()).string();
  launch_.clientName = "spindle";
  launch_.backend = "jack";
  session_ = std::make_unique<GuiSession>(launch_, *store_);
  QVERIFY(session_->start());
  QTRY_COMPARE_WITH_TIMEOUT(text(QStringLiteral("part:1")), QStringLiteral("Sine Test"), 30000);
}

// Outputs on the dummy driver's playback ports at start, no MIDI source anywhere.
void ConnectionsLiveTests::hintWithoutMidi() {
  QTRY_COMPARE_WITH_TIMEOUT(text(QStringLiteral("input:midi_in")), QStringLiteral("midi_in · jack"), 10000);
  QTRY_COMPARE_WITH_TIMEOUT(text(QStringLiteral("connectionHint")), QStringLiteral("no MIDI input connected"), 10000);
  QCOMPARE(text(QStringLiteral("connectionStatus")), QStringLiteral("no MIDI input connected"));
  QCOMPARE(text(QStringLiteral("audioOutput")),
           QStringLiteral("out_L → system:playback_1\nout_R → system:playback_2"));
  QVERIFY(jackLinked("spindle:out_L", "system:playback_1"));
  QVERIFY(jackLinked("spindle:out_R", "system:playback_2"));
  QVERIFY(!find<QCheckBox>(QStringLiteral("feeds:kb1:capture")));
  QCOMPARE(text(QStringLiteral("channel:midi_in")), QStringLiteral("ch –"));
}

// kb1 appears, Spindle connects it by itself, it plays 3 notes on channel 2: the
// midi_in row lights and reads ch 2, in amber (only part 1 has an instrument).
void ConnectionsLiveTests::keyboardIsFollowedAndLights() {
  kb1_.start(QStringLiteral("kb1"), {QStringLiteral("--notes"), QStringLiteral("3"), QStringLiteral("--channel"),
                                     QStringLiteral("2")});
  auto* light = find<ActivityLight>(QStringLiteral("light:midi_in"));
  QVERIFY(light);
  bool lit = false;
  QVERIFY2(spin([&] { return kb1_.said("played 3 notes"); }, 20000, [&] { lit = lit || light->lit(); }),
           kb1_.output.constData());
  QVERIFY(jackLinked("kb1:capture", "spindle:midi_in"));
  QTRY_VERIFY_WITH_TIMEOUT(fed(QStringLiteral("kb1:capture")), 5000);
  QCOMPARE(text(QStringLiteral("source:kb1:capture")), QStringLiteral("kb1:capture"));
  QTRY_COMPARE_WITH_TIMEOUT(text(QStringLiteral("connectionHint")), QStringLiteral("MIDI input and outputs connected"), 5000);
  QCOMPARE(text(QStringLiteral("connectionStatus")), QString());
  QTRY_COMPARE_WITH_TIMEOUT(text(QStringLiteral("channel:midi_in")), QStringLiteral("ch 2"), 2000);
  auto* channel = find<QLabel>(QStringLiteral("channel:midi_in"));
  QVERIFY2(channel->toolTip().startsWith(QStringLiteral("Channel messages: 6, the last on channel 2")),
           qPrintable(channel->toolTip()));
  QVERIFY(channel->toolTip().contains(QStringLiteral("part 2 has no instrument")));
  QVERIFY2(lit, "the midi_in light never lit while the keyboard played");
  QTRY_VERIFY_WITH_TIMEOUT(!light->lit(), 2000);  // idle again after its ~200 ms
  QCOMPARE(text(QStringLiteral("channel:keyboard")), QStringLiteral("ch –"));  // the on-screen keyboard sent nothing
}

// The user's choice holds: cleared, kb1 stays disconnected over the keeper's rescans.
void ConnectionsLiveTests::clearingTheBoxDisconnects() {
  find<QCheckBox>(QStringLiteral("feeds:kb1:capture"))->setChecked(false);
  QTRY_VERIFY_WITH_TIMEOUT(!jackLinked("kb1:capture", "spindle:midi_in"), 5000);
  QTRY_COMPARE_WITH_TIMEOUT(text(QStringLiteral("connectionHint")), QStringLiteral("no MIDI input connected"), 5000);
  QVERIFY(!fed(QStringLiteral("kb1:capture")));
  QTest::qWait(2500);  // the connection thread rescans every second
  QVERIFY(!jackLinked("kb1:capture", "spindle:midi_in"));
  find<QCheckBox>(QStringLiteral("feeds:kb1:capture"))->setChecked(true);
  QTRY_VERIFY_WITH_TIMEOUT(jackLinked("kb1:capture", "spindle:midi_in"), 5000);
  QTRY_VERIFY_WITH_TIMEOUT(fed(QStringLiteral("kb1:capture")), 5000);
}

// "Follow MIDI keyboards" off, as the settings dialog would: saved as the integer 0
// (the headless spindle reads it), applied at once: kb2 is listed but not connected.
void ConnectionsLiveTests::followingOffLeavesNewKeyboards() {
  AppSettings settings = loadSettings(*store_);
  settings.connectMidi = false;
  saveSettings(*store_, settings);
  emit session_->window().settingsChanged(settings);
  QFile file(store_->fileName());
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QByteArray ini = file.readAll();
  QVERIFY2(ini.contains("[connections]\naudio=1\nmidi=0\n"), ini.constData());
  kb2_.start(QStringLiteral("kb2"), {QStringLiteral("--notes"), QStringLiteral("0")});
  QTRY_VERIFY_WITH_TIMEOUT(find<QCheckBox>(QStringLiteral("feeds:kb2:capture")), 10000);
  QTest::qWait(2500);
  QVERIFY(!fed(QStringLiteral("kb2:capture")));
  QVERIFY(!jackLinked("kb2:capture", "spindle:midi_in"));
  QVERIFY(jackLinked("kb1:capture", "spindle:midi_in"));  // what is connected stays
  find<QCheckBox>(QStringLiteral("feeds:kb2:capture"))->setChecked(true);
  QTRY_VERIFY_WITH_TIMEOUT(jackLinked("kb2:capture", "spindle:midi_in"), 5000);
  QVERIFY(spin([&] { return kb2_.said("played 0 notes"); }, 10000));
}

void ConnectionsLiveTests::cleanupTestCase() {
  if (session_) session_->stop();
}

}  // namespace spindle::gui::test

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("spindle"));
  QApplication::setApplicationDisplayName(QStringLiteral("Spindle"));
  spindle::gui::theme::apply(app);
  spindle::gui::test::ConnectionsLiveTests tests;
  return QTest::qExec(&tests, argc, argv);
}

#include "ConnectionsLiveTest.moc"
