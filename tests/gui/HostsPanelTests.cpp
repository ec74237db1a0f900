// The Hosts tab of a master's window: two remote Spindles (stand-ins on UDP sockets,
// tests/cluster/FakeHost.h) reached through the real cluster::Hosts, their health and
// parts in the panel's cells, a library loaded and a level set from the panel, one host
// lost; the window is saved as an image ($SPINDLE_SCREENSHOT_DIR/spindle-hosts.png).
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>

#include "FakeHost.h"
#include "GuiHarness.h"
#include "cluster/Hosts.h"
#include "gui/HostsPanel.h"

namespace spindle::gui::test {

namespace {

using control::OscValue;

// A status as a Spindle pushes it (its integer counters as 64-bit 'h').
control::OscMessage status(int voices, int underruns, int xruns, double memoryBytes, double latencyMs) {
  return {"/spindle/status",
          {OscValue::s("voices"), OscValue::i(voices), OscValue::s("underruns"), OscValue::h(underruns),
           OscValue::s("xruns"), OscValue::h(xruns), OscValue::s("memory_bytes"), OscValue::h(static_cast<int64_t>(memoryBytes)),
           OscValue::s("latency_last_ms"), OscValue::f(latencyMs)}};
}

QString cell(QTableWidget* table, int row, int column) {
  const QTableWidgetItem* item = table->item(row, column);
  return item ? item->text() : QString();
}

// The row of `host` in the hosts table, -1 when it is not there.
int rowOf(QTableWidget* table, const QString& host) {
  for (int row = 0; row < table->rowCount(); ++row)
    if (cell(table, row, 0) == host) return row;
  return -1;
}

}  // namespace

class HostsPanelTests : public QObject {
  Q_OBJECT

 private slots:
  void showsHostsHealthAndParts() {
    spindle::test::FakeHost a, b;
    cluster::HostTiming timing;
    timing.lostAfter = std::chrono::milliseconds(600);
    timing.resubscribe = std::chrono::milliseconds(100);
    cluster::Hosts hosts(timing);
    std::string error;
    QVERIFY(hosts.add({"a", "127.0.0.1", a.port(), {}, "spindle_host1"}, error));
    QVERIFY(hosts.add({"b", "127.0.0.1", b.port(), {}, {}}, error));
    Harness h;
    // The master's routes as its connection thread reports them: host a's client present
    // and linked; b has no JACK client, so it is not routed.
    std::vector<control::HostRouteInfo> routes{{"a", "spindle_host1", "spindle_host1", true, true, "spindle_host1: MIDI + audio"}};
    h.window.showHosts(hosts, [&routes] { return routes; });
    HostsPanel* panel = h.window.hosts();
    QVERIFY(panel);
    QCOMPARE(a.next(), std::string("/spindle/subscribe f 2.000000"));
    QCOMPARE(b.next(), std::string("/spindle/subscribe f 2.000000"));
    a.reply(status(3, 0, 1, 12.0 * (1 << 20), 5.4));
    b.reply(status(0, 2, 0, 1 << 20, -1.0));
    QTRY_COMPARE_WITH_TIMEOUT((panel->refresh(), cell(panel->hostTable(), rowOf(panel->hostTable(), "b"), 1)),
                              QStringLiteral("connected"), 3000);
    const int rowA = rowOf(panel->hostTable(), QStringLiteral("a"));
    QCOMPARE(cell(panel->hostTable(), rowA, 1), QStringLiteral("connected"));
    QCOMPARE(cell(panel->hostTable(), rowA, 2), QStringLiteral("3"));
    QCOMPARE(cell(panel->hostTable(), rowA, 3), QStringLiteral("0"));
    QCOMPARE(cell(panel->hostTable(), rowA, 4), QStringLiteral("1"));
    QCOMPARE(cell(panel->hostTable(), rowA, 5), QStringLiteral("12.0 MiB"));
    QCOMPARE(cell(panel->hostTable(), rowA, 6), QStringLiteral("5.4 ms"));
    const int rowB = rowOf(panel->hostTable(), QStringLiteral("b"));
    QCOMPARE(cell(panel->hostTable(), rowB, 3), QStringLiteral("2"));
    QCOMPARE(cell(panel->hostTable(), rowB, 5), QStringLiteral("1.0 MiB"));
    QCOMPARE(cell(panel->hostTable(), rowA, 7), QStringLiteral("–"));  // not a NetJACK2 slave
    QCOMPARE(cell(panel->hostTable(), rowA, 8), QStringLiteral("–"));  // no pong yet
    QCOMPARE(cell(panel->hostTable(), rowA, 9), QStringLiteral("spindle_host1: MIDI + audio"));
    QCOMPARE(cell(panel->hostTable(), rowB, 9), QStringLiteral("not routed"));
    routes[0] = {"a", "spindle_host1", "", false, false, "client absent"};
    panel->refresh();
    QCOMPARE(cell(panel->hostTable(), rowA, 9), QStringLiteral("client absent"));
    QVERIFY(a.expect("/spindle/ping"));
    a.reply({"/spindle/pong", {}});
    QTRY_VERIFY_WITH_TIMEOUT((panel->refresh(), cell(panel->hostTable(), rowA, 8).endsWith(QStringLiteral(" ms"))), 3000);
    QCOMPARE(cell(panel->hostTable(), rowA, 7), QStringLiteral("–"));
    // A NetJACK2 slave reports its audio round trip in frames: in ms at the master's rate.
    hosts.setSampleRate(48000.0);
    auto withNet = status(0, 2, 0, 1 << 20, -1.0);
    withNet.args.push_back(OscValue::s("net_round_trip_frames"));
    withNet.args.push_back(OscValue::i(768));
    b.reply(withNet);
    QTRY_COMPARE_WITH_TIMEOUT((panel->refresh(), cell(panel->hostTable(), rowB, 7)), QStringLiteral("16.0 ms"), 3000);
    QCOMPARE(panel->hostTable()->item(rowB, 7)->toolTip(), QStringLiteral("768 frames"));
    QCOMPARE(cell(panel->hostTable(), rowB, 8), QStringLiteral("–"));  // b has not answered a ping
    QCOMPARE(cell(panel->hostTable(), rowB, 6), QStringLiteral("–"));  // no note yet

    loadFromPanel(panel, "a", 1, "/srv/lib/piano.sfz");
    QVERIFY(a.expect("/spindle/load is 1 \"/srv/lib/piano.sfz\""));
    panel->findChild<QDoubleSpinBox*>(QStringLiteral("host-level"))->setValue(-6.0);
    clickButton(panel, tr("Set level"));
    QVERIFY(a.expect("/spindle/part/volume if 1 -6.000000"));
    a.reply({"/spindle/load/done", {OscValue::i(1), OscValue::s("piano"), OscValue::i(88), OscValue::i(0)}});
    loadFromPanel(panel, "b", 2, "/srv/lib/drums.sfz");
    QVERIFY(b.expect("/spindle/load is 2 \"/srv/lib/drums.sfz\""));
    a.reply(status(3, 0, 1, 12.0 * (1 << 20), 5.4));
    // b says nothing more: lost after 0.6 s, while a keeps answering.
    for (int i = 0; i < 20 && cell(panel->hostTable(), rowB, 1) != QStringLiteral("lost"); ++i) {
      a.reply(status(3, 0, 1, 12.0 * (1 << 20), 5.4));
      QTest::qWait(100);
      panel->refresh();
    }
    QCOMPARE(cell(panel->hostTable(), rowB, 1), QStringLiteral("lost"));
    QCOMPARE(cell(panel->hostTable(), rowA, 1), QStringLiteral("connected"));
    QTableWidget* parts = panel->partTable();
    QCOMPARE(parts->rowCount(), 2);
    QCOMPARE(cell(parts, 0, 0), QStringLiteral("a"));
    QCOMPARE(cell(parts, 0, 1), QStringLiteral("1"));
    QCOMPARE(cell(parts, 0, 2), QStringLiteral("/srv/lib/piano.sfz"));
    QCOMPARE(cell(parts, 0, 3), QStringLiteral("piano"));
    QCOMPARE(cell(parts, 0, 4), QStringLiteral("-6.0 dB"));
    QCOMPARE(cell(parts, 1, 0), QStringLiteral("b"));
    QCOMPARE(cell(parts, 1, 1), QStringLiteral("2"));
    QCOMPARE(cell(parts, 1, 3), QStringLiteral("–"));  // asked, not loaded: the host was lost
    saveShot(h);
  }

