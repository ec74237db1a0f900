// spindle_gui_tests: the Qt Test classes of the GUI, run offscreen in one QApplication.
#include <QApplication>

#include "gui/Theme.h"

namespace spindle::gui::test {
int runModelTests(int argc, char** argv);
int runPlaybackTests(int argc, char** argv);
int runControlTargetTests(int argc, char** argv);
int runSystemTests(int argc, char** argv);
int runRuntimeProblemTests(int argc, char** argv);
int runControlStripTests(int argc, char** argv);
int runConnectionsPanelTests(int argc, char** argv);
}  // namespace spindle::gui::test

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  spindle::gui::theme::apply(app);
  int failed = spindle::gui::test::runModelTests(argc, argv);
  failed += spindle::gui::test::runPlaybackTests(argc, argv);
  failed += spindle::gui::test::runControlTargetTests(argc, argv);
  failed += spindle::gui::test::runSystemTests(argc, argv);
  failed += spindle::gui::test::runRuntimeProblemTests(argc, argv);
  failed += spindle::gui::test::runControlStripTests(argc, argv);
  failed += spindle::gui::test::runConnectionsPanelTests(argc, argv);
  return failed == 0 ? 0 : 1;
}
