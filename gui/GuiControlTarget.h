#pragma once
// GuiControlTarget: the OSC server's ControlTarget while the GUI runs.
//
// The gui thread owns the engine's command side (EngineLink), so the control thread
// never touches it: each request is handed to the gui thread as a queued call (Qt's
// event queue: returns at once, never waits) and carried out there exactly as if the
// user had done it, so the window shows it too. Answers the control thread needs at
// once (status, session state) come from copies the gui thread refreshes on every
// poll, under a mutex that only these two non-real-time threads take.
//
// MIDI is stamped on the audio clock when it arrives on the control thread; the hop
// through the gui thread then only delays it within the constant one-period latency
// every timestamped event has (LiveProcessor), instead of adding jitter.
//
// Threads: ControlTarget methods on the control thread; everything else on the gui thread.
#include <QObject>
#include <array>
#include <mutex>
#include <optional>

#include "app/ConnectionControl.h"
#include "control/ControlTarget.h"
#include "gui/Settings.h"

namespace spindle::gui {

class EngineLink;

class GuiControlTarget final : public QObject, public control::ControlTarget {
 public:
  // `store`: where setPreloadFrames() keeps the preload for the next start.
  GuiControlTarget(EngineLink& link, QSettings& store, QObject* parent = nullptr);

  // The backend whose connections OSC reads and a session restores, and the MIDI inputs
  // OSC reports (before the OSC server starts; the backend and `live` outlive it).
  void setBackend(io::AudioBackend* backend, const io::LiveProcessor* live,
                  std::vector<app::ConnectionControl::Input> inputs) {
    connections_.attach(backend, live, std::move(inputs));
  }

  // The remote Spindles this one drives (before the OSC server starts; they outlive it).
  void setHosts(control::HostControl* hosts) { hosts_ = hosts; }

  // ---- control thread ----
  control::HostControl* hostControl() override { return hosts_; }
  void load(uint64_t ticket, int part, const std::string& path, control::LoadListener& listener) override;
  [[nodiscard]] bool unload(int part) override;
  [[nodiscard]] bool sendMidi(uint8_t status, uint8_t data1, uint8_t data2) override;
  [[nodiscard]] bool setPartVolume(int part, float db) override;
  [[nodiscard]] bool setPartPan(int part, float pan) override;
  [[nodiscard]] bool setPartMute(int part, bool on) override;
  [[nodiscard]] bool setPartSolo(int part, bool on) override;
  [[nodiscard]] bool setPartTuning(int part, const std::string& scale, const std::string& keymap,
                                   std::string& error) override;
  [[nodiscard]] bool setPolyphony(int voices) override;
  [[nodiscard]] bool setPreloadFrames(int frames) override;
  [[nodiscard]] bool setQuality(int quality) override;
  [[nodiscard]] bool panic() override;
  [[nodiscard]] bool setEffect(EffectParam param, float value) override;
  std::array<float, 2> partSends(int part) override;
  [[nodiscard]] bool setTempo(float bpm) override;
  control::TempoStatus tempo() override;
  std::vector<PartEffectInfo> partEffects(int part) override;
  [[nodiscard]] bool setPartEffectBypass(int part, int index, bool on) override;
  int maxPolyphony() const override { return maxPolyphony_; }
  control::ControlStatus status() override;
  control::SessionState sessionState() override;
  const control::ProblemLog& problems() override;
  std::vector<control::PartControl> partControls(int part) override;
  control::ConnectionState connections() override { return connections_.state(); }
  void restoreConnections(const std::vector<control::ConnectionLink>& links) override { connections_.restore(links); }
  void setConnection(const control::ConnectionLink& link, bool on) override { connections_.set(link, on); }

 private:
  template <typename Call>
  bool onGuiThread(Call call) {
    return QMetaObject::invokeMethod(this, std::move(call), Qt::QueuedConnection);
  }
  // ---- gui thread ----
  void refresh();
  void onProgress(int part, int filesDone, int filesTotal);
  void onFinished(int part, bool ok, const QString& name);

  struct Ticket {
    uint64_t ticket = 0;
    control::LoadListener* listener = nullptr;
  };
  EngineLink& link_;
  QSettings& store_;
  const int maxPolyphony_;
  std::array<std::optional<Ticket>, control::kParts> tickets_;  // gui thread
  std::mutex mutex_;  // guards the copies below
  control::ControlStatus status_;
  control::SessionState session_;
  std::array<std::vector<control::PartControl>, control::kParts> controls_;
  std::array<std::vector<PartEffectInfo>, control::kParts> effects_;
  app::ConnectionControl connections_;  // thread-safe
  control::HostControl* hosts_ = nullptr;  // thread-safe (cluster::Hosts)
};

}  // namespace spindle::gui
