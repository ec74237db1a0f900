// The Libraries panel against the real library index and a real engine (GuiHarness.h),
// offscreen, with HOME and the XDG folders in a scratch directory holding an SFZ, a
// SoundFont of three presets (sines of 220, 440 and 880 Hz), a Hydrogen kit and a broken
// file: the browser lists what the index found at the window's first start, typing
// filters it, a click auditions an entry on the preview part (counted there; no part's
// instrument changes), a double-click loads it (or a font's preset) into the selected part.
#include <QAbstractItemView>
#include <QLineEdit>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <map>

#include "GuiHarness.h"
#include "Sf2Writer.h"
#include "gui/Audition.h"
#include "gui/LibraryBrowser.h"
#include "library/LibraryIndex.h"

namespace spindle::gui::test {

namespace {

namespace fs = std::filesystem;

// A SoundFont whose presets 0:0, 0:1 and 0:2 each play one sine (220, 440, 880 Hz at key 69).
void writeThreePresetFont(const fs::path& file) {
  spindle::test::Sf2Spec font;
  font.name = "Test Font";
  const char* names[] = {"Alpha Pad", "Beta Keys", "Gamma Bells"};
  for (uint16_t i = 0; i < 3; ++i) {
    spindle::test::Sf2Sample sample;
    sample.name = std::string("sine") + std::to_string(i);
    sample.rate = static_cast<uint32_t>(kRate);
    sample.key = 69;
    sample.frames.resize(static_cast<std::size_t>(kRate));
    for (std::size_t f = 0; f < sample.frames.size(); ++f)
      sample.frames[f] = static_cast<int16_t>(12000.0 * std::sin(2.0 * M_PI * 220.0 * (1 << i) * static_cast<double>(f) / kRate));
    font.samples.push_back(sample);
    font.instruments.push_back({sample.name, {{{{53, i}}, {}}}});  // kSampleID i
    font.presets.push_back({names[i], i, 0, {{{{41, i}}, {}}}});    // kInstrument i
  }
  const std::vector<uint8_t> bytes = spindle::test::writeSf2(font);
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void writeKit(const fs::path& folder) {
  fs::create_directories(folder);
  writeSineLibrary(folder / "sines");  // its samples: a kick to the kit
  fs::copy_file(folder / "sines" / "samples" / "low.wav", folder / "kick.wav");
  fs::remove_all(folder / "sines");
  std::ofstream(folder / "drumkit.xml") << "<drumkit_info><name>Test Kit</name><instrumentList><instrument><id>0</id>"
                                           "<name>Kick</name><filename>kick.wav</filename></instrument>"
                                           "</instrumentList></drumkit_info>";
}

// HOME and the XDG folders in a scratch directory, the four instruments in the first of
// the index's standard places, for as long as it lives.
struct FakeHome {
  QTemporaryDir dir;
  std::map<QByteArray, QByteArray> saved;
  fs::path library;
  QString sfz, font, kit, broken;

  FakeHome() {
    const fs::path root = dir.path().toStdString();
    for (const auto& [name, sub] : std::map<QByteArray, std::string>{{"HOME", "home"},
                                                                     {"XDG_DATA_HOME", "home/.local/share"},
                                                                     {"XDG_CACHE_HOME", "home/.cache"},
                                                                     {"XDG_CONFIG_HOME", "home/.config"},
                                                                     {"XDG_DATA_DIRS", "usr/share"}}) {
      saved[name] = qgetenv(name.constData());
      fs::create_directories(root / sub);
      qputenv(name.constData(), QByteArray::fromStdString((root / sub).string()));
    }
    const std::vector<fs::path> roots = library::standardRoots();
    library = roots.empty() ? root / "home" : roots.front();
    fs::create_directories(library);
    sfz = QString::fromStdString(writeSineLibrary(library / "Sines").string());
    font = QString::fromStdString((library / "Test Font.sf2").string());
    writeThreePresetFont(font.toStdString());
    writeKit(library / "Test Kit");
    kit = QString::fromStdString((library / "Test Kit").string());
    broken = QString::fromStdString((library / "Broken.sf2").string());
    std::ofstream(broken.toStdString()) << "RIFF\x10\0\0\0not a soundfont at all";
  }
  ~FakeHome() {
    for (const auto& [name, value] : saved) {
      if (value.isEmpty()) qunsetenv(name.constData());
      else qputenv(name.constData(), value);
    }
  }
};

// Lets the index's threads, the browser's timer and the link run until `done`.
template <typename Done>
bool waitUntil(Harness& h, Done done, int timeoutMs = 30000) {
  QElapsedTimer timer;
  timer.start();
  while (timer.elapsed() < timeoutMs) {
    QCoreApplication::processEvents();
    h.link.poll();
    h.render(1);
    if (done()) return true;
    QTest::qWait(5);
  }
  return false;
}

// The view's row (top level, or a preset under its font) whose name column reads `name`.
QModelIndex rowNamed(LibraryBrowser& browser, const QString& name, const QModelIndex& parent = {}) {
  const QAbstractItemModel* model = browser.view()->model();
  for (int r = 0; r < model->rowCount(parent); ++r) {
    const QModelIndex row = model->index(r, 0, parent);
    if (row.data().toString() == name || row.data().toString().endsWith(QLatin1Char(' ') + name)) return row;
    if (const QModelIndex below = rowNamed(browser, name, row); below.isValid()) return below;
  }
  return {};
}

// The entry and preset rows the view shows of the fake home's library (the index's fixed
// places may hold more on this machine).
int shownHere(const QAbstractItemModel& model, const QString& library, const QModelIndex& parent = {}) {
  int count = 0;
  for (int r = 0; r < model.rowCount(parent); ++r) {
    const QModelIndex row = model.index(r, 0, parent);
    if (row.data(LibraryModel::PathRole).toString().startsWith(library)) ++count;
    count += shownHere(model, library, row);
  }
  return count;
}

bool listed(Harness& h, const QStringList& names) {
  for (const QString& name : names)
    if (!rowNamed(*h.window.browser(), name).isValid()) return false;
  return true;
}

void click(LibraryBrowser& browser, const QModelIndex& row, bool twice) {
  QTreeView* view = browser.view();
  view->scrollTo(row);
  const QPoint at = view->visualRect(row).center();
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
  if (!twice) return;
  // What a display server sends for the second press of a double-click, then its release.
  QMouseEvent second(QEvent::MouseButtonDblClick, QPointF(at), view->viewport()->mapToGlobal(QPointF(at)), Qt::LeftButton,
                     Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(view->viewport(), &second);
  QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, at);
}

}  // namespace

class LibraryBrowserTests : public QObject {
  Q_OBJECT

