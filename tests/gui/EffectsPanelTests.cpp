// The effects panel: the reverb's and chorus's settings and each part's sends, set from
// the window and shown when OSC (the control thread, through GuiControlTarget) or any
// MIDI input changes them.
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QtTest>
#include <thread>

#include "GuiHarness.h"
#include "core/Controllers.h"
#include "gui/EffectsPanel.h"
#include "gui/GuiControlTarget.h"

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
    GuiControlTarget target(h.link, h.store);
    child<QDoubleSpinBox>(h, "reverb-room-size")->setValue(0.7);
    child<QCheckBox>(h, "chorus")->setChecked(false);
    child<QSpinBox>(h, "chorus-voices")->setValue(12);
    settle(h);
    QCOMPARE(h.link.effects().get(EffectParam::ReverbRoomSize), 0.7f);
    QCOMPARE(h.link.effects().get(EffectParam::ChorusOn), 0.0f);
    QCOMPARE(h.link.effects().get(EffectParam::ChorusVoices), 12.0f);
    QCOMPARE(h.link.engine().stats().commandsDropped, uint64_t{0});
    control::SessionState session;
    onControlThread([&] { session = target.sessionState(); });
    QCOMPARE(session.effects.get(EffectParam::ReverbRoomSize), 0.7f);
    QCOMPARE(session.effects.get(EffectParam::ChorusVoices), 12.0f);
  }

  void oscSettingsShowInThePanel() {
    Harness h;
    GuiControlTarget target(h.link, h.store);
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
    GuiControlTarget target(h.link, h.store);
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
};

int runEffectsPanelTests(int argc, char** argv) {
  EffectsPanelTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "EffectsPanelTests.moc"
