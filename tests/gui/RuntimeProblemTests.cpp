// Problems met while playing reach the problems panel: a real engine streaming from a
// real disk thread whose reads start failing (EIO) under a held note, and a library
// over the memory budget. The disk error becomes a runtime row naming the sample
// file; the sample the budget left out is a row of its load; both are in the problem
// log OSC reads (the session Control's problems()). Offscreen (QT_QPA_PLATFORM=offscreen).
#include <QtTest>
#include <atomic>
#include <thread>

#include "GuiHarness.h"
#include "stream/Streaming.h"

namespace spindle::gui::test {

namespace {

constexpr int64_t kPreload = 2048;
// A float sine sample's preload in RAM (stereo: WavWriter writes two channels, plus
// guards), for the highest pitch its region plays: low.wav's keys lie below its key
// center, so the bend's 200 cents; mid.wav's reach 10 keys above it, 1200 cents.
std::size_t preloadBytes(double cents) {
  const int64_t frames = stream::PreloadNeed{cents, 0}.preloadFor(kPreload, kRate);
  return sizeof(float) * 2 * static_cast<std::size_t>(frames + 2 * limits::kGuardFrames);
}

stream::StreamingOptions streamingOptions(const std::atomic<bool>& failReads) {
  stream::StreamingOptions options;
  options.preloadFrames = kPreload;
  options.disk.readBytes = 16 * 1024;
  options.disk.fifoPriority = 0;
  options.disk.beforeRead = [&failReads] { return !failReads.load(); };  // false: the read fails (EIO)
  return options;
}

// The budget holds two of the sine library's three samples (high.wav is left out).
stream::PoolOptions budgetForTwo(const stream::StreamingOptions& options) {
  stream::PoolOptions pool = stream::poolOptionsFor(options);
  pool.memoryBudget = preloadBytes(200.0) + preloadBytes(1200.0) + 1000;
  return pool;
}

engine::EngineConfig streamingConfig(stream::Streaming& streaming) {
  engine::EngineConfig config = engineConfig();
  config.streams = streaming.bank();
  return config;
}

// GuiHarness's rig with streaming: the session's pools first (the disk thread reads their
// preloads), then the disk thread and its stream slots, then the engine that uses them.
struct StreamingHarness {
  std::atomic<bool> failReads{false};
  QTemporaryDir dir;
  stream::StreamingOptions options = streamingOptions(failReads);
  control::ProblemLog problems;
  session::Library library{budgetForTwo(options)};
  stream::Streaming streaming{options, 32};
  engine::Engine engine{streamingConfig(streaming)};
  io::LiveProcessor live{engine};
  session::Control control{engine, live, 0, library, problems};
  EngineLink link{control, {"test", 0, false, false}};
  QSettings store{dir.filePath(QStringLiteral("spindle.conf")), QSettings::IniFormat};
  MainWindow window{link, store};
  uint64_t frame = 0;

  StreamingHarness() {
    control.setStreaming(&streaming);  // the disk thread's errors into the problem log
    window.show();
    QCoreApplication::processEvents();
  }
  // Renders `blocks` periods as freewheel does (the disk waited for before each
  // stretch), so what happens depends on the fault, not on the machine's speed.
  void render(int blocks) {
    std::vector<float> l(kBlock), r(kBlock);
    for (int b = 0; b < blocks; ++b) {
      live.beginCycle(io::CycleStart{frame, kBlock, io::monotonicNs(), kRate});
      live.endCycleWaiting(l.data(), r.data());
      frame += kBlock;
    }
  }
  void pollAndRender(int rounds) {
    for (int i = 0; i < rounds; ++i) {
      QCoreApplication::processEvents();
      link.poll();
      render(1);
    }
  }
};

struct Row {
  QString part, location, tooltip, message;
};

std::vector<Row> rowsOf(const ProblemsModel& model) {
  std::vector<Row> rows;
  for (int r = 0; r < model.rowCount(); ++r)
    rows.push_back({model.index(r, ProblemsModel::Part).data().toString(),
                    model.index(r, ProblemsModel::Location).data().toString(),
                    model.index(r, ProblemsModel::Location).data(Qt::ToolTipRole).toString(),
                    model.index(r, ProblemsModel::Message).data().toString()});
  return rows;
}

}  // namespace

class RuntimeProblemTests : public QObject {
  Q_OBJECT

 private slots:
  void runtimeRowsFollowTheLoadRows() {
    ProblemsModel model;
    model.setProblems(2, {{Problem::Severity::Warning, "/lib/a.sfz", 3, "unknown opcode 'foo' (ignored)"}});
    model.setRuntimeProblems({{Problem::Severity::Error, "/lib/s/x.wav", 0, "cannot read sample file /lib/s/x.wav"}});
    model.setProblems(1, {{Problem::Severity::Error, "/lib/b.sfz", 7, "sample not found: 'y.wav'"}});
    const auto rows = rowsOf(model);
    QCOMPARE(rows.size(), std::size_t{3});
    QCOMPARE(model.errorCount(), 2);
    QCOMPARE(rows[0].location, QStringLiteral("b.sfz:7"));
    QCOMPARE(rows[1].location, QStringLiteral("a.sfz:3"));
    QCOMPARE(rows[2].part, QStringLiteral("-"));
    QCOMPARE(rows[2].location, QStringLiteral("x.wav"));
    QCOMPARE(rows[2].tooltip, QStringLiteral("/lib/s/x.wav"));
    QCOMPARE(model.index(2, ProblemsModel::Severity).data().toString(), QStringLiteral("error"));
    model.setRuntimeProblems({});
    QCOMPARE(model.rowCount(), 2);
  }