 private slots:
  // The first start lists the SFZ, the font with its three presets under it and the kit;
  // the broken file, if the index lists it at all, carries its error.
  void firstStartListsWhatTheIndexFound() {
    FakeHome home;
    Harness h;
    LibraryBrowser& browser = *h.window.browser();
    QVERIFY(waitUntil(h, [&] { return listed(h, {"Sine Test", "Test Font", "Test Kit"}); }));
    const QModelIndex font = rowNamed(browser, QStringLiteral("Test Font"));
    QCOMPARE(browser.view()->model()->rowCount(font), 3);
    for (const char* preset : {"Alpha Pad", "Beta Keys", "Gamma Bells"}) QVERIFY(rowNamed(browser, preset, font).isValid());
    QCOMPARE(rowNamed(browser, QStringLiteral("Beta Keys"), font).data(LibraryModel::PresetRole).toInt(), 1);
    const QModelIndex broken = rowNamed(browser, QStringLiteral("Broken"));
    if (broken.isValid()) QVERIFY(browser.model().entry(browser.filter().mapToSource(broken))->error.size() > 0);
    const QString library = QString::fromStdString(home.library.string());
    QCOMPARE(shownHere(browser.filter(), library), 6 + (broken.isValid() ? 1 : 0));
  }

  // Each word typed narrows the list at once: a name, a preset's name (its font shows
  // with it), a format, nothing at all.
  void typingFilters() {
    FakeHome home;
    Harness h;
    LibraryBrowser& browser = *h.window.browser();
    QVERIFY(waitUntil(h, [&] { return listed(h, {"Sine Test", "Test Font", "Test Kit"}); }));
    const QString library = QString::fromStdString(home.library.string());
    const int all = shownHere(browser.filter(), library);
    QVERIFY(all >= 6);
    QTest::keyClicks(browser.searchField(), QStringLiteral("sine te"));
    QCOMPARE(shownHere(browser.filter(), library), 1);
    QCOMPARE(browser.filter().shownEntries(), 1);
    browser.searchField()->clear();
    QTest::keyClicks(browser.searchField(), QStringLiteral("gamma"));
    QCOMPARE(shownHere(browser.filter(), library), 2);  // the font and its preset
    QVERIFY(rowNamed(browser, QStringLiteral("Gamma Bells")).isValid());
    QVERIFY(!rowNamed(browser, QStringLiteral("Alpha Pad")).isValid());
    browser.searchField()->setText(QStringLiteral("test font"));
    QCOMPARE(shownHere(browser.filter(), library), 4);  // the font and its three presets
    browser.searchField()->setText(QStringLiteral("zzz no such"));
    QCOMPARE(browser.filter().shownEntries(), 0);
    browser.searchField()->clear();
    QCOMPARE(shownHere(browser.filter(), library), all);
  }

