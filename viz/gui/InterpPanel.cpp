// InterpPanel's operations: each runs on the panel's worker thread, one at a time, and hands its
// snapshot back to the UI thread (see InterpPanel.h). The widgets are built and filled in
// InterpPanelView.cpp.
#include "viz/gui/InterpPanel.h"

#include <QAction>
#include <map>
#include <QFutureWatcher>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/dump/CheckReportJson.h"
#include "engine/dump/Dump.h"
#include "viz/gui/SerialPool.h"
#include "viz/model/InterpSession.h"

namespace fathom::viz {

namespace {

// One operation at a time, on one thread: a session is never used by two threads at once.
QThreadPool& interpPool() {
  static QPointer<QThreadPool> slot;
  return serialPool(slot);
}

std::string errorOf(const Status& s) { return s.ok() ? std::string() : s.error().str(); }
template <class T>
std::string errorOf(const Result<T>& r) {
  return r.ok() ? std::string() : r.error().str();
}

std::string bare(const QString& node) { return (node.startsWith(QLatin1Char('%')) ? node.mid(1) : node).toStdString(); }

}  // namespace

struct InterpPanel::State {
  std::shared_ptr<const Dump> dump;
  std::shared_ptr<InterpSession> session;
  std::shared_ptr<std::atomic<bool>> cancel;
  int generation = 0;  // of the dump: an operation on an older one is not shown
  // The table on show: its node and the snapshot generation it was made at.
  QString tableGraph;
  int32_t tableNode = -1;
  uint64_t tableGeneration = ~uint64_t{0};
  std::vector<InterpGraphMarks> shownMarks;  // what shown() last announced
  std::map<QString, FollowExpansion> expansions;  // per graph tab
};

struct InterpPanel::Outcome {
  std::string error;
  InterpSnapshot snapshot;
  InterpTable table;  // of the snapshot's focus node
};

InterpPanel::InterpPanel(QWidget* parent) : QWidget(parent), state_(std::make_unique<State>()) {
  buildActions();
  buildWidgets();
  progress_ = new QTimer(this);
  progress_->setInterval(100);
  connect(progress_, &QTimer::timeout, this, &InterpPanel::updateProgress);
  setDump(nullptr);
}

InterpPanel::~InterpPanel() {
  if (state_->cancel) state_->cancel->store(true);
}

void InterpPanel::setDump(std::shared_ptr<const Dump> dump) {
  if (state_->cancel) state_->cancel->store(true);  // the old run stops; its outcome is dropped
  ++state_->generation;
  state_->dump = std::move(dump);
  state_->session.reset();
  state_->tableNode = -1;
  snapshot_ = InterpSnapshot{};
  table_ = InterpTable{};
  error_.clear();
  setRunning(false);
  showSnapshot();
  showTable();
  QStringList cleared;
  for (const auto& g : state_->shownMarks) cleared << QString::fromStdString(g.graph);
  state_->shownMarks.clear();
  state_->expansions.clear();
  if (!cleared.isEmpty()) Q_EMIT shown(cleared, QString(), -1);
}

FollowExpansion& InterpPanel::expansionOf(const QString& graph) { return state_->expansions[graph]; }

void InterpPanel::setSelection(const QString& graph, int32_t node) {
  graph_ = graph;
  selected_ = node;
  updateTable();
}

const Dump* InterpPanel::dump() const { return state_->dump.get(); }

bool InterpPanel::refuse(const QString& why) {
  error_ = why;
  message_->setText(why);
  message_->setStyleSheet(QStringLiteral("color: #a01010;"));
  return false;
}

// The session for the dump: a training step for an AOT dump, else the graph of the tab on show
// (a new one when the user moved to another graph of a dump without a partition).
bool InterpPanel::ensureSession() {
  const Dump* dump = state_->dump.get();
  if (!dump) return refuse(tr("No dump is open."));
  auto& s = state_->session;
  const std::string graph = dump->partition ? std::string() : graph_.toStdString();
  if (s && (s->trainingStep() || graph.empty() || s->graphs().front() == graph)) return true;
  auto created = InterpSession::create(state_->dump, graph);
  if (!created.ok()) return refuse(QString::fromStdString(created.error().str()));
  s = std::move(*created);
  return true;
}

bool InterpPanel::start(const QString& what, Operation op, bool follow) {
  if (running_) return refuse(tr("%1: an operation is running (Esc pauses it).").arg(what));
  if (!ensureSession()) return false;
  auto session = state_->session;
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  state_->cancel = cancel;
  const int generation = state_->generation;
  error_.clear();
  setRunning(true);
  message_->setStyleSheet(QString());
  message_->setText(tr("%1…").arg(what));
  auto* watcher = new QFutureWatcher<Outcome>(this);
  connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, generation, follow] {
    watcher->deleteLater();
    if (generation == state_->generation) finished(watcher->result(), follow);
  });
  watcher->setFuture(QtConcurrent::run(&interpPool(), [session, cancel, op = std::move(op)] {
    Outcome o;
    o.error = op(*session, cancel.get());
    o.snapshot = session->snapshot();
    if (o.snapshot.focusNode >= 0) o.table = session->table(o.snapshot.focusGraph, o.snapshot.focusNode);
    return o;
  }));
  return true;
}

