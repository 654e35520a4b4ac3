// GuardsPanel (see the header). Rows: guards first (index = position in env.guards()), then
// specializations. Z3 work runs on a one-thread pool; each result carries the generation of the
// dump it was asked for, so a late answer about a closed dump is dropped.
#include "viz/gui/GuardsPanel.h"

#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/dump/Dump.h"
#include "engine/dump/GuardedDump.h"
#include "engine/graph/GraphGuards.h"
#include "engine/symbolic/ExplainSizesText.h"
#include "engine/symbolic/GuardCheck.h"
#include "engine/symbolic/GuardExplain.h"
#include "viz/gui/SerialPool.h"

namespace fathom::viz {

namespace {

enum Column { Index, Stage, Expr, Z3, Node, Source, Reason, ColumnCount };
constexpr int kGuardRole = Qt::UserRole;      // guard index, or -1 for a specialization
constexpr int kNodeRole = Qt::UserRole + 1;   // node name
constexpr int kSourceRole = Qt::UserRole + 2; // file:line

// Z3's context is shared by every query of the process: one analysis at a time.
QThreadPool& solverPool() {
  static QPointer<QThreadPool> slot;
  return serialPool(slot);
}

struct ExplainOutcome {
  std::string error;  // sizes that do not parse
  sym::ExplainReport report;
};

QString text(const std::string& s) { return QString::fromStdString(s); }

QString guardList(const std::vector<size_t>& guards) {
  QStringList out;
  for (size_t g : guards) out << QStringLiteral("#%1").arg(g);
  return out.join(QStringLiteral(", "));
}

QString valuesText(const sym::ShapeEnv& env, const std::map<int32_t, int64_t>& values) {
  QStringList out;
  for (const auto& [symbol, value] : values)
    if (symbol >= 0 && static_cast<size_t>(symbol) < env.symbols().size())
      out << QStringLiteral("%1=%2").arg(text(env.symbols()[static_cast<size_t>(symbol)].name)).arg(value);
  return out.join(QStringLiteral(","));
}

// "1 guard and 0 specializations over 4 symbols": singular where the count is one.
QString countsText(const sym::ShapeEnv& env) {
  auto counted = [](size_t n, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(n).arg(QString::fromLatin1(n == 1 ? one : many));
  };
  return QObject::tr("%1 and %2 over %3")
      .arg(counted(env.guards().size(), "guard", "guards"), counted(env.specializations().size(), "specialization", "specializations"),
           counted(env.symbols().size(), "symbol", "symbols"));
}

}  // namespace

struct GuardsPanel::State {
  std::shared_ptr<const Dump> dump;
  int generation = 0;
  int running = 0;
  QList<int> failing;
};

GuardsPanel::GuardsPanel(QWidget* parent) : QWidget(parent), state_(std::make_unique<State>()) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  layout->addWidget(status_);

  auto* explainRow = new QHBoxLayout;
  sizes_ = new QLineEdit(this);
  sizes_->setPlaceholderText(tr("Explain sizes: s0=4,s1=600 or input_ids=4x600"));
  sizes_->setClearButtonEnabled(true);
  auto* explainButton = new QPushButton(tr("Explain"), this);
  explainRow->addWidget(sizes_, 1);
  explainRow->addWidget(explainButton);
  layout->addLayout(explainRow);
  explainResult_ = new QLabel(this);
  explainResult_->setWordWrap(true);
  explainResult_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  explainResult_->hide();
  layout->addWidget(explainResult_);
  connect(explainButton, &QPushButton::clicked, this, [this] { explain(sizes_->text()); });
  connect(sizes_, &QLineEdit::returnPressed, this, [this] { explain(sizes_->text()); });

  table_ = new QTreeWidget(this);
  table_->setColumnCount(ColumnCount);
  table_->setHeaderLabels({tr("#"), tr("Stage"), tr("Guard"), tr("Z3"), tr("Node"), tr("Source"), tr("Why")});
  table_->setRootIsDecorated(false);
  table_->setUniformRowHeights(true);
  table_->setAlternatingRowColors(true);
  table_->header()->setStretchLastSection(true);
  layout->addWidget(table_, 1);
  connect(table_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) { onRowActivated(item); });
  connect(table_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) { onRowActivated(item); });
  setDump(nullptr);
}

GuardsPanel::~GuardsPanel() { ++state_->generation; }

void GuardsPanel::setDump(std::shared_ptr<const Dump> dump) {
  state_->dump = std::move(dump);
  ++state_->generation;
  state_->failing.clear();
  explainResult_->hide();
  fill();
  startCheck();
}

bool GuardsPanel::idle() const { return state_->running == 0; }
int GuardsPanel::rowCount() const { return table_->topLevelItemCount(); }
QList<int> GuardsPanel::failingGuards() const { return state_->failing; }
QString GuardsPanel::statusText() const { return status_->text(); }

