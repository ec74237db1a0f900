#pragma once
// EffectsPanel: the selected part's instrument effects (PartEffectsBox), the shared
// reverb and chorus every part sends to (the master effects), and each part's sends.
//
//   ┌ Instrument effects → part 1 ┐  each effect of its instrument with a bypass box
//   ┌ Reverb ────────────────┐  [x] on        every setting FluidSynth names, in its
//   │ room size   [ 0.20 ]   │               range (core/EffectParams.h); a change
//   │ damping ... level      │               goes to the engine at once and glides
//   ┌ Chorus ────────────────┐  [x] on        there (no click)
//   │ voices [3] level speed depth           │
//   ┌ Sends ─────────────────┐
//   │ part  reverb  chorus   │  CC91 / CC93 on the part's channel, 0..127, as the
//   │  1    [ 40]   [  0]    │  engine holds them (any MIDI input moves them too)
//
// Widgets are named after the settings ("reverb-room-size", "send-reverb-3") for tests.
// Thread: gui thread. refresh() follows the engine (EngineLink::statsUpdated) and the
// link's effects (EngineLink::effectsChanged: OSC, a session).
#include <QWidget>
#include <array>

#include "core/EffectParams.h"
#include "core/Limits.h"

class QAbstractSpinBox;
class QCheckBox;
class QSpinBox;

namespace spindle::gui {
class PartEffectsBox;
}

namespace spindle::gui {

class EngineLink;

class EffectsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit EffectsPanel(EngineLink& link, QWidget* parent = nullptr);
  void refresh();
  // The part whose instrument effects the panel lists (the window's selected part).
  void setPart(int part);

 private:
  QWidget* buildEffect(const QString& title, std::string_view effect);
  QWidget* buildSends();
  QWidget* settingWidget(const EffectParamInfo& info);

  EngineLink& link_;
  PartEffectsBox* partEffects_ = nullptr;
  std::array<QWidget*, kEffectParams> settings_{};  // QCheckBox or spin box per setting
  std::array<std::array<QSpinBox*, 2>, limits::kChannels> sends_{};
};

}  // namespace spindle::gui
