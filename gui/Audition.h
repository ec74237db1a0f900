#pragma once
// Audition: the library browser's preview. The chosen instrument (or SoundFont preset)
// loads on the engine's preview part (session::Control::preview: the loader thread, the
// same load as a part's), and once it plays there a short phrase sounds on it: three
// notes inside its key range (phrase()), each kNoteMs long. The 16 parts and what they
// play never change. A new choice stops the phrase and silences the one before.
//
//   start(path) ──► Control::preview ──► (loader thread) ──► previewState().serial moves
//        │                                                         │
//        └── timer, every kPollMs, waits for it ◄──────────────────┘ ──► note, note, note
//
// Thread: gui thread.
#include <QObject>
#include <QString>
#include <QTimer>
#include <cstdint>
#include <vector>

namespace spindle::gui {

class EngineLink;

class Audition : public QObject {
  Q_OBJECT

 public:
  static constexpr int kPollMs = 20;
  static constexpr int kNoteMs = 280;
  static constexpr int kVelocity = 96;

  explicit Audition(EngineLink& link, QObject* parent = nullptr);
  void start(const QString& path, int preset);
  void stop();  // the phrase stops; what sounds on the preview part is released
  void leave();  // stop(), and the on-screen keyboard plays the parts again
  // A note of the on-screen keyboard while a preview plays: to the preview part.
  bool active() const noexcept { return active_; }
  void key(int key, bool on);
  // Three keys inside lo..hi (-1: unknown, the whole keyboard): its middle, a third and a
  // fifth above, or as many distinct keys as the range has; none outside it.
  static std::vector<int> phrase(int lo, int hi);

 signals:
  void failed(const QString& error);  // the preview load failed
  void played(const QString& name);   // the preview part plays it; the phrase starts

 private:
  void tick();
  bool ready();
  void step();

  EngineLink& link_;
  QTimer timer_;
  QString path_;
  int preset_ = -1;
  uint64_t serial_ = 0;  // the preview state's serial when the load was asked for
  bool waiting_ = false, active_ = false;
  std::vector<int> keys_;
  std::size_t next_ = 0;
  int sounding_ = -1;
};

}  // namespace spindle::gui
