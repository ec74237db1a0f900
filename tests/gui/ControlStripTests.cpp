// The instrument's labelled controls (label_cc) as a strip of sliders for the
// selected part, key names (label_key, sw_label) on the keyboard, and a main window that
// fits a 1366x768 screen. Against a real engine (GuiHarness.h), offscreen.
#include <QComboBox>
#include <QScrollArea>
#include <QSlider>
#include <QtTest>
#include <fstream>

#include "GuiHarness.h"
#include "core/Controllers.h"
#include "gui/ControlStrip.h"
#include "gui/PianoKeyboard.h"

namespace spindle::gui::test {

class ControlStripTests : public QObject {
  Q_OBJECT

 private:
  // The sine library plus labels: CC 7, 74, an instrument-own controller 300, a key
  // name and a keyswitch name; set_cc74 gives the Brightness slider its start.
  static std::filesystem::path writeLabelledLibrary(const Harness& h) {
    const auto folder = std::filesystem::path(h.dir.filePath(QStringLiteral("lib")).toStdString());
    writeSineLibrary(folder);
    const auto sfz = folder / "Labelled.sfz";
    std::ofstream(sfz) << "<control> default_path=samples/ label_cc7=Volume label_cc74=Brightness\n"
                          "label_cc300=Room label_key62=Middle D set_cc74=32\n"
                          "<group> sw_last=36 sw_label=Legato sw_default=36\n"
                          "<region> sample=mid.wav lokey=48 hikey=79 pitch_keycenter=69\n";
    return sfz;
  }
  static void load(Harness& h, const std::filesystem::path& sfz, int part) {
    h.window.loadInto(part, QString::fromStdString(sfz.string()));
    QVERIFY(h.waitForLoad(part));
    h.link.poll();
    h.render(2);
    h.link.poll();
  }

 private slots:
  void stripShowsLabelledControls() {
    Harness h;
    load(h, writeLabelledLibrary(h), 0);
    if (QTest::currentTestFailed()) return;
    ControlStrip* strip = h.window.controls();
    QCOMPARE(strip->count(), 3);
    QCOMPARE(strip->labelText(0), QStringLiteral("Volume"));
    QCOMPARE(strip->labelText(1), QStringLiteral("Brightness"));
    QCOMPARE(strip->labelText(2), QStringLiteral("Room"));
    QVERIFY(strip->slider(0)->isEnabled());
    QVERIFY(!strip->slider(2)->isEnabled());  // controller 300: no MIDI message reaches it
  }

  void movingAControlSendsItsCcToThePartsEngine() {
    Harness h;
    load(h, writeLabelledLibrary(h), 2);
    if (QTest::currentTestFailed()) return;
    h.window.selectPart(2);
    QSlider* brightness = h.window.controls()->slider(1);
    brightness->setValue(100);  // what a drag ends with: valueChanged
    h.render(3);                // the GUI's MIDI input plays one period later
    QCOMPARE(qRound(h.engine.controllerValue(2, 74) * 127.0f), 100);
    QCOMPARE(h.engine.controllerValue(0, 74), 0.0f);  // only the selected part
    QCOMPARE(h.engine.stats().parts[2].program, h.link.part(2).program);
  }

  void incomingMidiMovesTheControl() {
    Harness h;
    load(h, writeLabelledLibrary(h), 0);
    if (QTest::currentTestFailed()) return;
    QVERIFY(h.link.sendMidi(0xB0, 7, 42));  // as a keyboard's fader would, through a MIDI input
    h.render(3);
    h.link.poll();
    QCOMPARE(h.window.controls()->slider(0)->value(), 42);
    QCOMPARE(h.link.part(0).controlValues.at(0), 42.0f / 127.0f);
  }

  // Needs set_cc parsing: fails on a tree without it.
  void controlsStartAtTheirSetCcDefault() {
    Harness h;
    load(h, writeLabelledLibrary(h), 0);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(h.window.controls()->slider(1)->value(), 32);
  }

