#pragma once
// The GUI's dark theme: one palette and one style sheet for every widget, and the
// colours the painted widgets (keyboard, timeline, histogram, meters) share.
#include <QColor>

class QApplication;
class QLabel;
class QString;
class QWidget;

namespace spindle::gui::theme {

inline const QColor kWindow{0x1b, 0x1e, 0x23};
inline const QColor kPanel{0x23, 0x27, 0x2e};
inline const QColor kPanelAlt{0x2a, 0x2f, 0x37};
inline const QColor kBorder{0x3a, 0x40, 0x4a};
inline const QColor kText{0xdd, 0xe2, 0xe8};
inline const QColor kDim{0x8b, 0x94, 0x9e};
inline const QColor kAccent{0x4f, 0xb3, 0xff};
inline const QColor kGood{0x5f, 0xd3, 0x8d};
inline const QColor kWarn{0xf2, 0xc1, 0x4e};
inline const QColor kBad{0xff, 0x6b, 0x5e};
inline const QColor kOverrun{0xff, 0xa9, 0x4d};
inline const QColor kUnderrun{0xb4, 0x8c, 0xff};
inline const QColor kKeyswitch{0xf2, 0xc1, 0x4e};

// Installs the Fusion style, the palette and the style sheet on the application.
void apply(QApplication& app);

// A label the style sheet styles by its object name (QLabel#<objectName>).
QLabel* label(const QString& text, const char* objectName, QWidget* parent);

}  // namespace spindle::gui::theme