void GuardsPanel::setStatus(const QString& t) { status_->setText(t); }

void GuardsPanel::fill() {
  table_->clear();
  const Dump* dump = state_->dump.get();
  const sym::ShapeEnv* env = dump ? dump->shapeEnv.get() : nullptr;
  sizes_->setEnabled(env != nullptr);
  if (!env) {
    setStatus(dump ? tr("A static trace: no symbols, no guards (trace with --dynamic for symbolic shapes).") : QString());
    return;
  }
  QList<QTreeWidgetItem*> rows;
  for (size_t i = 0; i < env->guards().size(); ++i) {
    const sym::Guard& g = env->guards()[i];
    auto* row = new QTreeWidgetItem;
    row->setText(Index, QString::number(i));
    row->setText(Stage, text(g.where.stage));
    row->setText(Expr, text(g.expr.str()) + (g.count > 1 ? QStringLiteral("  (×%1)").arg(g.count) : QString()));
    row->setText(Node, g.where.node.empty() ? QString() : QStringLiteral("%%1 %2").arg(text(g.where.node), text(g.where.op)));
    row->setText(Source, text(g.where.source) + (g.where.module.empty() ? QString() : QStringLiteral("  in ") + text(g.where.module)));
    row->setText(Reason, text(g.reason));
    row->setToolTip(Reason, text(g.reason));
    row->setData(0, kGuardRole, static_cast<int>(i));
    row->setData(0, kNodeRole, text(g.where.node));
    row->setData(0, kSourceRole, text(g.where.source));
    rows << row;
  }
  for (const auto& s : env->specializations()) {
    auto* row = new QTreeWidgetItem;
    row->setText(Index, tr("spec"));
    row->setText(Stage, text(s.where.stage));
    row->setText(Expr, QStringLiteral("%1 → %2  (%3)").arg(text(s.symbol.empty() ? s.source : s.symbol), text(s.value.str()), text(s.kind)));
    row->setText(Node, s.where.node.empty() ? QString() : QStringLiteral("%%1 %2").arg(text(s.where.node), text(s.where.op)));
    row->setText(Source, text(s.where.source));
    row->setText(Reason, text(s.reason));
    row->setData(0, kGuardRole, -1);
    row->setData(0, kNodeRole, text(s.where.node));
    row->setData(0, kSourceRole, text(s.where.source));
    row->setForeground(Expr, QColor(90, 90, 150));
    rows << row;
  }
  table_->addTopLevelItems(rows);
  for (int c = 0; c < Reason; ++c) table_->resizeColumnToContents(c);
  setStatus(countsText(*env) + ".");
}

void GuardsPanel::startCheck() {
  const Dump* dump = state_->dump.get();
  if (!dump || !dump->shapeEnv || dump->shapeEnv->guards().empty()) return;
  if (!sym::Solver::available()) {
    setStatus(status_->text() + tr(" Z3 checks need a build with Z3 (libz3-dev)."));
    return;
  }
  const int generation = state_->generation;
  auto dumpRef = state_->dump;
  ++state_->running;
  setStatus(status_->text() + tr(" Z3: checking…"));
  auto* watcher = new QFutureWatcher<sym::GuardCheckReport>(this);
  connect(watcher, &QFutureWatcher<sym::GuardCheckReport>::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    --state_->running;
    if (generation == state_->generation) {
      const sym::GuardCheckReport report = watcher->result();
      const auto& env = *state_->dump->shapeEnv;
      QString summary = countsText(env) + ". ";
      for (int r = 0; r < table_->topLevelItemCount(); ++r) table_->topLevelItem(r)->setText(Z3, QString());
      auto rowOf = [this](size_t guard) { return table_->topLevelItem(static_cast<int>(guard)); };
      if (report.consistency.status == sym::SolveStatus::Unsat) {
        summary += tr("Z3: INCONSISTENT, minimal conflict %1.").arg(guardList(report.consistency.conflict));
        for (size_t g : report.consistency.conflict) {
          rowOf(g)->setText(Z3, tr("in conflict"));
          rowOf(g)->setBackground(Z3, QColor(255, 200, 200));
        }
      } else if (report.consistency.status == sym::SolveStatus::Sat) {
        summary += tr("Z3: consistent; %1 redundant (%2 kept)").arg(report.redundancy.redundant.size()).arg(report.redundancy.minimal.size());
        for (const auto& r : report.redundancy.redundant) {
          rowOf(r.guard)->setText(Z3, r.impliedBy.empty() ? tr("redundant: ranges imply it") : tr("redundant: implied by %1").arg(guardList(r.impliedBy)));
          rowOf(r.guard)->setForeground(Expr, QColor(140, 140, 140));
        }
        summary += report.problemFound() ? tr("; UNSOUND simplification or specialization (see fathom guards --check).") : tr("; simplification sound.");
      } else {
        summary += tr("Z3: undecided (%1 queries gave up).").arg(report.undecided.size());
      }
      setStatus(summary);
    }
    Q_EMIT idleChanged();
  });
  watcher->setFuture(QtConcurrent::run(&solverPool(), [dumpRef] { return sym::checkGuards(*dumpRef->shapeEnv); }));
}

