#pragma once
// ConnectionsPanel: what plays into Spindle and where its sound goes, so a silent
// keyboard can be told from a silent library at a glance.
//
//   no MIDI input connected                       <- ConnectionReport::hint(), or all good
//   ┌ MIDI inputs ────────────────┐
//   │ ● midi_in · jack       ch 2 │  light: lit ~200 ms after a message, else steady grey
//   │    USB Keyboard:capture     │  hardware sources, each with its box: the user's
//   │    [x] feeds Spindle        │    choice (EngineLink::setLink)
//   │    a2j:Sequencer (software) │  other ports feeding midi_in
//   │ ● MIDI device /dev/… ch –   │  rows GuiSession adds: what this run started
//   │ ● Keyboard · OSC       ch 1 │    (device, sequencer, on-screen keyboard and OSC)
//   ┌ Parts and channels ─────────┐
//   │ ch 1 → part 1  Grand Piano  │  parts with an instrument only
//   ┌ Audio output ───────────────┐
//   │ out_L → system:playback_1   │  or "not connected"
//
// A channel whose part has no instrument shows in amber: the keyboard plays, nothing
// answers. Every input plays the part of its message's channel (the engine: part k
// takes every message on MIDI channel k), so the channel is what matters.
//
// Thread: gui thread. refresh() moves the lights (EngineLink::statsUpdated, 30 Hz);
// the rows are rebuilt only when the link reports new connections or a part changed.
#include <QString>
#include <QWidget>
#include <vector>

#include "io/Connections.h"

class QGridLayout;
class QLabel;
class QVBoxLayout;

namespace spindle::gui {

class EngineLink;

// A round lamp: lit (green) or idle (a steady dim grey).
class ActivityLight : public QWidget {
  Q_OBJECT

 public:
  explicit ActivityLight(QWidget* parent = nullptr);
  void setLit(bool lit);
  bool lit() const noexcept { return lit_; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  bool lit_ = false;
};

class ConnectionsPanel : public QWidget {
  Q_OBJECT

 public:
  static constexpr double kLitSeconds = 0.2;

  explicit ConnectionsPanel(const EngineLink& link, QWidget* parent = nullptr);

  // One more MIDI input row under the server's midi_in. `key` names its widgets
  // ("light:<key>", "channel:<key>"); `activity` indexes LiveStatsSnapshot::inputs.
  void addInput(const QString& key, int activity, const QString& title, const QString& detail);
  void refresh();

 signals:
  // The user ticked or cleared a hardware source's "feeds Spindle" box.
  void midiSourceToggled(const QString& source, bool on);

 private:
  struct InputRow {
    int activity = 0;
    ActivityLight* light = nullptr;
    QLabel* channel = nullptr;
    uint64_t seen = 0;     // the input's message count at the last refresh
    double litUntil = 0.0;
  };

  QWidget* buildInputs();
  QWidget* buildParts();
  QWidget* buildAudio();
  QLabel* addRow(const QString& key, int activity, int row);
  void rebuildConnections();
  QWidget* buildSources(const io::ConnectionReport& report);
  void rebuildParts();
  void refreshRow(InputRow& row, double now);

  const EngineLink& link_;
  QLabel* hint_ = nullptr;
  QGridLayout* inputs_ = nullptr;
  QLabel* midiIn_ = nullptr;
  QWidget* sources_ = nullptr;
  QVBoxLayout* partsBox_ = nullptr;
  QWidget* parts_ = nullptr;
  QLabel* audio_ = nullptr;
  std::vector<InputRow> rows_;
};

}  // namespace spindle::gui