  // A master started with no hosts shows no Hosts tab; a session that adds one (what
  // /spindle/session/load does through HostControl::restore) brings the tab up with it.
  void showsTabWhenASessionAddsAHost() {
    spindle::test::FakeHost a;
    cluster::Hosts hosts;
    Harness h;
    h.window.watchHosts(hosts);
    QTest::qWait(600);
    QVERIFY(!h.window.hosts());
    hosts.restore({{"a", "127.0.0.1", a.port(), {}, {}}});
    QTRY_VERIFY_WITH_TIMEOUT(h.window.hosts() != nullptr, 3000);
    auto* dock = h.window.findChild<QDockWidget*>(QStringLiteral("Hosts"));
    QVERIFY(dock);
    // Raised once the event loop has laid the tab out beside Health's (MainWindowHosts.cpp).
    QTRY_VERIFY_WITH_TIMEOUT(dock->isVisible(), 2000);
    h.window.hosts()->refresh();
    QCOMPARE(h.window.hosts()->hostTable()->rowCount(), 1);
    QCOMPARE(cell(h.window.hosts()->hostTable(), 0, 0), QStringLiteral("a"));
  }

 private:
  static void clickButton(HostsPanel* panel, const QString& text) {
    for (QPushButton* button : panel->findChildren<QPushButton*>())
      if (button->text() == text) return button->click();
    QFAIL("no such button");
  }
  static void loadFromPanel(HostsPanel* panel, const char* host, int part, const char* path) {
    panel->refresh();
    auto* hostBox = panel->findChild<QComboBox*>(QStringLiteral("host-name"));
    hostBox->setCurrentIndex(hostBox->findText(QString::fromLatin1(host)));
    panel->findChild<QSpinBox*>(QStringLiteral("host-part"))->setValue(part);
    panel->findChild<QLineEdit*>(QStringLiteral("host-path"))->setText(QString::fromLatin1(path));
    clickButton(panel, tr("Load"));
  }
  // The window with the Hosts tab in front: not blank; saved when SPINDLE_SCREENSHOT_DIR is set.
  static void saveShot(Harness& h) {
    QCoreApplication::processEvents();
    QVERIFY(h.window.hosts()->isVisible());
    const QImage shot = h.window.grab().toImage();
    QVERIFY(!shot.isNull());
    QSet<QRgb> colours;
    for (int y = 0; y < shot.height(); y += 4)
      for (int x = 0; x < shot.width(); x += 4) colours.insert(shot.pixel(x, y));
    QVERIFY2(colours.size() > 8, "the window draws as a blank image");
    const QByteArray dir = qgetenv("SPINDLE_SCREENSHOT_DIR");
    if (!dir.isEmpty()) QVERIFY(shot.save(QString::fromLocal8Bit(dir) + QStringLiteral("/spindle-hosts.png")));
  }
};

int runHostsPanelTests(int argc, char** argv) {
  HostsPanelTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "HostsPanelTests.moc"
