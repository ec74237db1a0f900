// The window's MPE side against a real engine (GuiHarness.h), offscreen: the zone box
// sets part 1's zone, the on-screen keyboard then plays on member channels and bends a
// note by sliding sideways, and member notes from any input are drawn with their own
// bend, pressure and timbre.
#include <QMouseEvent>
#include <QSpinBox>
#include <QtTest>
#include <cmath>

#include "GuiHarness.h"
#include "gui/PianoKeyboard.h"

namespace spindle::gui::test {

namespace {

void loadSineInto(Harness& h, int part) {
  const auto sfz = writeSineLibrary(h.dir.filePath(QStringLiteral("lib")).toStdString());
  h.window.loadInto(part, QString::fromStdString(sfz.string()));
  QVERIFY(h.waitForLoad(part));
  h.link.poll();
  h.render(2);
  h.clear();
}

// Renders a period and polls the link, `times` times: what the window shows then is the
// engine's state after those periods.
void settle(Harness& h, int times = 2) {
  for (int i = 0; i < times; ++i) {
    h.render(1);
    h.link.poll();
    QCoreApplication::processEvents();
  }
}

void dragTo(QWidget* widget, const QPoint& at) {
  QMouseEvent move(QEvent::MouseMove, QPointF(at), widget->mapToGlobal(QPointF(at)), Qt::NoButton, Qt::LeftButton,
                   Qt::NoModifier);
  QCoreApplication::sendEvent(widget, &move);
}

}  // namespace

class MpeKeyboardTests : public QObject {
  Q_OBJECT

 private slots:
  // Part 1's zone set in the box; a key clicked plays on member channel 2 and sliding a
  // white key's width to the right bends it 12/7 semitones, drawn under the pointer.
  void zoneBoxThenASlideBendsTheNote() {
    Harness h;
    loadSineInto(h, 0);
    if (QTest::currentTestFailed()) return;
    PianoKeyboard* keyboard = h.window.keyboard();
    QVERIFY(!keyboard->mpeChannels().on());
    h.window.mpeZone()->setValue(15);
    settle(h);
    QCOMPARE(h.link.engine().stats().mpeLower, 15);
    QCOMPARE(keyboard->mpeChannels().first, 1);
    QCOMPARE(keyboard->mpeChannels().last, 15);
    QCOMPARE(h.window.mpeZone()->value(), 15);

    const QPoint start = keyboard->keyRect(69).center();
    QTest::mousePress(keyboard, Qt::LeftButton, {}, start);
    settle(h);
    QCOMPARE(keyboard->noteMarks().size(), std::size_t{1});
    QCOMPARE(keyboard->noteMarks()[0].key, 69);
    QCOMPARE(keyboard->noteMarks()[0].channel, 1);  // the first member channel: MIDI channel 2
    QCOMPARE(keyboard->noteMarks()[0].bendSemitones, 0.0f);

    // A white key's width to the right (A to B); a semitone of keys is 7/12 of a white key.
    const double whiteWidth = keyboard->keyRect(71).center().x() - keyboard->keyRect(69).center().x();
    const QPoint end(start.x() + static_cast<int>(std::lround(whiteWidth)), keyboard->keyRect(69).top() + 2);
    dragTo(keyboard, end);
    settle(h);
    h.clear();
    h.render(40);
    h.link.poll();
    QCOMPARE(keyboard->noteMarks().size(), std::size_t{1});
    const NoteMark mark = keyboard->noteMarks()[0];
    const auto markBend = static_cast<double>(mark.bendSemitones);
    const double bent = (end.x() - start.x()) / (whiteWidth * 7.0 / 12.0);  // the semitones slid (12/7)
    QVERIFY2(std::abs(markBend - bent) < 0.1, qPrintable(QStringLiteral("%1 vs %2").arg(mark.bendSemitones).arg(bent)));
    QVERIFY2(mark.timbre > 0.95f, qPrintable(QString::number(mark.timbre)));  // slid to the key's top
    QVERIFY(std::abs(keyboard->markPoint(mark).x() - end.x()) < 1.5);
    const double hz = frequency(h.left, kRate), expected = 440.0 * std::pow(2.0, markBend / 12.0);
    QVERIFY2(std::abs(hz - expected) < expected * 0.002, qPrintable(QStringLiteral("%1 Hz, expected %2").arg(hz).arg(expected)));

    QTest::mouseRelease(keyboard, Qt::LeftButton, {}, end);
    settle(h, 20);
    QVERIFY(keyboard->noteMarks().empty());
    h.clear();
    h.render(2);
    QVERIFY(peak(h.left) < 1e-3f);
  }

  // Notes on member channels from another input (here the window's MIDI input, as OSC
  // and the JACK port reach the same engine): each drawn with its own bend, pressure and
  // timbre; the zone set elsewhere shows in the box; a part that is no zone's master
  // plays its own channel.
  void memberNotesFromMidiAreDrawn() {
    Harness h;
    loadSineInto(h, 0);
    if (QTest::currentTestFailed()) return;
    QVERIFY(h.control.setMpeZone(false, 7));
    h.control.pump();
    const int bendDown = 8192 - 171;  // a semitone down in the zone's 48-semitone range
    h.link.sendMidi(0xD2, 100, 0);     // channel 3: pressure 100, CC74 20, then its note
    h.link.sendMidi(0xB2, 74, 20);
    h.link.sendMidi(0x92, 64, 90);
    h.link.sendMidi(0xE2, bendDown & 0x7F, bendDown >> 7);
    h.link.sendMidi(0x95, 72, 90);  // channel 6: no expression of its own
    settle(h, 3);
    QCOMPARE(h.window.mpeZone()->value(), 7);
    PianoKeyboard* keyboard = h.window.keyboard();
    QCOMPARE(keyboard->noteMarks().size(), std::size_t{2});
    const NoteMark first = keyboard->noteMarks()[0], second = keyboard->noteMarks()[1];
    QCOMPARE(first.key, 64);
    QCOMPARE(first.channel, 2);
    QVERIFY(std::abs(first.bendSemitones + 1.0f) < 0.01f);
    QVERIFY(std::abs(first.pressure - 100.0f / 127.0f) < 1e-4f);
    QVERIFY(std::abs(first.timbre - 20.0f / 127.0f) < 1e-4f);
    QCOMPARE(second.key, 72);
    QCOMPARE(second.bendSemitones, 0.0f);
    // Drawn a semitone left of its key, low on it (timbre 20 of 127).
    const QRect key = keyboard->keyRect(64);
    QVERIFY(keyboard->markPoint(first).x() < key.center().x() - 5);
    QVERIFY(keyboard->markPoint(first).y() > key.top() + key.height() * 0.7);
    QVERIFY(h.window.mpeZone()->isEnabled());
    h.window.selectPart(1);
    QVERIFY(!h.window.mpeZone()->isEnabled());
    QVERIFY(!keyboard->mpeChannels().on());
    QVERIFY(keyboard->noteMarks().empty());
  }
};

int runMpeKeyboardTests(int argc, char** argv) {
  MpeKeyboardTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "MpeKeyboardTests.moc"
