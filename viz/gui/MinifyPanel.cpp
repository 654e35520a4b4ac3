// MinifyPanel (see the header): the form, the `fathom minify` subprocess and its progress lines.
// The exports are in MinifyPanelExport.cpp.
#include "viz/gui/MinifyPanel.h"

#include <signal.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include "engine/dump/Dump.h"
#include "minifier/PredicateKind.h"

namespace fathom::viz {

namespace {

constexpr int kStopWaitMs = 5000;  // how long closing waits for a cancelled run to write its best

QString text(const std::string& s) { return QString::fromStdString(s); }

QLabel* wrappedLabel(QWidget* parent) {
  auto* l = new QLabel(parent);
  l->setWordWrap(true);
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return l;
}

}  // namespace

MinifyPanel::MinifyPanel(QWidget* parent) : QWidget(parent) {
  buildForm();
  setDump(QString(), nullptr);
}

MinifyPanel::~MinifyPanel() {
  if (!process_ || process_->state() == QProcess::NotRunning) return;
  disconnect(process_, nullptr, this, nullptr);
  if (process_->processId() > 0) ::kill(static_cast<pid_t>(process_->processId()), SIGINT);
  if (!process_->waitForFinished(kStopWaitMs)) {
    process_->kill();
    process_->waitForFinished(1000);
  }
}

void MinifyPanel::buildForm() {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  auto* form = new QFormLayout;
  graphLabel_ = new QLabel(this);
  predicate_ = new QComboBox(this);
  predicate_->setEditable(true);
  predicate_->setInsertPolicy(QComboBox::NoInsert);
  predicate_->setToolTip(tr("What failing means (edit to add an argument): %1").arg(QString::fromLatin1(minify::predicateKinds())));
  backend_ = new QComboBox(this);
  backend_->setToolTip(tr("What runs each candidate"));
  jobs_ = new QSpinBox(this);
  jobs_->setRange(1, 256);
  jobs_->setToolTip(tr("Candidates tested at once, each in its own worker process (-j)"));
  timeout_ = new QDoubleSpinBox(this);
  timeout_->setRange(0.1, 86400);
  timeout_->setValue(60);
  timeout_->setSuffix(tr(" s"));
  timeout_->setToolTip(tr("A candidate's worker is killed after this long (--timeout)"));
  form->addRow(tr("Graph"), graphLabel_);
  form->addRow(tr("Failure"), predicate_);
  form->addRow(tr("Backend"), backend_);
  form->addRow(tr("Workers"), jobs_);
  form->addRow(tr("Per candidate"), timeout_);
  layout->addLayout(form);

  auto* runRow = new QHBoxLayout;
  start_ = new QPushButton(tr("Start"), this);
  start_->setToolTip(tr("Minify (Ctrl+M): runs fathom minify in worker processes"));
  cancel_ = new QPushButton(tr("Cancel, keep the best"), this);
  cancel_->setToolTip(tr("Ctrl+Shift+M: the minifier gets SIGINT, writes its best so far and stops; that best is the result"));
  runRow->addWidget(start_);
  runRow->addWidget(cancel_);
  layout->addLayout(runRow);
  bar_ = new QProgressBar(this);
  bar_->setFormat(tr("%v of %m nodes"));
  numbers_ = wrappedLabel(this);
  message_ = wrappedLabel(this);
  output_ = wrappedLabel(this);
  layout->addWidget(bar_);
  layout->addWidget(numbers_);
  layout->addWidget(message_);
  layout->addWidget(output_);

  auto* resultRow = new QHBoxLayout;
  open_ = new QPushButton(tr("Open the result"), this);
  open_->setToolTip(tr("Ctrl+Alt+O: open the minimized repro in this window"));
  export_ = new QPushButton(tr("Export…"), this);
  export_->setToolTip(tr("Ctrl+Alt+E: as a repro dump, a GoogleTest or a PyTorch script"));
  resultRow->addWidget(open_);
  resultRow->addWidget(export_);
  layout->addLayout(resultRow);
  auto* note = wrappedLabel(this);
  note->setText(tr("On the graph: red boxes are removed, orange ones became inputs (their real values cut in). "
                   "Cancel keeps the best so far: the minifier is sent SIGINT, writes it and exits."));
  note->setStyleSheet(QStringLiteral("QLabel { color: #666; }"));
  layout->addWidget(note);
  layout->addStretch(1);

  connect(start_, &QPushButton::clicked, this, [this] { start(); });
  connect(cancel_, &QPushButton::clicked, this, &MinifyPanel::cancel);
  connect(open_, &QPushButton::clicked, this, &MinifyPanel::openResult);
  connect(export_, &QPushButton::clicked, this, &MinifyPanel::exportDialog);
}

void MinifyPanel::setDump(const QString& path, std::shared_ptr<const Dump> dump) {
  dumpPath_ = path;
  dump_ = std::move(dump);
  const bool repro = dump_ && dump_->repro;
  predicate_->clear();
  backend_->clear();
  if (repro) {
    predicate_->addItem(tr("the repro's own: %1").arg(text(dump_->repro->predicate)), QString());
    backend_->addItem(tr("the repro's own: %1").arg(text(dump_->repro->backend)), QString());
  }
  for (const auto& p : predicateChoices()) predicate_->addItem(text(p), text(p));
  for (const auto& [name, description] : backendChoices()) {
    backend_->addItem(text(name), text(name));
    backend_->setItemData(backend_->count() - 1, text(description), Qt::ToolTipRole);
  }
  graphLabel_->setText(repro ? tr("%1 (the repro's)").arg(text(dump_->repro->graph)) : graph_);
  showState();
}

void MinifyPanel::setGraph(const QString& graph) {
  graph_ = graph;
  if (!(dump_ && dump_->repro)) graphLabel_->setText(graph);
}

void MinifyPanel::setPredicate(const QString& predicate) {
  const int i = predicate_->findData(predicate);
  if (i >= 0) predicate_->setCurrentIndex(i);
  else predicate_->setEditText(predicate);
}

void MinifyPanel::setBackend(const QString& backend) {
  int i = backend_->findData(backend);
  if (i < 0) {  // not one of the minifier's: the CLI's own message will say which there are
    backend_->addItem(backend, backend);
    i = backend_->count() - 1;
  }
  backend_->setCurrentIndex(i);
}

void MinifyPanel::setJobs(int jobs) { jobs_->setValue(jobs); }
void MinifyPanel::setTimeoutSeconds(double seconds) { timeout_->setValue(seconds); }

QString MinifyPanel::program() const {
  return program_.isEmpty() ? QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("fathom")) : program_;
}

