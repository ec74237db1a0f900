// The effects panel: the reverb's and chorus's settings and each part's sends, set from
// the window and shown when OSC (the control thread, through the session's Control) or any
// MIDI input changes them; the selected part's instrument effects with a bypass box
// each, following its loads, sending the bypass to the engine, showing OSC's.
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLabel>
#include <QSet>
#include <QSpinBox>
#include <QtTest>
#include <fstream>
#include <thread>

#include "GuiHarness.h"
#include "core/Controllers.h"
#include "gui/EffectsPanel.h"

namespace spindle::gui::test {

namespace {

template <typename Call>
void onControlThread(Call call) {
  std::thread control(call);
  control.join();
}

void settle(Harness& h, int rounds = 5) {
  for (int i = 0; i < rounds; ++i) {
    QCoreApplication::processEvents();
    h.link.poll();
    h.render(1);
  }
}

template <typename Widget>
Widget* child(Harness& h, const char* name) {
  auto* w = h.window.effects()->findChild<Widget*>(QString::fromLatin1(name));
  if (!w) qFatal("no %s", name);
  return w;
}

// An SFZ of a generated sine (key 69: 440 Hz) through the given effect blocks.
QString writeEffectsInstrument(Harness& h, const std::string& name, const std::string& effects) {
  const std::string file = h.dir.filePath(QString::fromStdString(name)).toStdString();
  std::ofstream(file) << "<region> sample=*sine amp_veltrack=0\n" << effects;
  return QString::fromStdString(file);
}

// The panel as drawn (offscreen): not blank, and saved under $SPINDLE_SCREENSHOT_DIR
// when set (ctest sets the test's build folder) for a look at the layout.
void checkShot(Harness& h, const char* name) {
  const QImage shot = h.window.effects()->grab().toImage();
  QVERIFY(!shot.isNull());
  QSet<QRgb> colours;
  for (int y = 0; y < shot.height(); y += 4)
    for (int x = 0; x < shot.width(); x += 4) colours.insert(shot.pixel(x, y));
  QVERIFY2(colours.size() > 8, "the effects panel draws as a blank image");
  const QByteArray dir = qgetenv("SPINDLE_SCREENSHOT_DIR");
  if (!dir.isEmpty()) QVERIFY(shot.save(QString::fromLocal8Bit(dir) + QStringLiteral("/") + QLatin1String(name)));
}

}  // namespace

class EffectsPanelTests : public QObject {
  Q_OBJECT

 private slots:
  void showsFluidSynthsDefaults() {
    Harness h;
    QVERIFY(h.window.effects());
    QCOMPARE(child<QCheckBox>(h, "reverb")->isChecked(), true);
    QCOMPARE(child<QDoubleSpinBox>(h, "reverb-room-size")->value(), 0.2);
    QCOMPARE(child<QDoubleSpinBox>(h, "reverb-width")->maximum(), 100.0);
    QCOMPARE(child<QSpinBox>(h, "chorus-voices")->value(), 3);
    QCOMPARE(child<QSpinBox>(h, "chorus-voices")->maximum(), 99);
    QCOMPARE(child<QDoubleSpinBox>(h, "chorus-depth")->value(), 8.0);
    QCOMPARE(child<QDoubleSpinBox>(h, "chorus-speed")->minimum(), 0.1);
  }

  void settingsFromTheWindowReachTheSession() {
    Harness h;
    control::ControlTarget& target = h.control;  // what OSC drives
    child<QDoubleSpinBox>(h, "reverb-room-size")->setValue(0.7);
    child<QCheckBox>(h, "chorus")->setChecked(false);
    child<QSpinBox>(h, "chorus-voices")->setValue(12);
    child<QDoubleSpinBox>(h, "master-gain")->setValue(-6.0);
    settle(h);
    QCOMPARE(h.link.effects().get(EffectParam::MasterGain), -6.0f);
    QCOMPARE(h.link.effects().get(EffectParam::ReverbRoomSize), 0.7f);
    QCOMPARE(h.link.effects().get(EffectParam::ChorusOn), 0.0f);
    QCOMPARE(h.link.effects().get(EffectParam::ChorusVoices), 12.0f);
    QCOMPARE(h.link.engine().stats().commandsDropped, uint64_t{0});
    control::SessionState session;
    onControlThread([&] { session = target.sessionState(); });
    QCOMPARE(session.effects.get(EffectParam::ReverbRoomSize), 0.7f);
    QCOMPARE(session.effects.get(EffectParam::ChorusVoices), 12.0f);
    QCOMPARE(session.effects.get(EffectParam::MasterGain), -6.0f);
  }

  void oscSettingsShowInThePanel() {
    Harness h;
    control::ControlTarget& target = h.control;  // what OSC drives
    bool accepted = false;
    onControlThread([&] {
      accepted = target.setEffect(EffectParam::ChorusDepth, 30.0f) && target.setEffect(EffectParam::ReverbOn, 0.0f);
    });
    QVERIFY(accepted);
    settle(h);
    QCOMPARE(child<QDoubleSpinBox>(h, "chorus-depth")->value(), 30.0);
    QCOMPARE(child<QCheckBox>(h, "reverb")->isChecked(), false);
  }