  void diskErrorWhilePlayingAndBudgetShowAsRows() {
    StreamingHarness h;
    const auto sfz = writeSineLibrary(h.dir.filePath(QStringLiteral("lib")).toStdString());
    const std::string samples = (sfz.parent_path() / "samples").string();
    QSignalSpy runtime(&h.link, &EngineLink::runtimeProblemsChanged);
    h.window.loadInto(0, QString::fromStdString(sfz.string()));
    for (int i = 0; i < 3000 && h.link.loading(0); ++i) h.pollAndRender(1);
    QVERIFY(!h.link.loading(0));
    h.pollAndRender(2);

    // The sample the budget left out: a row of the load, naming the file.
    const QString highWav = QString::fromStdString(samples + "/high.wav");
    std::vector<Row> rows = rowsOf(h.window.problems());
    const auto budgetRow = std::find_if(rows.begin(), rows.end(), [&](const Row& r) {
      return r.message.contains(QStringLiteral("sample file ") + highWav + QStringLiteral(" not loaded")) &&
             r.message.contains(QStringLiteral("memory budget"));
    });
    QVERIFY2(budgetRow != rows.end(), qPrintable(rows.empty() ? QString() : rows.back().message));
    QCOMPARE(budgetRow->part, QStringLiteral("1"));
    QCOMPARE(budgetRow->location, QStringLiteral("Sine Test.sfz:5"));
    QCOMPARE(h.link.runtimeProblems().size(), std::size_t{0});  // a load's problem, not a runtime row
    QVERIFY(runtime.size() >= 1);                                // but in the problem log

    // A held note streams mid.wav; then every read fails.
    const std::size_t loadRows = rows.size();
    h.link.noteOn(0, 69, 100);
    h.pollAndRender(20);  // 5120 frames: past the 2048-frame preload, streaming
    QCOMPARE(h.link.part(0).voices, 1);
    h.failReads.store(true);
    h.pollAndRender(200);
    h.failReads.store(false);
    QCOMPARE(h.link.part(0).voices, 0);  // ended although its key is still down

    const QString midWav = QString::fromStdString(samples + "/mid.wav");
    rows = rowsOf(h.window.problems());
    QCOMPARE(rows.size(), loadRows + 1);
    const Row& disk = rows.back();
    QCOMPARE(disk.part, QStringLiteral("-"));
    QCOMPARE(disk.location, QStringLiteral("mid.wav"));
    QCOMPARE(disk.tooltip, midWav);
    QVERIFY2(disk.message.startsWith(QStringLiteral("cannot read sample file ") + midWav + QStringLiteral(" at frame ")),
             qPrintable(disk.message));
    QVERIFY2(disk.message.endsWith(QStringLiteral(": Input/output error")), qPrintable(disk.message));

    // OSC reads the same log on the control thread.
    control::ControlTarget& target = h.control;
    std::vector<control::LoggedProblem> logged;
    std::thread control([&] { logged = target.problems().since(0); });
    control.join();
    QCOMPARE(logged.size(), std::size_t{2});
    QCOMPARE(logged[0].kind, control::ProblemKind::Load);
    QCOMPARE(QString::fromStdString(logged[0].file), highWav);
    QCOMPARE(logged[1].kind, control::ProblemKind::Disk);
    QCOMPARE(QString::fromStdString(logged[1].file), midWav);
    h.link.noteOff(0, 69);
    h.pollAndRender(5);
  }

  // A load none of whose samples loads is an error row of the part, not a silent load.
  void loadWithNoSampleIsAnErrorRow() {
    StreamingHarness h;
    const QString sfz = h.dir.filePath(QStringLiteral("silent.sfz"));
    QFile file(sfz);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("<region> sample=gone.wav\n");
    file.close();
    QSignalSpy finished(&h.link, &EngineLink::loadFinished);
    h.window.loadInto(0, sfz);
    for (int i = 0; i < 3000 && h.link.loading(0); ++i) h.pollAndRender(1);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished[0][1].toBool(), false);
    const std::vector<Row> rows = rowsOf(h.window.problems());
    const auto silent = std::find_if(rows.begin(), rows.end(), [](const Row& r) {
      return r.message == QStringLiteral("none of its 1 sample could be loaded: nothing would sound");
    });
    QVERIFY2(silent != rows.end(), qPrintable(rows.empty() ? QString() : rows.back().message));
    QCOMPARE(silent->part, QStringLiteral("1"));
    QCOMPARE(silent->location, QStringLiteral("silent.sfz"));
    const int index = static_cast<int>(silent - rows.begin());
    QCOMPARE(h.window.problems().index(index, ProblemsModel::Severity).data().toString(), QStringLiteral("error"));
  }

  // GuiSession::supervise logs a lost server; the panel shows it as a runtime row.
  void lostServerShowsAsRuntimeRow() {
    StreamingHarness h;
    h.pollAndRender(1);
    const int before = h.window.problems().rowCount();
    h.link.problemLog().add(control::ProblemKind::Server, "", "the jack server went away; reconnecting");
    h.pollAndRender(1);
    const std::vector<Row> rows = rowsOf(h.window.problems());
    QCOMPARE(static_cast<int>(rows.size()), before + 1);
    QCOMPARE(rows.back().part, QStringLiteral("-"));
    QCOMPARE(rows.back().location, QString());
    QCOMPARE(rows.back().message, QStringLiteral("the jack server went away; reconnecting"));
    QCOMPARE(h.window.problems().index(before, ProblemsModel::Severity).data().toString(), QStringLiteral("error"));
  }
};

int runRuntimeProblemTests(int argc, char** argv) {
  RuntimeProblemTests tests;
  return QTest::qExec(&tests, argc, argv);
}

}  // namespace spindle::gui::test

#include "RuntimeProblemTests.moc"