void GuardsPanel::explain(const QString& sizes) {
  const Dump* dump = state_->dump.get();
  if (!dump || !dump->shapeEnv) return;
  sizes_->setText(sizes);
  const int generation = state_->generation;
  auto dumpRef = state_->dump;
  const std::string given = sizes.trimmed().toStdString();
  ++state_->running;
  explainResult_->setText(tr("Explaining %1…").arg(sizes));
  explainResult_->show();
  auto* watcher = new QFutureWatcher<ExplainOutcome>(this);
  connect(watcher, &QFutureWatcher<ExplainOutcome>::finished, this, [this, watcher, generation, sizes] {
    watcher->deleteLater();
    --state_->running;
    if (generation == state_->generation) {
      const ExplainOutcome out = watcher->result();
      state_->failing.clear();
      for (int r = 0; r < table_->topLevelItemCount(); ++r)
        for (int c = 0; c < ColumnCount; ++c) table_->topLevelItem(r)->setBackground(c, QBrush());
      if (!out.error.empty()) {
        explainResult_->setText(tr("Cannot explain: %1").arg(text(out.error)));
      } else {
        const auto& env = *state_->dump->shapeEnv;
        QStringList other;
        for (const auto& f : out.report.failed) {
          if (f.guard) {
            state_->failing << static_cast<int>(*f.guard);
            auto* row = table_->topLevelItem(static_cast<int>(*f.guard));
            for (int c = 0; c < ColumnCount; ++c) row->setBackground(c, QColor(255, 220, 170));
            row->setText(Z3, tr("fails with %1").arg(text(f.actual)));
          } else {
            other << QStringLiteral("[%1] %2 with %3").arg(text(f.kind), text(f.expr), text(f.actual));
          }
        }
        QString message = out.report.failed.empty() ? tr("%1 passes every guard.").arg(sizes)
                                                    : tr("%1 fails %2 check(s)").arg(sizes).arg(out.report.failed.size());
        if (!other.isEmpty()) message += QStringLiteral(": ") + other.join(QStringLiteral("; "));
        if (!out.report.failed.empty() && out.report.nearest.status == sym::SolveStatus::Sat) {
          QStringList inputs;
          for (const auto& [name, dims] : out.report.nearestInputs) {
            QStringList d;
            for (int64_t v : dims) d << QString::number(v);
            inputs << QStringLiteral("%1=%2").arg(text(name), d.join(QLatin1Char('x')));
          }
          message += tr(". Nearest sizes that pass: %1").arg(inputs.isEmpty() ? valuesText(env, out.report.nearest.model) : inputs.join(QLatin1Char(',')));
        }
        explainResult_->setText(message);
        QStringList nodes;
        for (int g : state_->failing) nodes << table_->topLevelItem(g)->data(0, kNodeRole).toString();
        nodes.removeAll(QString());
        Q_EMIT failingNodes(nodes);
        if (!state_->failing.isEmpty()) table_->scrollToItem(table_->topLevelItem(state_->failing.front()));
      }
    }
    Q_EMIT idleChanged();
  });
  watcher->setFuture(QtConcurrent::run(&solverPool(), [dumpRef, given] {
    ExplainOutcome out;
    const sym::ShapeEnv& env = *dumpRef->shapeEnv;
    std::vector<sym::GuardedInput> traced;
    if (const Graph* graph = tracedGraph(*dumpRef))
      if (auto inputs = guardedInputsOf(*graph); inputs.ok()) traced = std::move(*inputs);
    auto parsed = sym::parseExplainSizes(given, env, traced);
    if (!parsed.ok()) {
      out.error = parsed.error().message;
      return out;
    }
    auto report = sym::explainSizes(env, *parsed, {}, traced);
    if (!report.ok()) out.error = report.error().message;
    else out.report = std::move(*report);
    return out;
  }));
}

void GuardsPanel::onRowActivated(QTreeWidgetItem* item) {
  if (!item) return;
  const QString node = item->data(0, kNodeRole).toString();
  if (!node.isEmpty()) Q_EMIT nodeRequested(node);
  const QString source = item->data(0, kSourceRole).toString();
  if (!source.isEmpty()) Q_EMIT sourceRequested(source);
}

}  // namespace fathom::viz
