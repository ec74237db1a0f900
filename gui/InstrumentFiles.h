#pragma once
// The names the GUI offers as instruments (file dialog, library browser, drops). The
// loader recognises a file by its content (formats::detect); these names only decide
// what the browser lists and what a drop accepts, so a kit folder, a .dsbundle or a
// .multisample (folders) is accepted too.
#include <QFileInfo>
#include <QString>
#include <QStringList>

namespace spindle::gui {

inline QStringList instrumentNameFilters() {
  return {QStringLiteral("*.sfz"),       QStringLiteral("*.SFZ"),       QStringLiteral("*.sf2"),
          QStringLiteral("*.SF2"),       QStringLiteral("*.sf3"),       QStringLiteral("*.SF3"),
          QStringLiteral("*.dspreset"),  QStringLiteral("*.dsbundle"),  QStringLiteral("*.h2drumkit"),
          QStringLiteral("drumkit.xml"), QStringLiteral("*.multisample"), QStringLiteral("multisample.xml")};
}

// "SFZ, SoundFont, DecentSampler, Hydrogen, multisample (*.sfz ...)", for QFileDialog.
inline QString instrumentDialogFilter() {
  return QStringLiteral("Instruments: SFZ, SoundFont, DecentSampler, Hydrogen kits, multisamples (%1)")
      .arg(instrumentNameFilters().join(' '));
}

inline bool isInstrumentPath(const QString& path) {
  const QFileInfo info(path);
  if (info.isDir()) return info.suffix().compare(QStringLiteral("dsbundle"), Qt::CaseInsensitive) == 0 ||
                           info.suffix().compare(QStringLiteral("multisample"), Qt::CaseInsensitive) == 0 ||
                           QFileInfo::exists(info.filePath() + QStringLiteral("/drumkit.xml")) ||
                           QFileInfo::exists(info.filePath() + QStringLiteral("/multisample.xml"));
  const QString name = info.fileName();
  for (const QString& pattern : instrumentNameFilters()) {
    const QString tail = pattern.startsWith('*') ? pattern.mid(1) : pattern;
    if (name.endsWith(tail, Qt::CaseInsensitive)) return true;
  }
  return false;
}

}  // namespace spindle::gui