void InterpPanel::finished(const Outcome& outcome, bool follow) {
  setRunning(false);
  snapshot_ = outcome.snapshot;
  if (!outcome.table.node.empty()) {
    table_ = outcome.table;
    state_->tableGraph = QString::fromStdString(snapshot_.focusGraph);
    state_->tableNode = snapshot_.focusNode;
    state_->tableGeneration = snapshot_.generation;
  }
  showSnapshot();
  if (!outcome.error.empty()) refuse(QString::fromStdString(outcome.error));
  // Only the graphs whose marks changed are redrawn (a step changes one).
  QStringList changed;
  std::vector<InterpGraphMarks> before = std::move(state_->shownMarks);
  for (const InterpGraphMarks& g : snapshot_.graphs) {
    auto it = std::find_if(before.begin(), before.end(), [&](const InterpGraphMarks& b) { return b.graph == g.graph; });
    if (it == before.end() || it->marks != g.marks || it->breakpoints != g.breakpoints) changed << QString::fromStdString(g.graph);
    if (it != before.end()) before.erase(it);
  }
  for (const InterpGraphMarks& gone : before) changed << QString::fromStdString(gone.graph);
  state_->shownMarks = snapshot_.graphs;
  const bool follows = follow && outcome.error.empty() && snapshot_.focusNode >= 0;
  if (!changed.isEmpty() || follows)
    Q_EMIT shown(changed, follows ? QString::fromStdString(snapshot_.focusGraph) : QString(), follows ? snapshot_.focusNode : -1);
  updateTable();
}

bool InterpPanel::step(int count) {
  const auto n = static_cast<size_t>(std::max(count, 1));
  return start(count > 1 ? tr("Stepping %1 nodes").arg(count) : tr("Stepping"),
               [n](InterpSession& s, const std::atomic<bool>* cancel) { return errorOf(s.step(n, cancel)); });
}

bool InterpPanel::continueRun() {
  return start(tr("Running"), [](InterpSession& s, const std::atomic<bool>* cancel) { return errorOf(s.continueRun(cancel)); });
}

bool InterpPanel::runToSelected() {
  if (selected_ < 0 || !state_->dump || !state_->dump->graph(graph_.toStdString())) return refuse(tr("Select a node to run to."));
  const Graph& g = *state_->dump->graph(graph_.toStdString());
  return runTo(graph_, QString::fromStdString(g.nodes()[static_cast<size_t>(selected_)].name));
}

bool InterpPanel::runTo(const QString& graph, const QString& node) {
  const Graph* g = state_->dump ? state_->dump->graph(graph.toStdString()) : nullptr;
  if (!g) return refuse(tr("No graph '%1' in this dump.").arg(graph));
  if (!g->find(bare(node))) return refuse(tr("No node '%1' in graph '%2'.").arg(node, graph));
  return start(tr("Running to %%1").arg(QString::fromStdString(bare(node))),
               [graph = graph.toStdString(), node = bare(node)](InterpSession& s, const std::atomic<bool>* cancel) {
                 return errorOf(s.runTo(graph, node, cancel));
               });
}

bool InterpPanel::restart() { return restartAt(sizes_->text().trimmed()); }