MinifyChoices MinifyPanel::choices() const {
  MinifyChoices c;
  c.input = dumpPath_.toStdString();
  // The edited text, unless it is an offered item (whose data is the predicate; "" the repro's own).
  const int i = predicate_->findText(predicate_->currentText());
  c.predicate = (i >= 0 ? predicate_->itemData(i).toString() : predicate_->currentText().trimmed()).toStdString();
  c.backend = backend_->currentData().toString().toStdString();
  if (!(dump_ && dump_->repro)) c.graph = graph_.toStdString();
  c.jobs = static_cast<size_t>(jobs_->value());
  c.timeoutSeconds = timeout_->value();
  c.keepUnknownOps = load_.keepUnknownOps;
  c.trustPaths = load_.trustPaths;
  return c;
}

// DIR/NAME.min.fathom.json for the input NAME.fathom.json, in the panel's output folder.
QString MinifyPanel::outputPathFor(const QString& input) {
  QString dir = outputDir_;
  if (dir.isEmpty()) {
    if (!tempDir_) tempDir_ = std::make_unique<QTemporaryDir>(QDir::temp().filePath(QStringLiteral("fathom-gui-minify-XXXXXX")));
    if (!tempDir_->isValid()) return QString();
    dir = tempDir_->path();
  }
  QString name = QFileInfo(input).fileName();
  for (const char* ext : {".fathom.json", ".json"})
    if (name.endsWith(QLatin1String(ext))) {
      name.chop(static_cast<int>(qstrlen(ext)));
      break;
    }
  return QDir(dir).absoluteFilePath(name + QStringLiteral(".min.fathom.json"));
}

