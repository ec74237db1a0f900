#pragma once
// Settings: what the settings dialog edits, kept across runs in the XDG config dir
// (~/.config/spindle/spindle.conf, or $XDG_CONFIG_HOME/spindle/spindle.conf), with the
// recent libraries in the same file.
//
// [connections] audio= and midi= are integers 0/1, not QSettings' bools: the headless
// `spindle` reads the same file (control/UserSettings.h reads integers only).
//
// Thread: gui thread.
#include <QSettings>
#include <QString>
#include <QStringList>
#include <memory>

namespace spindle::gui {

struct AppSettings {
  QString backend = QStringLiteral("jack");  // jack | pipewire
  QString clientName = QStringLiteral("spindle");
  int polyphony = 256;
  int preloadFrames = 4096;   // frames of each sample held in RAM; the rest streams
  int quality = 1;            // engine::Quality: 0 linear, 1 hermite, 2 sinc, 3 high sinc
  int oscPort = 9951;         // control::OscServerOptions default; 0: no OSC server
  QString oscBind = QStringLiteral("127.0.0.1");
  QString oscSecretFile;      // the cluster's shared secret: other hosts must sign (control/OscAuth.h)
  bool oscRequireSigned = false;  // with a secret, loopback peers must sign too
  bool oscInsecure = false;   // a network bind address without a secret, on purpose
  QString libraryFolder;      // the library browser's folder
  bool connectAudio = true;   // main outputs -> the system's playback (io::ConnectionPolicy)
  bool connectMidi = true;    // every hardware MIDI source -> midi_in, hot-plug included

  bool operator==(const AppSettings&) const = default;
};

// The settings file, $XDG_CONFIG_HOME/spindle/spindle.conf (INI format).
std::unique_ptr<QSettings> openSettings();
AppSettings loadSettings(QSettings& store);
void saveSettings(QSettings& store, const AppSettings& settings);

// Most recent first, without duplicates, at most kMaxRecent.
class RecentLibraries {
 public:
  static constexpr int kMaxRecent = 10;
  explicit RecentLibraries(QSettings& store) : store_(store) {}
  QStringList list() const;
  void add(const QString& sfzFile);
  void clear();

 private:
  QSettings& store_;
};

}  // namespace spindle::gui