  // A DecentSampler preset's buttons are part controls; a button's states
  // show as a list of their names, on the CC the loader gave them (102, 103).
  void decentSamplerButtonsAreListsOfTheirStates() {
    Harness h;
    const auto folder = std::filesystem::path(h.dir.filePath(QStringLiteral("lib")).toStdString());
    writeSineLibrary(folder);
    const auto preset = folder / "Buttons.dspreset";
    std::ofstream(preset) << R"(<DecentSampler><ui><tab><label text="Polyphony"/>
      <button value="1"><state name="Mono"><binding type="general" level="tag" tags="all" parameter="POLYPHONY"
        translation="fixed_value" translationValue="1"/></state><state name="Poly"><binding type="general" level="tag"
        tags="all" parameter="POLYPHONY" translation="fixed_value" translationValue="8"/></state></button>
      <labeled-knob label="Attack" minValue="0" maxValue="2" value="0"><binding type="amp" level="instrument"
        parameter="ENV_ATTACK"/></labeled-knob></tab></ui>
      <groups><group tags="all"><sample path="samples/mid.wav" rootNote="69"/></group></groups></DecentSampler>)";
    load(h, preset, 0);
    if (QTest::currentTestFailed()) return;
    ControlStrip* strip = h.window.controls();
    QCOMPARE(strip->count(), 2);
    QCOMPARE(strip->labelText(0), QStringLiteral("Polyphony"));
    QComboBox* list = strip->steps(0);
    QVERIFY(list && !strip->slider(0));
    QCOMPARE(list->count(), 2);
    QCOMPARE(list->itemText(1), QStringLiteral("Poly"));
    QCOMPARE(list->currentIndex(), 1);  // the button's value="1"
    QVERIFY(strip->slider(1) && !strip->steps(1));  // the knob stays a slider
    list->setCurrentIndex(0);
    h.render(3);
    QCOMPARE(qRound(h.engine.controllerValue(0, 102) * 127.0f), controllers::stepValue(0, 2));
    h.link.poll();  // the strip sees its own value arrive
    QCOMPARE(list->currentIndex(), 0);
    QVERIFY(h.link.sendMidi(0xB0, 102, 127));  // a keyboard's button mapped to CC 102
    h.render(3);
    h.link.poll();
    QCOMPARE(list->currentIndex(), 1);
  }

  void keyboardNamesKeysAndKeyswitches() {
    Harness h;
    load(h, writeLabelledLibrary(h), 0);
    if (QTest::currentTestFailed()) return;
    PianoKeyboard* keyboard = h.window.keyboard();
    QCOMPARE(keyboard->keyName(62), QStringLiteral("Middle D"));
    QCOMPARE(keyboard->keyName(36), QStringLiteral("Legato"));
    QCOMPARE(keyboard->keyName(60), QString());
  }

  void mainWindowFitsA1366x768Screen() {
    Harness h;
    const QSize minimum = h.window.minimumSizeHint().expandedTo(h.window.minimumSize());
    QVERIFY2(minimum.width() <= 1366, qPrintable(QStringLiteral("minimum width %1").arg(minimum.width())));
    QVERIFY2(minimum.height() <= 740, qPrintable(QStringLiteral("minimum height %1").arg(minimum.height())));
    h.window.resize(1366, 740);  // 768 less a panel bar
    QCoreApplication::processEvents();
    QCOMPARE(h.window.width(), 1366);
    // Every panel keeps room to be used: the part list shows several strips, the
    // keyboard its keys, the health panel and the library tree their width.
    QVERIFY(h.window.keyboard()->height() >= 60);
    QVERIFY(h.window.strip(0)->isVisible());
    QVERIFY(h.window.strip(0)->width() >= h.window.strip(0)->minimumSizeHint().width());
  }
};

int runControlStripTests(int argc, char** argv) {
  ControlStripTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "ControlStripTests.moc"
