// InterpPanel's widgets and actions, and how a snapshot and a table are shown (see InterpPanel.h).
#include <QAction>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "engine/dump/Dump.h"
#include "viz/gui/InterpPanel.h"

namespace fathom::viz {

namespace {

QString text(const std::string& s) { return QString::fromStdString(s); }

const QColor kMismatchFill(255, 205, 205);
constexpr int kGraphRole = Qt::UserRole, kNodeRole = Qt::UserRole + 1, kIdRole = Qt::UserRole + 2;

QAction* action(QWidget* owner, const QString& label, const QList<QKeySequence>& keys, const QString& tip) {
  auto* a = new QAction(label, owner);
  a->setShortcuts(keys);
  a->setShortcutContext(Qt::WindowShortcut);
  a->setToolTip(QStringLiteral("%1 (%2)").arg(tip, keys.front().toString(QKeySequence::NativeText)));
  owner->addAction(a);
  return a;
}

QTreeWidget* tree(QWidget* parent, const QStringList& headers) {
  auto* t = new QTreeWidget(parent);
  t->setColumnCount(static_cast<int>(headers.size()));
  t->setHeaderLabels(headers);
  t->setRootIsDecorated(false);
  t->setUniformRowHeights(true);
  t->setAlternatingRowColors(true);
  t->header()->setStretchLastSection(true);
  return t;
}

}  // namespace

void InterpPanel::buildActions() {
  step_ = action(this, tr("&Step"), {QKeySequence(Qt::Key_F10)}, tr("Run the node at the cursor"));
  continue_ = action(this, tr("&Continue"), {QKeySequence(Qt::Key_F5)}, tr("Run to a breakpoint, a new mismatch, a failure or the end"));
  runTo_ = action(this, tr("Run &to Selected Node"), {QKeySequence(Qt::CTRL | Qt::Key_F10)}, tr("Run until the selected node has run"));
  toggle_ = action(this, tr("Toggle &Breakpoint"), {QKeySequence(Qt::Key_F9)}, tr("Break before the selected node"));
  breakOp_ = action(this, tr("Break on Selected &Op"), {QKeySequence(Qt::SHIFT | Qt::Key_F9)}, tr("Break before every node of the selected node's op"));
  restart_ = action(this, tr("&Restart"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F5)}, tr("A new run at the sizes in the box"));
  pause_ = action(this, tr("&Pause"), {QKeySequence(Qt::Key_Escape), QKeySequence(Qt::Key_Pause)}, tr("Stop the run between two nodes"));
  report_ = action(this, tr("Open Check &Report…"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R)},
                   tr("Lay a `fathom check --json` report over the dump"));
  pause_->setEnabled(false);
  connect(step_, &QAction::triggered, this, [this] { step(); });
  connect(continue_, &QAction::triggered, this, [this] { continueRun(); });
  connect(runTo_, &QAction::triggered, this, [this] { runToSelected(); });
  connect(toggle_, &QAction::triggered, this, [this] { toggleBreakpoint(); });
  connect(breakOp_, &QAction::triggered, this, [this] { breakOnSelectedOp(); });
  connect(restart_, &QAction::triggered, this, [this] { restart(); });
  connect(pause_, &QAction::triggered, this, &InterpPanel::pause);
  connect(report_, &QAction::triggered, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a check report"), QString(), tr("fathom check --json (*.json);;All files (*)"));
    if (!path.isEmpty()) openReport(path);
  });
}

QList<QAction*> InterpPanel::debugActions() const { return {step_, continue_, runTo_, toggle_, breakOp_, restart_, pause_, report_}; }

void InterpPanel::buildWidgets() {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* bar = new QHBoxLayout;
  for (QAction* a : {step_, continue_, runTo_, toggle_, breakOp_, restart_}) {
    auto* b = new QToolButton(this);
    b->setDefaultAction(a);
    bar->addWidget(b);
  }
  sizes_ = new QLineEdit(this);
  sizes_->setPlaceholderText(tr("restart at sizes: s0=4,s1=64 or input_ids=4x64 (empty: as recorded)"));
  sizes_->setClearButtonEnabled(true);
  connect(sizes_, &QLineEdit::returnPressed, this, [this] { restart(); });
  bar->addWidget(sizes_, 1);
  pauseButton_ = new QPushButton(tr("Pause"), this);
  pauseButton_->setEnabled(false);
  connect(pauseButton_, &QPushButton::clicked, this, &InterpPanel::pause);
  bar->addWidget(pauseButton_);
  auto* reportButton = new QToolButton(this);
  reportButton->setDefaultAction(report_);
  bar->addWidget(reportButton);
  layout->addLayout(bar);
  status_ = new QLabel(this);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont bold = status_->font();
  bold.setBold(true);
  status_->setFont(bold);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(status_);
  layout->addWidget(message_);

  auto* split = new QSplitter(Qt::Horizontal, this);
  auto* left = new QWidget(split);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  caption_ = new QLabel(left);
  caption_->setWordWrap(true);
  caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  fields_ = tree(left, {tr("Field"), tr("Recorded (fake)"), tr("Evaluated"), tr("Real")});
  values_ = new QLabel(left);
  values_->setWordWrap(true);
  values_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  leftLayout->addWidget(caption_);
  leftLayout->addWidget(fields_, 1);
  leftLayout->addWidget(values_);
  mismatches_ = tree(split, {tr("Kind"), tr("Graph"), tr("Node"), tr("Field"), tr("Recorded"), tr("Real")});
  connect(mismatches_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
    Q_EMIT nodeRequested(item->data(0, kGraphRole).toString(), item->data(0, kNodeRole).toInt());
  });
  breakpoints_ = tree(split, {tr("Breakpoints (Delete removes)")});
  breakpoints_->setAlternatingRowColors(false);
  breakpoints_->installEventFilter(this);
  connect(breakpoints_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
    if (item->data(0, kNodeRole).toInt() >= 0) Q_EMIT nodeRequested(item->data(0, kGraphRole).toString(), item->data(0, kNodeRole).toInt());
  });
  split->setStretchFactor(0, 5);
  split->setStretchFactor(1, 3);
  split->setStretchFactor(2, 2);
  layout->addWidget(split, 1);
}

