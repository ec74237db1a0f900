// OSC requests in the GUI: the control thread calls the session's Control, the window
// shows them through its EngineLink.
#include <QSlider>
#include <QtTest>
#include <mutex>
#include <thread>
#include <vector>

#include "GuiHarness.h"

namespace spindle::gui::test {

namespace {

struct Recorder final : control::LoadListener {
  std::mutex mutex;
  std::vector<control::LoadEvent> events;
  void onLoadEvent(control::LoadEvent event) override {
    const std::lock_guard lock(mutex);
    events.push_back(std::move(event));
  }
};

// Runs `call` on a thread of its own, as the OSC server's control thread would.
template <typename Call>
void onControlThread(Call call) {
  std::thread control(call);
  control.join();
}

// Lets the gui thread run its queued calls and the engine render.
void settle(Harness& h, int rounds = 5) {
  for (int i = 0; i < rounds; ++i) {
    QCoreApplication::processEvents();
    h.link.poll();
    h.render(1);
  }
}

}  // namespace

class ControlTargetTests : public QObject {
  Q_OBJECT

 private slots:
  void loadReportsProgressThenDone() {
    Harness h;
    control::ControlTarget& target = h.control;  // what OSC drives
    Recorder recorder;
    const auto sfz = writeSineLibrary(h.dir.filePath(QStringLiteral("lib")).toStdString());
    onControlThread([&] { target.load(7, 4, sfz.string(), recorder); });
    settle(h, 1);  // the queued load() starts on the gui thread
    QVERIFY(h.waitForLoad(4));
    settle(h, 2);
    QVERIFY(!recorder.events.empty());
    const control::LoadEvent& done = recorder.events.back();
    QCOMPARE(done.kind, control::LoadEvent::Kind::Done);
    QCOMPARE(done.ticket, uint64_t{7});
    QCOMPARE(done.text, std::string("Sine Test"));
    QCOMPARE(done.regions, 4);
    QCOMPARE(done.missingSamples, 1);
    QCOMPARE(h.window.strip(4)->instrumentText(), QStringLiteral("Sine Test"));
    control::SessionState session;
    onControlThread([&] { session = target.sessionState(); });
    QCOMPARE(session.parts[4].instrument, sfz.string());
  }

  void mixerAndNotesFromTheControlThread() {
    Harness h;
    control::ControlTarget& target = h.control;  // what OSC drives
    const auto sfz = writeSineLibrary(h.dir.filePath(QStringLiteral("lib")).toStdString());
    h.window.loadInto(0, QString::fromStdString(sfz.string()));
    QVERIFY(h.waitForLoad(0));
    settle(h);
    bool accepted = false;
    onControlThread([&] { accepted = target.setPartVolume(0, -12.0f) && target.setPartMute(0, false); });
    QVERIFY(accepted);
    settle(h);
    QCOMPARE(h.link.part(0).volumeDb, -12.0f);
    QCOMPARE(h.window.strip(0)->findChild<QSlider*>()->value(), -12);
    h.clear();
    onControlThread([&] { accepted = target.sendMidi(0x90, 69, 100); });
    QVERIFY(accepted);
    settle(h, 20);
    QVERIFY(peak(h.left) > 0.01f);
    control::ControlStatus status;
    onControlThread([&] { status = target.status(); });
    QVERIFY(status.voices >= 1);
    QVERIFY(status.latencyLastMs >= 0.0);
  }

  // The set tempo from the control thread, then MIDI clocks at 100 BPM (a clock every
  // 1200 frames) into the window's input: the toolbar shows each with its source.
  void tempoFromTheControlThreadAndClocks() {
    Harness h;
    control::ControlTarget& target = h.control;  // what OSC drives
    bool accepted = false;
    onControlThread([&] { accepted = target.setTempo(87.5f); });
    QVERIFY(accepted);
    settle(h);
    control::TempoStatus now;
    control::SessionState session;
    onControlThread([&] {
      now = target.tempo();
      session = target.sessionState();
    });
    QCOMPARE(now.bpm, 87.5f);
    QCOMPARE(now.source, std::string("set"));
    QCOMPARE(session.settings.tempo, 87.5f);
    QCOMPARE(h.window.tempoText(), QStringLiteral("87.5 BPM · set · "));
    for (int k = 0; k < 8; ++k) QVERIFY(h.link.sendMidi(midi::kClock, 0, 0, h.frame + static_cast<uint64_t>(k) * 1200));
    h.render(50);
    settle(h);
    QCOMPARE(h.window.tempoText(), QStringLiteral("100.0 BPM · clock · "));
  }
};

int runControlTargetTests(int argc, char** argv) {
  ControlTargetTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "ControlTargetTests.moc"