  void sendsFollowTheEngineAndSetIt() {
    Harness h;
    control::ControlTarget& target = h.control;  // what OSC drives
    child<QSpinBox>(h, "send-reverb-3")->setValue(100);
    settle(h);
    QCOMPARE(h.link.send(2, controllers::kReverbSend), 100);
    std::array<float, 2> sends{};
    onControlThread([&] { sends = target.partSends(2); });
    QCOMPARE(static_cast<int>(std::lround(sends[0] * 127.0f)), 100);
    onControlThread([&] { QVERIFY(target.sendMidi(0xB1, controllers::kChorusSend, 64)); });
    settle(h, 10);
    QCOMPARE(child<QSpinBox>(h, "send-chorus-2")->value(), 64);
    QCOMPARE(child<QSpinBox>(h, "send-reverb-2")->value(), 0);
  }

  void instrumentEffectsListedWithBypassThatReachesTheEngine() {
    Harness h;
    control::ControlTarget& target = h.control;  // what OSC drives
    h.window.loadInto(0, writeEffectsInstrument(h, "two.sfz",
                                                "<effect> type=gain gain=-12\n"
                                                "<effect> bus=fx1 type=filter filter_type=lpf_2p filter_cutoff=8000\n"));
    QVERIFY(h.waitForLoad(0));
    settle(h);
    QVERIFY(child<QLabel>(h, "part-effects-title")->text().startsWith(QStringLiteral("Part 1")));
    auto* gain = child<QCheckBox>(h, "effect-bypass-1");
    QVERIFY(gain->text().contains(QStringLiteral("gain")));
    QVERIFY(gain->text().contains(QStringLiteral("main")));
    QVERIFY(child<QCheckBox>(h, "effect-bypass-2")->text().contains(QStringLiteral("fx1")));
    QVERIFY(!gain->isChecked());
    checkShot(h, "effects-panel.png");
    h.link.noteOn(0, 69, 127);
    settle(h, 20);
    h.clear();
    h.render(20);
    const float withGain = peak(h.left);
    gain->setChecked(true);  // as a click does
    settle(h, 5);
    h.clear();
    h.render(20);
    const float bypassed = peak(h.left);
    QCOMPARE(h.link.part(0).effectBypass, uint64_t{1});
    QCOMPARE(h.engine.stats().parts[0].effectBypass, uint64_t{1});
    QVERIFY2(std::abs(20.0 * std::log10(static_cast<double>(bypassed / withGain)) - 12.0) < 0.2,
             qPrintable(QStringLiteral("%1 -> %2").arg(withGain).arg(bypassed)));
    std::vector<PartEffectInfo> listed;
    control::SessionState session;
    onControlThread([&] {
      listed = target.partEffects(0);
      session = target.sessionState();
    });
    QCOMPARE(listed.size(), size_t{2});
    QVERIFY(listed[0].bypassed && !listed[1].bypassed);
    QCOMPARE(session.parts[0].effectBypass, uint64_t{1});
  }

  void oscBypassShowsAndTheListFollowsALoad() {
    Harness h;
    control::ControlTarget& target = h.control;  // what OSC drives
    h.window.loadInto(0, writeEffectsInstrument(h, "two.sfz", "<effect> type=gain gain=-6\n<effect> type=width width=50\n"));
    QVERIFY(h.waitForLoad(0));
    bool accepted = false;
    onControlThread([&] { accepted = target.setPartEffectBypass(0, 1, true); });
    QVERIFY(accepted);
    settle(h);
    QVERIFY(child<QCheckBox>(h, "effect-bypass-2")->isChecked());
    QVERIFY(!child<QCheckBox>(h, "effect-bypass-1")->isChecked());
    QCOMPARE(h.engine.stats().parts[0].effectBypass, uint64_t{2});
    // Another instrument: its one effect, nothing bypassed, in the window and the engine.
    h.window.loadInto(0, writeEffectsInstrument(h, "one.sfz", "<effect> type=eq eq_gain=3\n"));
    QVERIFY(h.waitForLoad(0));
    settle(h);
    QVERIFY(child<QCheckBox>(h, "effect-bypass-1")->text().contains(QStringLiteral("eq")));
    QVERIFY(!child<QCheckBox>(h, "effect-bypass-1")->isChecked());
    QVERIFY(h.window.effects()->findChild<QCheckBox*>(QStringLiteral("effect-bypass-2")) == nullptr);
    QCOMPARE(h.engine.stats().parts[0].effectBypass, uint64_t{0});
    // The selected part's: part 2 has no instrument.
    h.window.selectPart(1);
    settle(h);
    QVERIFY(child<QLabel>(h, "part-effects-title")->text().startsWith(QStringLiteral("Part 2")));
    QVERIFY(h.window.effects()->findChild<QCheckBox*>(QStringLiteral("effect-bypass-1")) == nullptr);
  }

  void sessionStateHoldsTheSends() {
    Harness h;
    control::ControlTarget& target = h.control;  // what OSC drives
    child<QSpinBox>(h, "send-reverb-4")->setValue(90);
    child<QSpinBox>(h, "send-chorus-4")->setValue(12);
    settle(h);
    control::SessionState session;
    onControlThread([&] { session = target.sessionState(); });
    QCOMPARE(session.parts[3].reverbSend, 90);
    QCOMPARE(session.parts[3].chorusSend, 12);
    QCOMPARE(session.parts[2].reverbSend, 0);
  }
};

int runEffectsPanelTests(int argc, char** argv) {
  EffectsPanelTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "EffectsPanelTests.moc"
