#pragma once
// ControlStrip: the selected part's instrument controls, as its author labelled them
// (label_cc): one slider per controller, 0..127, starting at the instrument's set_cc
// default. Moving a slider asks for that CC on the part (MainWindow sends it through
// the GUI's MIDI input, like the on-screen keyboard's notes); values that move
// elsewhere (a MIDI controller, OSC) are shown without being sent back.
//
//   Controls → part 1 (Sax)
//   Master Vol  ───●──── 100   Master Pan ────●─── 64   Attack ●────── 0   ...
//
// Controllers above 127 (an instrument's own set_hdcc controls) have no MIDI message:
// their sliders show the value and are disabled. A control with named steps (a
// DecentSampler button or menu: ControllerLabel::steps) is a list of its step names;
// choosing one sends the middle of its run of MIDI values (controllers::stepValue).
//
// Thread: gui thread.
#include <QWidget>
#include <vector>

#include "core/Controllers.h"

class QComboBox;
class QGridLayout;
class QLabel;
class QSlider;

namespace spindle::gui {

class ControlStrip : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kColumns = 3;  // controls per row

  explicit ControlStrip(QWidget* parent = nullptr);

  // A new instrument or part: one slider per control, at `values` (0..1, parallel).
  void setControls(const std::vector<controllers::ControllerLabel>& controls, const std::vector<float>& values);
  // Values moved elsewhere; a slider the user holds keeps the user's value.
  void showValues(const std::vector<float>& values);

  int count() const noexcept { return static_cast<int>(sliders_.size()); }
  // The control's widget: a slider, or a list for a control with steps (the other null).
  QSlider* slider(int index) const { return sliders_.at(static_cast<std::size_t>(index)); }
  QComboBox* steps(int index) const { return steps_.at(static_cast<std::size_t>(index)); }
  QString labelText(int index) const;

 signals:
  void controlChanged(int cc, int value);  // value 0..127

 private:
  void clear();
  void addControl(int index, const controllers::ControllerLabel& control, float value);
  QWidget* addSlider(int index, const controllers::ControllerLabel& control, float value, QLabel* text);
  QWidget* addSteps(int index, const controllers::ControllerLabel& control, float value);

  QGridLayout* grid_ = nullptr;
  QLabel* empty_ = nullptr;
  std::vector<QLabel*> labels_, values_;
  std::vector<QSlider*> sliders_;
  std::vector<QComboBox*> steps_;
  // Per slider: the value the user sent and how many showValues() calls may still pass
  // before the engine shows it (a CC takes a period or two): no flicker back meanwhile.
  struct Sent {
    int value = -1;
    int polls = 0;
  };
  std::vector<Sent> sent_;
  static constexpr int kSentPolls = 15;  // half a second at EngineLink::kPollHz
};

}  // namespace spindle::gui
