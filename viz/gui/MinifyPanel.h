// The minifier panel (dock "Minifier"): pick the failure (a predicate, or the repro's own), the
// backend, workers and a time limit per candidate; Start runs the real `fathom minify` - the one
// next to fathom-gui - as a subprocess with `--progress json`, so every candidate runs in the
// minifier's own forked workers and a crash or hang of the code under test never reaches the
// GUI, whose event loop only reads lines. Progress (nodes now / at start as a bar, queries, cache
// hits, the pass, seconds) updates live; the window marks the shrinking candidate on the original
// graph (ShrinkMarks.h). Cancel sends SIGINT: the minifier writes its best so far and exits 130,
// and that best is the result. The result opens in the window, and exports (dump, GoogleTest,
// PyTorch script: minifier/Export.h) run on a worker thread. Errors - a bad predicate, an input
// that does not fail as asked - are the CLI's own line, shown in the panel.
//
// The model (command line, stream parsing, outcome) is viz/model/MinifyRun.h, without Qt.
#pragma once

#include <QString>
#include <QWidget>

#include <memory>

#include "viz/gui/DumpLoader.h"
#include "viz/model/MinifyRun.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProcess;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTemporaryDir;

namespace fathom::viz {

class MinifyPanel : public QWidget {
  Q_OBJECT
 public:
  explicit MinifyPanel(QWidget* parent = nullptr);
  // A run still going is cancelled (SIGINT, then killed if it does not stop within 5 s).
  ~MinifyPanel() override;

  // The dump the window shows: what Start minifies; its repro section is "the repro's own".
  void setDump(const QString& path, std::shared_ptr<const Dump> dump);
  // The graph to minify when the repro's own is not chosen (the window's current tab); empty:
  // the repro's graph, else the first.
  void setGraph(const QString& graph);
  void setLoadOptions(const LoadOptions& options) { load_ = options; }
  // The `fathom` to run (tests); default: `fathom` next to this program.
  void setProgram(const QString& path) { program_ = path; }
  QString program() const;
  // Where results go (tests); default: a temporary folder of this panel's, removed with it.
  void setOutputDirectory(const QString& dir) { outputDir_ = dir; }

  // The choices as the widgets hold them; an empty predicate or backend is the repro's own.
  void setPredicate(const QString& predicate);
  void setBackend(const QString& backend);
  void setJobs(int jobs);
  void setTimeoutSeconds(double seconds);
  MinifyChoices choices() const;

  const MinifyRun& run() const { return run_; }
  bool running() const { return run_.running(); }
  // The minimized repro (or the best so far, after Cancel) once a run ended with one; else empty.
  QString resultPath() const;
  QString statusText() const;
  // Whether an export is being written; the message of the last one finished.
  bool exporting() const { return exporting_ > 0; }

 public Q_SLOTS:
  // Ctrl+M. False, with the reason in the panel, when there is no dump or a run is going.
  bool start();
  // Ctrl+Shift+M: SIGINT to the minifier, which keeps (writes) its best so far and exits 130.
  void cancel();
  // Asks the window to open the result (openRequested).
  void openResult();
  // A save dialog whose file type picks the form: dump (*.fathom.json), GoogleTest (*.cpp),
  // PyTorch script (*.py).
  void exportDialog();
  // Writes the result as `form` ("dump", "gtest", "pytorch") to `path` (replacing it) on a worker
  // thread; exportFinished follows. False at once when there is no result or no such form.
  bool exportResult(const QString& form, const QString& path);

 Q_SIGNALS:
  // The minifier started on graph `graph` (the start event): the window clears its marks.
  void started(const QString& graph);
  void progressed();                 // every query
  void improved(const QString& graph);  // a new best: run().lastImprovement() names its nodes
  void finished();                   // the process ended; run().phase() says how
  void openRequested(const QString& path);
  void exportFinished(bool ok, const QString& message);

 private:
  void buildForm();
  void readLines();
  void onFinished(int exitCode, bool crashed, const QString& why);
  void showState();
  void setMessage(const QString& text, bool error);
  QString outputPathFor(const QString& input);

  MinifyRun run_;
  QString dumpPath_, graph_, program_, outputDir_, lastExport_;
  std::shared_ptr<const Dump> dump_;
  LoadOptions load_;
  std::unique_ptr<QTemporaryDir> tempDir_;
  QProcess* process_ = nullptr;
  int exporting_ = 0;
  QComboBox* predicate_ = nullptr;
  QComboBox* backend_ = nullptr;
  QSpinBox* jobs_ = nullptr;
  QDoubleSpinBox* timeout_ = nullptr;
  QPushButton* start_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QProgressBar* bar_ = nullptr;
  QLabel* numbers_ = nullptr;
  QLabel* message_ = nullptr;
  QLabel* graphLabel_ = nullptr;
  QLabel* output_ = nullptr;
  QPushButton* open_ = nullptr;
  QPushButton* export_ = nullptr;
};

}  // namespace fathom::viz
