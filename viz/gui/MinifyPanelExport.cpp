// MinifyPanel's exports of the result (see MinifyPanel.h): loading the minimized repro and
// writing one of the three forms of minifier/Export.h - the same code as `fathom export` - on
// Qt's thread pool, so a large repro's values never stall the window.
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/dump/Dump.h"
#include "minifier/Export.h"
#include "viz/gui/MinifyPanel.h"

namespace fathom::viz {

namespace {

// Empty when written, else the one-line error (naming the file), as `fathom export` prints it.
QString writeForm(const QString& result, minify::ExportForm form, const QString& path, LoadOptions load) {
  DumpReadOptions read;
  read.keepUnknownOps = load.keepUnknownOps;
  read.trustPaths = load.trustPaths;
  auto dump = loadDump(result.toStdString(), read);
  if (!dump.ok()) return QString::fromStdString(dump.error().str());
  minify::ExportOptions options;
  options.source = result.toStdString();
  options.force = true;  // the save dialog asked already; tests name fresh paths
  auto written = minify::writeExport(*dump, form, path.toStdString(), options);
  return written.ok() ? QString() : QString::fromStdString(written.error().str());
}

}  // namespace

bool MinifyPanel::exportResult(const QString& form, const QString& path) {
  const auto parsed = minify::parseExportForm(form.toStdString());
  const QString result = resultPath();
  if (!parsed || result.isEmpty() || running()) {
    setMessage(!parsed ? tr("No export form '%1': dump, gtest or pytorch.").arg(form) : tr("Nothing to export yet: minify first."), true);
    return false;
  }
  ++exporting_;
  lastExport_ = tr("Exporting %1…").arg(QFileInfo(path).fileName());
  showState();
  auto* watcher = new QFutureWatcher<QString>(this);
  connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, path, form] {
    watcher->deleteLater();
    --exporting_;
    const QString error = watcher->result();
    lastExport_ = error.isEmpty() ? tr("Exported as %1: %2").arg(form, path) : tr("Export failed: %1").arg(error);
    showState();
    Q_EMIT exportFinished(error.isEmpty(), error.isEmpty() ? lastExport_ : error);
  });
  watcher->setFuture(QtConcurrent::run(writeForm, result, *parsed, path, load_));
  return true;
}

void MinifyPanel::exportDialog() {
  if (resultPath().isEmpty()) return;
  const QString dump = tr("Fathom repro (*.fathom.json)"), gtest = tr("GoogleTest (*.cpp)"), pytorch = tr("PyTorch script (*.py)");
  QString filter = pytorch;
  const QString suggested = QFileInfo(resultPath()).absolutePath() + QStringLiteral("/repro.py");
  const QString path = QFileDialog::getSaveFileName(this, tr("Export the minimized repro"), suggested,
                                                    dump + QStringLiteral(";;") + gtest + QStringLiteral(";;") + pytorch, &filter);
  if (path.isEmpty()) return;
  exportResult(filter == gtest ? QStringLiteral("gtest") : filter == dump ? QStringLiteral("dump") : QStringLiteral("pytorch"), path);
}

}  // namespace fathom::viz
