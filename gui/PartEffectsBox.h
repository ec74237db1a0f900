#pragma once
// PartEffectsBox: the selected part's instrument effects, in the effects tab.
//
//   ┌ Instrument effects → part 1 (Strings) ┐
//   │ [ ] 1  gain     main                   │  one checkbox per effect of the loaded
//   │ [x] 2  filter   fx1    (bypassed)      │  instrument, in file order: checked =
//   └────────────────────────────────────────┘  bypassed (a 5 ms crossfade, no click)
//
// The list follows the part's loaded instrument (EngineLink::partEffects, built when
// its load finished) and the flags however they were set (the window, OSC, a session).
// Widgets are named for tests: "part-effects-title", "effect-bypass-N" (N from 1).
// Thread: gui thread.
#include <QGroupBox>
#include <vector>

#include "core/PartEffects.h"

class QCheckBox;
class QLabel;
class QVBoxLayout;

namespace spindle::gui {

class EngineLink;

class PartEffectsBox : public QGroupBox {
  Q_OBJECT

 public:
  explicit PartEffectsBox(EngineLink& link, QWidget* parent = nullptr);
  void setPart(int part);
  int part() const noexcept { return part_; }
  void refresh();

 private:
  void rebuild(const std::vector<PartEffectInfo>& effects);

  EngineLink& link_;
  int part_ = 0;
  QLabel* title_ = nullptr;
  QLabel* empty_ = nullptr;
  QVBoxLayout* rows_ = nullptr;
  std::vector<PartEffectInfo> shown_;  // the effects the boxes stand for (flags not compared)
  std::vector<QCheckBox*> boxes_;
};

}  // namespace spindle::gui
