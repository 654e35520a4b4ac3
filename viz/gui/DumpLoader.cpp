// DumpLoader (see the header).
#include "viz/gui/DumpLoader.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTextStream>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/dump/Dump.h"

namespace fathom::viz {

LoadedDump loadDumpForView(const QString& path, const LoadOptions& options) {
  LoadedDump out;
  out.path = path;
  QElapsedTimer timer;
  timer.start();
  DumpReadOptions read;
  read.keepUnknownOps = options.keepUnknownOps;
  read.trustPaths = options.trustPaths;
  auto dump = loadDump(path.toStdString(), read);
  if (dump.ok()) out.dump = std::make_shared<const Dump>(std::move(*dump));
  else out.error = dump.error().str();
  out.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
  return out;
}

QFuture<LoadedDump> loadDumpInBackground(const QString& path, const LoadOptions& options) {
  return QtConcurrent::run([path, options] { return loadDumpForView(path, options); });
}

QString sourceSnippet(const QString& fileLine, const QStringList& roots, int context) {
  const qsizetype colon = fileLine.lastIndexOf(QLatin1Char(':'));
  if (colon <= 0) return {};
  bool ok = false;
  const int line = fileLine.mid(colon + 1).toInt(&ok);
  if (!ok || line <= 0) return {};
  const QString file = fileLine.left(colon);
  QStringList candidates;
  if (QFileInfo(file).isAbsolute()) candidates << file;
  else
    for (const QString& root : roots) candidates << QDir(root).filePath(file);
  for (const QString& candidate : candidates) {
    QFile f(candidate);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) continue;
    QTextStream in(&f);
    QStringList out;
    for (int n = 1; !in.atEnd() && n <= line + context; ++n) {
      const QString text = in.readLine();
      if (n >= line - context)
        out << QStringLiteral("%1%2  %3").arg(n == line ? QStringLiteral("▶") : QStringLiteral(" ")).arg(n, 5).arg(text);
    }
    return out.join(QLatin1Char('\n'));
  }
  return {};
}

}  // namespace fathom::viz