bool InterpPanel::restartAt(const QString& sizes) {
  sizes_->setText(sizes);
  return start(sizes.isEmpty() ? tr("Restarting") : tr("Restarting at %1").arg(sizes),
               [sizes = sizes.toStdString()](InterpSession& s, const std::atomic<bool>*) { return errorOf(s.restart(sizes)); });
}

bool InterpPanel::openReport(const QString& path) {
  return start(tr("Reading %1").arg(path), [path = path.toStdString()](InterpSession& s, const std::atomic<bool>*) {
    auto report = loadCheckReport(path);
    if (!report.ok()) return report.error().str();
    auto shown = s.showReport(std::move(*report));
    return shown.ok() ? std::string() : path + ": " + shown.error().str();
  });
}

void InterpPanel::pause() {
  if (!running_ || !state_->cancel) return;
  state_->cancel->store(true);
  message_->setText(tr("Pausing…"));
}

// Breakpoints change no run: done at once on this thread, between operations.
bool InterpPanel::addBreakpoint(const QString& graph, const QString& target) {
  if (running_) return refuse(tr("Breakpoints: an operation is running (Esc pauses it)."));
  if (!ensureSession()) return false;
  auto added = state_->session->addBreakpoint(graph.toStdString(), target.toStdString());
  if (!added.ok()) return refuse(QString::fromStdString(added.error().message));
  const Breakpoint& b = added->breakpoint;
  breakpointsChanged(added->isNew ? "breakpoint " + std::to_string(b.id) + " before " + (b.op.empty() ? "%" + b.node : "every " + b.op)
                                  : "breakpoint " + std::to_string(b.id) + " already breaks there");
  return true;
}

bool InterpPanel::toggleBreakpoint() {
  if (running_) return refuse(tr("Breakpoints: an operation is running (Esc pauses it)."));
  if (selected_ < 0) return refuse(tr("Select a node to break on."));
  if (!ensureSession()) return false;
  auto toggled = state_->session->toggleBreakpoint(graph_.toStdString(), selected_);
  if (!toggled.ok()) return refuse(QString::fromStdString(toggled.error().message));
  breakpointsChanged(*toggled ? "breakpoint added" : "breakpoint removed");
  return true;
}

bool InterpPanel::removeBreakpoint(const QString& graph, int id) {
  if (running_) return refuse(tr("Breakpoints: an operation is running (Esc pauses it)."));
  if (!state_->session || !state_->session->removeBreakpoint(graph.toStdString(), id))
    return refuse(tr("No breakpoint %1 in graph '%2'.").arg(id).arg(graph));
  breakpointsChanged("breakpoint " + std::to_string(id) + " removed");
  return true;
}

void InterpPanel::breakpointsChanged(const std::string& message) {
  Outcome o;
  o.snapshot = state_->session->snapshot();
  o.snapshot.message = message;
  finished(o, false);
}

bool InterpPanel::breakOnSelectedOp() {
  const Graph* g = state_->dump ? state_->dump->graph(graph_.toStdString()) : nullptr;
  if (!g || selected_ < 0) return refuse(tr("Select a node whose op to break on."));
  const Node& n = g->nodes()[static_cast<size_t>(selected_)];
  if (n.kind != NodeKind::Call) return refuse(tr("%%1 is not an op call.").arg(QString::fromStdString(n.name)));
  return addBreakpoint(graph_, QString::fromStdString(n.target));
}

void InterpPanel::updateTable() {
  QString graph = graph_;
  int32_t node = selected_;
  if (node < 0) graph = QString::fromStdString(snapshot_.focusGraph), node = snapshot_.focusNode;
  const bool cached = graph == state_->tableGraph && node == state_->tableNode && snapshot_.generation == state_->tableGeneration;
  if (!cached && !running_) {
    // A session only to show the recorded side before anything ran; switching tabs keeps the run.
    if (!state_->session && state_->dump && node >= 0) ensureSession();
    table_ = node >= 0 && state_->session ? state_->session->table(graph.toStdString(), node) : InterpTable{};
    state_->tableGraph = graph;
    state_->tableNode = node;
    state_->tableGeneration = snapshot_.generation;
  }
  showTable();
}

void InterpPanel::updateProgress() {
  if (!running_ || !state_->session) return;
  status_->setText(tr("running… %n node(s) run (Esc or Pause stops)", "", static_cast<int>(state_->session->progress())));
}

}  // namespace fathom::viz
