// MainWindow, the Libraries panel: the library index (started with the window: the
// standard places and the user's folders), its browser, the audition on the preview
// part, and loading an entry (a SoundFont's preset included) into a part.
#include <QFileInfo>
#include <QSettings>
#include <QStatusBar>

#include "gui/Audition.h"
#include "gui/EngineLink.h"
#include "gui/LibraryBrowser.h"
#include "gui/MainWindow.h"
#include "library/LibraryIndex.h"

namespace spindle::gui {

namespace {

// The folders the user added, as the headless program keeps them too ([library]
// folders\N\path, library::userFolders), and the one the settings name.
QStringList userFolders(QSettings& store) {
  QStringList folders;
  const int n = store.beginReadArray(QStringLiteral("library/folders"));
  for (int i = 0; i < n; ++i) {
    store.setArrayIndex(i);
    folders << store.value(QStringLiteral("path")).toString();
  }
  store.endArray();
  const QString chosen = loadSettings(store).libraryFolder;
  if (!chosen.isEmpty() && !folders.contains(chosen)) folders << chosen;
  return folders;
}

void addUserFolder(QSettings& store, const QString& folder) {
  QStringList folders = userFolders(store);
  if (folders.contains(folder)) return;
  folders << folder;
  store.beginWriteArray(QStringLiteral("library/folders"), static_cast<int>(folders.size()));
  for (int i = 0; i < folders.size(); ++i) {
    store.setArrayIndex(i);
    store.setValue(QStringLiteral("path"), folders[i]);
  }
  store.endArray();
}

}  // namespace

MainWindow::~MainWindow() = default;

QWidget* MainWindow::buildLibrary() {
  pendingPreset_.fill(-1);
  library::Options options;
  options.roots = library::standardRoots();
  for (const QString& folder : userFolders(store_)) options.roots.emplace_back(folder.toStdString());
  options.cacheFile = library::defaultCacheFile();
  index_ = std::make_unique<library::Index>(std::move(options));
  index_->start();  // the cache's entries at once, then the scan in the background
  browser_ = new LibraryBrowser(*index_, store_, this);
  audition_ = new Audition(link_, this);
  connect(browser_, &LibraryBrowser::auditionRequested, audition_, &Audition::start);
  connect(browser_, &LibraryBrowser::libraryActivated, this, [this](const QString& file, int preset) {
    audition_->leave();
    loadEntry(selected_, file, preset);
  });
  connect(browser_, &LibraryBrowser::folderChosen, this, [this](const QString& folder) { addUserFolder(store_, folder); });
  connect(audition_, &Audition::played, this,
          [this](const QString& name) { statusBar()->showMessage(tr("Preview: %1").arg(name), 4000); });
  connect(audition_, &Audition::failed, this,
          [this](const QString& error) { statusBar()->showMessage(tr("Preview: %1").arg(error), 8000); });
  return browser_;
}

void MainWindow::loadEntry(int part, const QString& file, int preset) {
  loadInto(part, file);
  pendingPreset_[static_cast<std::size_t>(part)] = preset;
  browser_->loaded(file, preset);
}

}  // namespace spindle::gui
