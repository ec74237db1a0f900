#include "gui/Theme.h"

#include <QApplication>
#include <QLabel>
#include <QPalette>
#include <QStyleFactory>

namespace spindle::gui::theme {

namespace {

QPalette palette() {
  QPalette p;
  p.setColor(QPalette::Window, kWindow);
  p.setColor(QPalette::WindowText, kText);
  p.setColor(QPalette::Base, kPanel);
  p.setColor(QPalette::AlternateBase, kPanelAlt);
  p.setColor(QPalette::Text, kText);
  p.setColor(QPalette::Button, kPanelAlt);
  p.setColor(QPalette::ButtonText, kText);
  p.setColor(QPalette::Highlight, kAccent.darker(130));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::ToolTipBase, kPanelAlt);
  p.setColor(QPalette::ToolTipText, kText);
  p.setColor(QPalette::PlaceholderText, kDim);
  p.setColor(QPalette::Disabled, QPalette::Text, kDim);
  p.setColor(QPalette::Disabled, QPalette::ButtonText, kDim);
  p.setColor(QPalette::Disabled, QPalette::WindowText, kDim);
  return p;
}

const char* const kStyleSheet = R"(
QMainWindow, QDialog { background: #1b1e23; }
QToolBar { background: #23272e; border: none; border-bottom: 1px solid #3a404a; spacing: 6px; padding: 4px; }
QDockWidget::title { background: #23272e; padding: 4px 8px; color: #8b949e; }
QGroupBox { border: 1px solid #3a404a; border-radius: 4px; margin-top: 14px; padding: 6px 6px 4px 6px;
            background: #23272e; font-weight: 600; }
QGroupBox::title { subcontrol-origin: margin; left: 8px; padding: 0 4px; color: #8b949e; }
QFrame#PartStrip { background: #23272e; border: 1px solid #2f343c; border-radius: 3px; }
QFrame#PartStrip[selected="true"] { border: 1px solid #4fb3ff; background: #26303b; }
QLabel#PartNumber { color: #8b949e; font-weight: 600; }
QLabel#Instrument { color: #dde2e8; }
QLabel#Instrument[empty="true"] { color: #5d6570; font-style: italic; }
QLabel#Value { color: #dde2e8; font-family: "DejaVu Sans Mono", monospace; }
QLabel#Big { color: #dde2e8; font-family: "DejaVu Sans Mono", monospace; font-size: 15px; font-weight: 600; }
QLabel#Caption { color: #8b949e; }
QLabel#Hint { color: #f2c14e; }
QToolButton, QPushButton { background: #2a2f37; border: 1px solid #3a404a; border-radius: 3px; padding: 2px 8px; }
QToolButton:hover, QPushButton:hover { background: #323843; }
QToolButton#Mute, QToolButton#Solo { padding: 0px; font-weight: 600; }
QToolButton:checked#Mute { background: #c0504d; color: white; border-color: #c0504d; }
QToolButton:checked#Solo { background: #d9a93a; color: #1b1e23; border-color: #d9a93a; }
QProgressBar { background: #1b1e23; border: 1px solid #3a404a; border-radius: 3px; text-align: center;
               color: #dde2e8; height: 14px; }
QProgressBar::chunk { background: #2f7fc1; border-radius: 2px; }
QSlider::groove:horizontal { height: 4px; background: #3a404a; border-radius: 2px; }
QSlider::sub-page:horizontal { background: #2f7fc1; border-radius: 2px; }
QSlider::handle:horizontal { background: #dde2e8; width: 10px; margin: -5px 0; border-radius: 5px; }
QHeaderView::section { background: #23272e; color: #8b949e; border: none; border-bottom: 1px solid #3a404a;
                       padding: 3px 6px; }
QTableView, QTreeView { background: #1f2329; alternate-background-color: #23272e; border: 1px solid #3a404a;
                        gridline-color: #2f343c; }
QTabWidget::pane { border: 1px solid #3a404a; }
QTabBar::tab { background: #23272e; color: #8b949e; padding: 4px 12px; border: 1px solid #3a404a; }
QTabBar::tab:selected { color: #dde2e8; background: #2a2f37; }
)";

// Fusion fills a check box with Base (the panels' colour: the box would vanish on a
// panel) and outlines it with Window darkened: a darker box with a grey edge instead.
QPalette checkBoxPalette() {
  QPalette p = palette();
  p.setColor(QPalette::Base, kWindow);
  p.setColor(QPalette::Window, kDim);
  return p;
}

}  // namespace

void apply(QApplication& app) {
  app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
  app.setPalette(palette());
  QApplication::setPalette(checkBoxPalette(), "QCheckBox");
  app.setStyleSheet(QString::fromLatin1(kStyleSheet));
}

QLabel* label(const QString& text, const char* objectName, QWidget* parent) {
  auto* l = new QLabel(text, parent);
  l->setObjectName(QString::fromLatin1(objectName));
  return l;
}

}  // namespace spindle::gui::theme