bool MinifyPanel::start() {
  if (running()) return setMessage(tr("A minification is running: cancel it first."), true), false;
  if (!dump_) return setMessage(tr("Open a dump to minify first."), true), false;
  const QString fathom = program();
  if (!QFileInfo(fathom).isExecutable())
    return setMessage(tr("Cannot run %1: fathom-gui runs the fathom next to it.").arg(fathom), true), false;
  MinifyChoices c = choices();
  c.output = outputPathFor(dumpPath_).toStdString();
  if (c.output.empty()) return setMessage(tr("Cannot make a temporary folder for the result."), true), false;
  run_.begin(c);
  lastExport_.clear();
  process_ = new QProcess(this);
  process_->setProgram(fathom);
  QStringList args;
  for (const auto& a : minifyArguments(c)) args << text(a);
  process_->setArguments(args);
  process_->setStandardOutputFile(QProcess::nullDevice());  // the summary; the stream says it all
  connect(process_, &QProcess::readyReadStandardError, this, &MinifyPanel::readLines);
  connect(process_, &QProcess::finished, this,
          [this](int code, QProcess::ExitStatus status) { onFinished(code, status == QProcess::CrashExit, QString()); });
  connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
    if (e == QProcess::FailedToStart) onFinished(-1, true, tr("cannot start %1: %2").arg(program(), process_->errorString()));
  });
  process_->start();
  showState();
  return true;
}

void MinifyPanel::cancel() {
  if (!running() || !process_) return;
  run_.requestCancel();
  if (process_->processId() > 0) ::kill(static_cast<pid_t>(process_->processId()), SIGINT);
  showState();
}

void MinifyPanel::readLines() {
  if (!process_) return;
  process_->setReadChannel(QProcess::StandardError);
  bool any = false;
  while (process_->canReadLine()) {
    const QByteArray line = process_->readLine();
    any = true;
    const QString graph = run_.started() ? text(run_.started()->graph) : QString();
    switch (run_.feed(line.toStdString())) {
      case MinifyRun::Change::Started: Q_EMIT started(text(run_.started()->graph)); break;
      case MinifyRun::Change::Progress: Q_EMIT progressed(); break;
      case MinifyRun::Change::Improved: Q_EMIT improved(graph); break;
      default: break;
    }
  }
  if (any) showState();
}

void MinifyPanel::onFinished(int exitCode, bool crashed, const QString& why) {
  if (!process_ || !running()) return;
  readLines();
  process_->setReadChannel(QProcess::StandardError);
  if (const QByteArray rest = process_->readAll(); !rest.isEmpty()) run_.feed(rest.toStdString());  // a last line without '\n'
  run_.finish(exitCode, crashed, why.toStdString());
  process_->deleteLater();
  process_ = nullptr;
  showState();
  Q_EMIT finished();
}

void MinifyPanel::openResult() {
  if (const QString path = resultPath(); !path.isEmpty()) Q_EMIT openRequested(path);
}

QString MinifyPanel::resultPath() const { return run_.hasResult() ? text(run_.ended()->output) : QString(); }
QString MinifyPanel::statusText() const { return message_->text(); }

void MinifyPanel::setMessage(const QString& t, bool error) {
  message_->setText(t);
  message_->setStyleSheet(error ? QStringLiteral("QLabel { color: #a01010; }") : QString());
}

void MinifyPanel::showState() {
  const bool on = running();
  for (QWidget* w : std::initializer_list<QWidget*>{predicate_, backend_, jobs_, timeout_}) w->setEnabled(!on);
  start_->setEnabled(!on && dump_ != nullptr);
  cancel_->setEnabled(on && !run_.cancelRequested());
  const bool result = !resultPath().isEmpty();
  open_->setEnabled(result && !on);
  export_->setEnabled(result && !on && !exporting());
  bar_->setTextVisible(run_.started().has_value());
  if (run_.started()) {
    bar_->setRange(0, static_cast<int>(run_.startNodes()));
    bar_->setValue(static_cast<int>(run_.nodes()));
  } else {
    bar_->setRange(0, on ? 0 : 1);  // busy while the CLI loads the dump and asks the original
    bar_->setValue(0);
  }
  numbers_->setText(run_.started() ? text(run_.progressLine()) : QString());
  const MinifyPhase phase = run_.phase();
  const bool failed = phase == MinifyPhase::NotFailing || phase == MinifyPhase::Failed;
  QString m = text(run_.outcome());
  if (on && !run_.started()) m = tr("starting: %1 loads the dump and runs the original…").arg(QFileInfo(program()).fileName());
  if (failed && !run_.message().empty()) m += QStringLiteral("\n") + text(run_.message());
  if (run_.malformedLines() > 0) m += tr("\n(%n progress line(s) could not be read and were skipped)", "", static_cast<int>(run_.malformedLines()));
  if (phase != MinifyPhase::Idle) setMessage(m, failed);
  QString out = result ? tr("Result: %1").arg(resultPath()) : QString();
  if (!lastExport_.isEmpty()) out += QStringLiteral("\n") + lastExport_;
  output_->setText(out);
}

}  // namespace fathom::viz