  // A click auditions the entry on the preview part: its notes are counted there and
  // sound, and no part's instrument changes.
  void clickAuditionsOnThePreviewPart() {
    FakeHome home;
    Harness h;
    LibraryBrowser& browser = *h.window.browser();
    QVERIFY(waitUntil(h, [&] { return listed(h, {"Sine Test", "Test Font"}); }));
    h.window.loadInto(2, home.sfz);
    QVERIFY(h.waitForLoad(2));
    std::array<QString, limits::kChannels> names;
    std::array<const engine::Program*, limits::kChannels> programs{};
    for (int p = 0; p < limits::kChannels; ++p) names[static_cast<std::size_t>(p)] = h.link.part(p).path;
    const engine::EngineStats before = h.engine.stats();
    for (int p = 0; p < limits::kChannels; ++p) programs[static_cast<std::size_t>(p)] = before.parts[static_cast<std::size_t>(p)].program;

    click(browser, rowNamed(browser, QStringLiteral("Gamma Bells")), false);
    QVERIFY(waitUntil(h, [&] { return h.engine.stats().previewNotes >= 1; }));
    h.clear();
    QVERIFY(waitUntil(h, [&] { return h.engine.stats().previewNotes >= 3; }));
    QVERIFY(peak(h.left) > 0.05f);  // the phrase sounds in the main output
    const session::PreviewState state = h.link.previewState();
    QCOMPARE(QString::fromStdString(state.path), home.font);
    QCOMPARE(state.preset, 2);
    const engine::EngineStats after = h.engine.stats();
    for (int p = 0; p < limits::kChannels; ++p) {
      QCOMPARE(h.link.part(p).path, names[static_cast<std::size_t>(p)]);
      QCOMPARE(after.parts[static_cast<std::size_t>(p)].program, programs[static_cast<std::size_t>(p)]);
    }
    QCOMPARE(h.link.part(2).name, QStringLiteral("Sine Test"));
  }

