// Loading a dump off the UI thread. The window shows a busy bar while the future runs and keeps
// answering; a load the user abandoned (another file opened, Cancel) is simply not used.
// The error text is the CLI's one line ("FILE: /graphs/0/nodes/3/args/0: ..."), so the window and
// `fathom info` say the same thing about a bad file.
#pragma once

#include <QFuture>
#include <QString>

#include <memory>
#include <string>

namespace fathom {
struct Dump;
}

namespace fathom::viz {

struct LoadedDump {
  QString path;
  std::shared_ptr<const Dump> dump;  // null on failure
  std::string error;                 // the one-line error, without the "fathom: " prefix
  double seconds = 0;
};

struct LoadOptions {
  bool keepUnknownOps = false;
  bool trustPaths = false;
};

// Loads synchronously (for headless use and tests).
LoadedDump loadDumpForView(const QString& path, const LoadOptions& options = {});
// Loads on Qt's global thread pool.
QFuture<LoadedDump> loadDumpInBackground(const QString& path, const LoadOptions& options = {});

// Up to `context` lines either side of line `line` of `file` (a model's source), numbered;
// empty when the file cannot be read. `fileLine` is "path/to/model.py:42" as provenance says;
// relative paths are tried against each of `roots`.
QString sourceSnippet(const QString& fileLine, const QStringList& roots, int context = 3);

}  // namespace fathom::viz