void InterpPanel::setRunning(bool running) {
  if (running_ == running) return;
  running_ = running;
  for (QAction* a : {step_, continue_, runTo_, toggle_, breakOp_, restart_, report_}) a->setEnabled(!running);
  pause_->setEnabled(running);
  pauseButton_->setEnabled(running);
  if (running) progress_->start(), updateProgress();
  else progress_->stop();
  Q_EMIT runningChanged(running);
}

QString InterpPanel::statusText() const { return status_->text(); }
int InterpPanel::mismatchRows() const { return mismatches_->topLevelItemCount(); }

void InterpPanel::showSnapshot() {
  const InterpSnapshot& s = snapshot_;
  status_->setText(dump() ? text(interpStatusLine(s)) : tr("Open a dump to run it under the debug interpreter."));
  message_->setStyleSheet(QString());
  message_->setText(text(s.message));
  // The mismatch list only grows during a run: append the new rows, refill after a restart.
  const int shown = mismatches_->topLevelItemCount();
  const bool sameRun = shown <= static_cast<int>(s.mismatches.size()) &&
                       (shown == 0 || mismatches_->topLevelItem(0)->data(0, kIdRole).toString() ==
                                          text(s.mismatches.front().graph + "/" + s.mismatches.front().node + "/" + s.mismatches.front().field));
  if (!sameRun) mismatches_->clear();
  const Dump* dump = this->dump();
  for (size_t i = sameRun ? static_cast<size_t>(shown) : 0; i < s.mismatches.size(); ++i) {
    const Mismatch& m = s.mismatches[i];
    auto* row = new QTreeWidgetItem({m.origin ? tr("ORIGIN") : tr("inherited"), text(m.graph), QStringLiteral("%") + text(m.node),
                                     text(m.field), text(m.expected), text(m.actual)});
    const Graph* g = dump ? dump->graph(m.graph) : nullptr;
    auto ref = g ? g->find(m.node) : std::nullopt;
    row->setData(0, kGraphRole, text(m.graph));
    row->setData(0, kNodeRole, ref ? ref->index : -1);
    row->setData(0, kIdRole, text(m.graph + "/" + m.node + "/" + m.field));
    if (m.origin) row->setBackground(0, kMismatchFill);
    row->setToolTip(2, text(m.op + (m.source.empty() ? "" : "  at " + m.source)));
    mismatches_->addTopLevelItem(row);
  }
  if (shown == 0 && !s.mismatches.empty())
    for (int c = 0; c < 4; ++c) mismatches_->resizeColumnToContents(c);
  breakpoints_->clear();
  for (const InterpBreakpoint& b : s.breakpoints) {
    const Breakpoint& bp = b.breakpoint;
    auto* item = new QTreeWidgetItem({QStringLiteral("%1  %2: %3").arg(bp.id).arg(text(b.graph), bp.op.empty() ? "%" + text(bp.node) : text(bp.op))});
    const Graph* g = dump ? dump->graph(b.graph) : nullptr;
    auto ref = g && !bp.node.empty() ? g->find(bp.node) : std::nullopt;
    item->setData(0, kGraphRole, text(b.graph));
    item->setData(0, kNodeRole, ref ? ref->index : -1);
    item->setData(0, kIdRole, bp.id);
    breakpoints_->addTopLevelItem(item);
  }
}

void InterpPanel::showTable() {
  const InterpTable& t = table_;
  fields_->clear();
  values_->clear();
  if (t.node.empty()) {
    caption_->setText(dump() ? tr("Select a node to see what it recorded and what really ran.") : QString());
    return;
  }
  caption_->setText(QStringLiteral("<b>%1</b> (%2)<br>%3").arg(text(t.call).toHtmlEscaped(), text(t.graph), text(t.status).toHtmlEscaped()));
  QList<QTreeWidgetItem*> rows;
  bool symbolic = false;
  for (const FakeRealRow& r : t.rows) {
    symbolic = symbolic || r.symbolic;
    auto* row = new QTreeWidgetItem({text(r.field), text(r.recorded), text(r.evaluated), text(r.real)});
    if (r.mismatch)
      for (int c = 0; c < 4; ++c) row->setBackground(c, kMismatchFill);
    rows << row;
  }
  fields_->addTopLevelItems(rows);
  fields_->setColumnHidden(2, !symbolic);  // a static trace has nothing to evaluate
  for (int c = 0; c < 3; ++c) fields_->resizeColumnToContents(c);
  QStringList lines;
  if (t.hasValues) lines << tr("first values: %1").arg(text(t.values.firstText()));
  if (!t.binding.empty()) lines << tr("symbols: %1").arg(text(t.binding));
  values_->setText(lines.join(QStringLiteral("\n")));
}

bool InterpPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == breakpoints_ && event->type() == QEvent::KeyPress && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Delete) {
    if (QTreeWidgetItem* item = breakpoints_->currentItem())
      removeBreakpoint(item->data(0, kGraphRole).toString(), item->data(0, kIdRole).toInt());
    return true;
  }
  return QWidget::eventFilter(watched, event);
}

}  // namespace fathom::viz