  // The audition itself, as a click starts it: the font's preset 0:1 loads on the preview
  // part and its phrase (three keys of the preset's range) plays there at 440 Hz (Beta
  // Keys' sine), while part 1's instrument stays; a new choice silences the one before.
  void auditionPlaysAPresetOnThePreviewPart() {
    FakeHome home;
    Harness h;
    h.window.loadInto(0, home.sfz);
    QVERIFY(h.waitForLoad(0));
    const engine::Program* part1 = h.engine.stats().parts[0].program;
    QVERIFY(part1 != nullptr);
    h.window.audition()->start(home.font, 1);
    QVERIFY(waitUntil(h, [&] { return h.engine.stats().previewNotes >= 1; }));
    QVERIFY(h.window.audition()->active());
    QCOMPARE(Audition::phrase(-1, -1), (std::vector<int>{60, 64, 67}));
    QCOMPARE(Audition::phrase(36, 51), (std::vector<int>{43, 47, 50}));
    QCOMPARE(Audition::phrase(60, 61), (std::vector<int>{60, 61}));
    h.clear();
    h.render(8);
    QVERIFY(h.engine.stats().preview.voices >= 1);
    // The phrase's first key, 60, of Beta Keys' 440 Hz sine at key 69: 261.6 Hz.
    const double hz = frequency(h.left, kRate);
    QVERIFY2(std::abs(hz - 440.0 * std::pow(2.0, -9.0 / 12.0)) < 3.0, qPrintable(QString::number(hz)));
    QVERIFY(waitUntil(h, [&] { return h.engine.stats().previewNotes >= 3; }));
    QCOMPARE(h.engine.stats().parts[0].program, part1);
    QCOMPARE(h.link.part(0).name, QStringLiteral("Sine Test"));

    h.window.audition()->start(home.sfz, -1);  // another entry: the font's voices stop
    QVERIFY(waitUntil(h, [&] { return h.link.previewState().path == home.sfz.toStdString() && !h.link.previewState().loading; }));
    QVERIFY(waitUntil(h, [&] { return h.engine.stats().preview.program != nullptr && h.engine.stats().previewNotes >= 4; }));
    QCOMPARE(h.link.previewState().loKey, 24);  // Sine Test's regions that play: 24..96 (not missing.wav's)
    QCOMPARE(h.link.previewState().hiKey, 96);
  }

  // A double-click loads the entry into the selected part; a preset's row, that preset
  // (its sine's pitch is the proof).
  void doubleClickLoadsIntoTheSelectedPart() {
    FakeHome home;
    Harness h;
    LibraryBrowser& browser = *h.window.browser();
    QVERIFY(waitUntil(h, [&] { return listed(h, {"Sine Test", "Test Font"}); }));
    h.window.selectPart(4);
    QSignalSpy activated(browser.view(), &QAbstractItemView::activated);
    QSignalSpy clicked(browser.view(), &QAbstractItemView::clicked);
    click(browser, rowNamed(browser, QStringLiteral("Sine Test")), true);
    QCOMPARE(activated.count(), 1);
    QVERIFY(clicked.count() >= 1);  // the first press auditions it (a double-click is a click first)
    QVERIFY(h.waitForLoad(4));
    QCOMPARE(h.link.part(4).name, QStringLiteral("Sine Test"));
    QCOMPARE(h.link.part(4).path, home.sfz);

    h.window.selectPart(6);
    click(browser, rowNamed(browser, QStringLiteral("Beta Keys")), true);
    QVERIFY(waitUntil(h, [&] { return h.link.part(6).path == home.font && !h.link.loading(6); }));
    h.render(2);
    h.clear();
    h.link.sendMidi(0x96, 69, 100);
    h.render(40);
    QCOMPARE(std::round(frequency(h.left, kRate)), 440.0);  // Beta Keys, not the font's first preset (220 Hz)
    QVERIFY(h.window.browser()->marks().recent().contains(LibraryMarks::key(home.font, 1)));
  }
};

int runLibraryBrowserTests(int argc, char** argv) {
  LibraryBrowserTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "LibraryBrowserTests.moc"
