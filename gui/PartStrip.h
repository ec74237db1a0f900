#pragma once
// PartStrip: one MIDI channel's part as a row: number, instrument name, load button
// (also a drop target for .sfz files), a progress bar while preloading (files done of
// total, MB; with a cancel button), its tuning (TuningButton), volume, pan, mute, solo, the voices sounding and a
// level meter (dBFS, the engine's per-part peak with the EngineLink's hold and fall).
//
// Thread: gui thread. The strip only shows state and emits requests; MainWindow
// forwards them to the EngineLink.
#include <QFrame>
#include <QString>

class QLabel;
class QProgressBar;
class QSlider;
class QToolButton;

namespace spindle::gui {

class LevelMeter;
class TuningButton;

class PartStrip : public QFrame {
  Q_OBJECT

 public:
  explicit PartStrip(int part, QWidget* parent = nullptr);

  int part() const noexcept { return part_; }
  void setInstrument(const QString& name, const QString& path);
  void setProgress(int filesDone, int filesTotal, double megabytes);
  void setLoading(bool loading);
  void setLevel(float meterDb, int voices);
  void setSelected(bool selected);
  // Shows mixer settings changed elsewhere (OSC) without emitting the change back.
  void showMixer(float volumeDb, float pan, bool mute, bool solo);

  QString instrumentText() const;
  float meterDb() const;       // what the meter shows, clamped to its -60..0 dB scale
  QString voicesText() const;  // the voice count shown ("·" for none)
  bool isLoading() const noexcept { return loading_; }
  QProgressBar* progressBar() const noexcept { return progress_; }
  QToolButton* loadButton() const noexcept { return load_; }
  QToolButton* cancelButton() const noexcept { return cancel_; }
  TuningButton* tuningButton() const noexcept { return tuning_; }

  static constexpr int kVolumeMinDb = -60, kVolumeMaxDb = 6;

 signals:
  void loadRequested(int part);
  void fileDropped(int part, const QString& sfzFile);
  // A SoundFont preset dragged from the library browser (its URL's fragment "preset=N",
  // N = bank * 128 + program).
  void presetDropped(int part, const QString& file, int preset);
  void cancelRequested(int part);
  void volumeChanged(int part, float db);
  void panChanged(int part, float pan);
  void muteChanged(int part, bool on);
  void soloChanged(int part, bool on);
  void selectRequested(int part);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  void buildControls();
  void buildMixer();
  void connectControls();
  QToolButton* toggle(const QString& text, const QString& name, const QString& tip);

  int part_;
  bool loading_ = false;
  QLabel* number_ = nullptr;
  QLabel* name_ = nullptr;
  QToolButton* load_ = nullptr;
  QToolButton* cancel_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QSlider* volume_ = nullptr;
  QLabel* volumeText_ = nullptr;
  QSlider* pan_ = nullptr;
  QToolButton* mute_ = nullptr;
  QToolButton* solo_ = nullptr;
  QLabel* notes_ = nullptr;
  LevelMeter* meter_ = nullptr;
  TuningButton* tuning_ = nullptr;
};

}  // namespace spindle::gui
