// spindle_gui_tests: the Qt Test classes of the GUI, run offscreen in one QApplication.
// `spindle_gui_tests --fixtures` runs the ones that read the fixtures instead, and exits
// 77 (ctest's "Skipped") when they skipped for want of them (support/FixturePaths.h).
#include <QApplication>
#include <string_view>

#include "FixturePaths.h"
#include "gui/Theme.h"

namespace spindle::gui::test {
int runModelTests(int argc, char** argv);
int runPlaybackTests(int argc, char** argv);
int runPlaybackFixtureTests(int argc, char** argv);
int runControlTargetTests(int argc, char** argv);
int runSystemTests(int argc, char** argv);
int runRuntimeProblemTests(int argc, char** argv);
int runControlStripTests(int argc, char** argv);
int runConnectionsPanelTests(int argc, char** argv);
int runEffectsPanelTests(int argc, char** argv);
int runTuningTests(int argc, char** argv);
int runHostsPanelTests(int argc, char** argv);
int runMpeKeyboardTests(int argc, char** argv);
int runLibraryBrowserTests(int argc, char** argv);
int runLibraryDropTests(int argc, char** argv);
int runLibraryScaleTests(int argc, char** argv);
}  // namespace spindle::gui::test

int main(int argc, char** argv) {
  const bool fixtures = argc > 1 && std::string_view(argv[1]) == "--fixtures";
  if (fixtures) {  // Qt Test would take it for a test function's name
    for (int i = 1; i < argc; ++i) argv[i] = argv[i + 1];  // argv[argc] is null
    --argc;
  }
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  spindle::gui::theme::apply(app);
  if (fixtures) {
    const int failed = spindle::gui::test::runPlaybackFixtureTests(argc, argv);
    return spindle::test::exitCodeForCtest(failed == 0 ? 0 : 1, 0);
  }
  int failed = spindle::gui::test::runModelTests(argc, argv);
  failed += spindle::gui::test::runPlaybackTests(argc, argv);
  failed += spindle::gui::test::runControlTargetTests(argc, argv);
  failed += spindle::gui::test::runSystemTests(argc, argv);
  failed += spindle::gui::test::runRuntimeProblemTests(argc, argv);
  failed += spindle::gui::test::runControlStripTests(argc, argv);
  failed += spindle::gui::test::runConnectionsPanelTests(argc, argv);
  failed += spindle::gui::test::runEffectsPanelTests(argc, argv);
  failed += spindle::gui::test::runTuningTests(argc, argv);
  failed += spindle::gui::test::runHostsPanelTests(argc, argv);
  failed += spindle::gui::test::runMpeKeyboardTests(argc, argv);
  failed += spindle::gui::test::runLibraryBrowserTests(argc, argv);
  failed += spindle::gui::test::runLibraryDropTests(argc, argv);
  failed += spindle::gui::test::runLibraryScaleTests(argc, argv);
  return failed == 0 ? 0 : 1;
}
