#include "gui/Settings.h"

#include <QFileInfo>
#include <QStandardPaths>
#include <algorithm>

#include "core/Limits.h"

namespace spindle::gui {

namespace {
const QString kRecentKey = QStringLiteral("libraries/recent");
}

// An explicit path: QSettings(IniFormat, UserScope, ...) would name the file spindle.ini.
std::unique_ptr<QSettings> openSettings() {
  const QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
  return std::make_unique<QSettings>(dir + QStringLiteral("/spindle/spindle.conf"), QSettings::IniFormat);
}

AppSettings loadSettings(QSettings& store) {
  const AppSettings d;
  AppSettings s;
  s.backend = store.value("audio/backend", d.backend).toString();
  if (s.backend != "jack" && s.backend != "pipewire") s.backend = d.backend;
  s.clientName = store.value("audio/clientName", d.clientName).toString();
  if (s.clientName.isEmpty()) s.clientName = d.clientName;
  s.polyphony = std::clamp(store.value("engine/polyphony", d.polyphony).toInt(), 1, limits::kMaxVoices);
  s.preloadFrames = std::clamp(store.value("engine/preloadFrames", d.preloadFrames).toInt(), -1, 1 << 22);
  s.quality = std::clamp(store.value("engine/quality", d.quality).toInt(), 0, 3);
  s.oscPort = std::clamp(store.value("osc/port", d.oscPort).toInt(), 0, 65535);
  s.oscBind = store.value("osc/bind", d.oscBind).toString();
  s.oscSecretFile = store.value("osc/secretFile", d.oscSecretFile).toString();
  s.oscRequireSigned = store.value("osc/requireSigned", 0).toInt() != 0;
  s.oscInsecure = store.value("osc/insecure", 0).toInt() != 0;
  s.libraryFolder = store.value("libraries/folder", d.libraryFolder).toString();
  s.connectAudio = store.value("connections/audio", d.connectAudio ? 1 : 0).toInt() != 0;
  s.connectMidi = store.value("connections/midi", d.connectMidi ? 1 : 0).toInt() != 0;
  return s;
}

void saveSettings(QSettings& store, const AppSettings& s) {
  store.setValue("audio/backend", s.backend);
  store.setValue("audio/clientName", s.clientName);
  store.setValue("engine/polyphony", s.polyphony);
  store.setValue("engine/preloadFrames", s.preloadFrames);
  store.setValue("engine/quality", s.quality);
  store.setValue("osc/port", s.oscPort);
  store.setValue("osc/bind", s.oscBind);
  store.setValue("osc/secretFile", s.oscSecretFile);
  store.setValue("osc/requireSigned", s.oscRequireSigned ? 1 : 0);
  store.setValue("osc/insecure", s.oscInsecure ? 1 : 0);
  store.setValue("libraries/folder", s.libraryFolder);
  store.setValue("connections/audio", s.connectAudio ? 1 : 0);
  store.setValue("connections/midi", s.connectMidi ? 1 : 0);
  store.sync();
}

QStringList RecentLibraries::list() const { return store_.value(kRecentKey).toStringList(); }

void RecentLibraries::add(const QString& sfzFile) {
  const QString path = QFileInfo(sfzFile).absoluteFilePath();
  QStringList recent = list();
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > kMaxRecent) recent.removeLast();
  store_.setValue(kRecentKey, recent);
  store_.sync();
}

void RecentLibraries::clear() {
  store_.remove(kRecentKey);
  store_.sync();
}

}  // namespace spindle::gui
