// TimelinePanel (see the header). The list is a view of TimelineListModel: rows carry their event
// index and, for a failing guard under a recompile, its index in the event's failures.
#include "viz/gui/TimelinePanel.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "viz/gui/TimelineListModel.h"
#include "viz/gui/TimelineView.h"
#include "viz/model/Timeline.h"
#include "viz/model/TimelineEvents.h"

namespace fathom::viz {
namespace {

// Up to this many rows the list is expanded and fitted (a few ms); beyond, that would block.
constexpr int kListLaidOutRows = 5000;
constexpr int kEventRole = TimelineListModel::kEventRole;
constexpr int kFailureRole = TimelineListModel::kFailureRole;

QString q(const std::string& s) { return QString::fromStdString(s); }
QString html(const std::string& s) { return q(s).toHtmlEscaped(); }

// "bert.entry1.fathom.json › forward › %input_ids"
QString targetText(const TimelineTarget& t) {
  QStringList parts;
  if (!t.dump.empty()) parts << QFileInfo(q(t.dump)).fileName();
  if (!t.graph.empty()) parts << q(t.graph);
  if (!t.node.empty()) parts << QStringLiteral("%") + q(t.node);
  return parts.join(QStringLiteral(" › "));
}

// "bert.entry1.fathom.json (forward)"
std::string dumpAndGraph(const TimelineTarget& t) {
  std::string out = QFileInfo(q(t.dump)).fileName().toStdString();
  return t.graph.empty() ? out : out + " (" + t.graph + ")";
}

}  // namespace

struct TimelinePanel::Loading {
  std::atomic<bool> cancel{false};
  std::atomic<int64_t> bytes{0};
  int64_t total = 1;
  QString path;
};

TimelinePanel::TimelinePanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* top = new QHBoxLayout;
  header_ = new QLabel(tr("No trace log open: Timeline > Open Trace Log… (Ctrl+T)"), this);
  header_->setWordWrap(true);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(160);
  progress_->hide();
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->hide();
  top->addWidget(header_, 1);
  top->addWidget(progress_);
  top->addWidget(cancel_);
  layout->addLayout(top);
  connect(cancel_, &QPushButton::clicked, this, &TimelinePanel::cancelLoad);
  progressTimer_ = new QTimer(this);
  progressTimer_->setInterval(100);
  connect(progressTimer_, &QTimer::timeout, this, [this] {
    if (loadingState_) progress_->setValue(static_cast<int>(std::min<int64_t>(1000, loadingState_->bytes * 1000 / loadingState_->total)));
  });

  auto* splitter = new QSplitter(Qt::Vertical, this);
  view_ = new TimelineView;
  scroll_ = new QScrollArea(splitter);
  scroll_->setWidget(view_);
  scroll_->setWidgetResizable(true);
  scroll_->setFrameShape(QFrame::NoFrame);
  connect(view_, &TimelineView::eventClicked, this, &TimelinePanel::activateEvent);

  auto* bottom = new QWidget(splitter);
  auto* bottomLayout = new QVBoxLayout(bottom);
  bottomLayout->setContentsMargins(0, 0, 0, 0);
  auto* filterRow = new QHBoxLayout;
  filterRow->addWidget(new QLabel(tr("Show:"), bottom));
  kinds_ = new QComboBox(bottom);
  filterRow->addWidget(kinds_);
  filterRow->addStretch(1);
  bottomLayout->addLayout(filterRow);
  connect(kinds_, &QComboBox::activated, this, [this](int row) { setKindFilter(kinds_->itemData(row).toInt()); });
  auto* lower = new QSplitter(Qt::Horizontal, bottom);
  model_ = new TimelineListModel(this);
  list_ = new QTreeView(lower);
  list_->setModel(model_);
  list_->setUniformRowHeights(true);
  list_->header()->setStretchLastSection(true);
  for (const auto& [column, width] : {std::pair{0, 70}, {1, 150}, {2, 120}}) list_->setColumnWidth(column, width);
  detail_ = new QTextBrowser(lower);
  detail_->setOpenLinks(false);
  lower->setStretchFactor(0, 3);
  lower->setStretchFactor(1, 2);
  bottomLayout->addWidget(lower, 1);
  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 1);
  layout->addWidget(splitter, 1);
  connect(list_, &QTreeView::clicked, this, &TimelinePanel::onRowClicked);
  connect(list_, &QTreeView::activated, this, &TimelinePanel::onRowClicked);
  connect(list_->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& current) {
    if (current.isValid()) showDetail(current.data(kEventRole).toInt(), current.data(kFailureRole).toInt());
  });
  connect(detail_, &QTextBrowser::anchorClicked, this, &TimelinePanel::onAnchor);
}

TimelinePanel::~TimelinePanel() {
  if (loadingState_) loadingState_->cancel = true;
}

QString TimelinePanel::logPath() const { return timeline_ ? q(timeline_->path) : QString(); }
QString TimelinePanel::statusText() const { return header_->text(); }
QString TimelinePanel::detailText() const { return detail_->toPlainText(); }

void TimelinePanel::load(const QString& path) {
  cancelLoad();
  const int generation = ++generation_;
  auto state = std::make_shared<Loading>();
  state->path = path;
  state->total = std::max<int64_t>(1, QFileInfo(path).size());
  loadingState_ = state;
  loading_ = true;
  error_.clear();
  header_->setText(tr("Reading %1 (%2 KB)…").arg(QFileInfo(path).fileName()).arg(state->total / 1024));
  progress_->setValue(0);
  progress_->show();
  cancel_->show();
  progressTimer_->start();
  using Read = std::shared_ptr<Result<Timeline>>;
  auto* watcher = new QFutureWatcher<Read>(this);
  connect(watcher, &QFutureWatcher<Read>::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation != generation_) return;  // cancelled, or another log asked for since
    const Read read = watcher->result();
    loading_ = false;
    progressTimer_->stop();
    progress_->hide();
    cancel_->hide();
    loadingState_.reset();
    if (read->ok()) {
      setTimeline(std::make_shared<const Timeline>(std::move(**read)));
    } else {
      error_ = q(read->error().str());
      header_->setText(QStringLiteral("<span style='color:#a01010'>%1</span>").arg(tr("Cannot read the trace log: %1").arg(error_.toHtmlEscaped())));
    }
    Q_EMIT loaded();
    Q_EMIT idleChanged();
  });
  watcher->setFuture(QtConcurrent::run([state] {
    return std::make_shared<Result<Timeline>>(loadTimeline(state->path.toStdString(), {&state->cancel, &state->bytes}));
  }));
}

void TimelinePanel::cancelLoad() {
  if (!loading_) return;
  loadingState_->cancel = true;
  loadingState_.reset();
  ++generation_;
  loading_ = false;
  progressTimer_->stop();
  progress_->hide();
  cancel_->hide();
  header_->setText(tr("Reading the trace log was cancelled."));
  Q_EMIT idleChanged();
}

void TimelinePanel::setTimeline(std::shared_ptr<const Timeline> timeline) {
  timeline_ = std::move(timeline);
  error_.clear();
  selected_ = -1;
  filter_ = -1;
  view_->setTimeline(timeline_);
  // The axis shows up to six lanes before it scrolls; the list and details take the rest.
  scroll_->setMinimumHeight(std::min(view_->sizeHint().height(), TimelineView::heightFor(6)) + 2);
  kinds_->clear();
  kinds_->addItem(tr("All events (%1)").arg(timeline_->events.size()), -1);
  std::vector<int> counts(kTimelineKinds, 0);
  for (const TimelineEvent& e : timeline_->events) ++counts[static_cast<size_t>(e.kind)];
  for (int k = 0; k < kTimelineKinds; ++k) {
    const int n = counts[static_cast<size_t>(k)];
    if (n) kinds_->addItem(QStringLiteral("%1 (%2)").arg(q(std::string(timelineKindName(static_cast<TimelineKind>(k))))).arg(n), k);
  }
  QString text = QStringLiteral("<b>%1</b> — %2").arg(QFileInfo(q(timeline_->path)).fileName().toHtmlEscaped(), html(timeline_->summary.text()));
  if (!timeline_->problems.empty()) {
    QStringList lines;
    for (size_t i = 0; i < timeline_->problems.size() && i < 3; ++i)
      lines << tr("line %1: %2").arg(timeline_->problems[i].line).arg(html(timeline_->problems[i].message));
    text += QStringLiteral("<br><span style='color:#a05000'>%1</span>")
                .arg(tr("%n line(s) skipped", "", static_cast<int>(timeline_->problems.size())) + QStringLiteral(" (") + lines.join(QStringLiteral("; ")) +
                     (timeline_->problems.size() > 3 ? QStringLiteral("; …)") : QStringLiteral(")")));
  }
  header_->setText(text);
  fillList();
  detail_->setHtml(tr("<p>Click an event on the axis or in the list to open the graph it names and select its node. "
                      "A recompile lists every guard the call failed, in the entry that refused it.</p>"));
}

void TimelinePanel::setKindFilter(int kind) {
  filter_ = kind;
  if (const int row = kinds_->findData(kind); row >= 0) kinds_->setCurrentIndex(row);
  fillList();
}

int TimelinePanel::visibleEventCount() const { return model_->eventCount(); }

void TimelinePanel::fillList() {
  model_->reset(timeline_, filter_);
  // Expanding rows and fitting columns lay out every row: on a long list a recompile's failing
  // guards stay folded (the details list them) and the columns fit the longest time and label.
  if (model_->eventCount() > kListLaidOutRows) {
    const QFontMetrics fm(list_->font());
    list_->setColumnWidth(0, fm.horizontalAdvance(QString::number(static_cast<double>(timeline_->endUs) / 1000.0, 'f', 2)) + list_->indentation() + 16);
    list_->setColumnWidth(1, fm.horizontalAdvance(QString::fromStdString(timeline_->compiles.empty() ? "" : timeline_->compiles.back().label())) + 24);
    return;
  }
  list_->expandAll();
  for (int column = 0; column < 3; ++column) list_->resizeColumnToContents(column);
}

bool TimelinePanel::selectEvent(int index) {
  if (!timeline_ || index < 0 || index >= static_cast<int>(timeline_->events.size())) return false;
  selected_ = index;
  view_->setSelected(index);
  if (const QPoint at = view_->positionOf(index); at.x() >= 0) scroll_->ensureVisible(at.x(), at.y(), 40, 60);
  if (const QModelIndex row = model_->indexOf(index); row.isValid()) {
    const QSignalBlocker block(list_->selectionModel());
    list_->setCurrentIndex(row);
    list_->scrollTo(row);
  }
  showDetail(index);
  return true;
}

bool TimelinePanel::activateEvent(int index) {
  if (!selectEvent(index)) return false;
  const TimelineEvent& e = timeline_->events[static_cast<size_t>(index)];
  if (!e.failures.empty()) return activateFailure(index, 0);
  if (e.target.empty()) return false;
  Q_EMIT targetRequested(q(resolveTimelineDump(timeline_->path, e.target.dump)), q(e.target.graph), q(e.target.node), {}, q(e.summary));
  return true;
}

bool TimelinePanel::activateFailure(int event, int failure) {
  if (!selectEvent(event)) return false;
  const TimelineEvent& e = timeline_->events[static_cast<size_t>(event)];
  if (failure < 0 || failure >= static_cast<int>(e.failures.size())) return false;
  const FailingGuard& g = e.failures[static_cast<size_t>(failure)];
  QStringList mark;  // every failing guard's node in the same dump, outlined with the selection
  for (const FailingGuard& other : e.failures)
    if (other.target.dump == g.target.dump && !other.target.node.empty() && !mark.contains(q(other.target.node))) mark << q(other.target.node);
  if (const QModelIndex row = model_->indexOf(event, failure); row.isValid()) {
    const QSignalBlocker block(list_->selectionModel());
    list_->scrollTo(row.parent(), QAbstractItemView::PositionAtTop);  // the recompile's own row stays in sight
    list_->setCurrentIndex(row);
  }
  showDetail(event, failure);
  Q_EMIT targetRequested(q(resolveTimelineDump(timeline_->path, g.target.dump)), q(g.target.graph), q(g.target.node), mark,
                         tr("failing guard %1 of entry #%2").arg(q(g.expr)).arg(g.entry));
  return true;
}

int TimelinePanel::findEvent(int kind, int nth) const {
  if (!timeline_) return -1;
  for (size_t i = 0; i < timeline_->events.size(); ++i)
    if (static_cast<int>(timeline_->events[i].kind) == kind && nth-- == 0) return static_cast<int>(i);
  return -1;
}

bool TimelinePanel::activateNext(int kind) {
  if (!timeline_) return false;
  const int n = static_cast<int>(timeline_->events.size());
  for (int step = 1; step <= n; ++step) {
    const int i = ((selected_ < 0 ? -1 : selected_) + step + n) % n;
    if (static_cast<int>(timeline_->events[static_cast<size_t>(i)].kind) == kind) return activateEvent(i);
  }
  return false;
}

void TimelinePanel::setShownDump(const QString& path) { view_->setShownDump(QFileInfo(path).absoluteFilePath().toStdString()); }

void TimelinePanel::onRowClicked(const QModelIndex& index) {
  const int event = index.data(kEventRole).toInt(), failure = index.data(kFailureRole).toInt();
  if (failure >= 0) activateFailure(event, failure);
  else activateEvent(event);
}

void TimelinePanel::onAnchor(const QUrl& url) {
  const QString target = url.toString();
  if (target.startsWith(QStringLiteral("failure:"))) activateFailure(selected_, target.mid(8).toInt());
  else if (target.startsWith(QStringLiteral("event:"))) activateEvent(target.mid(6).toInt());
}

void TimelinePanel::showDetail(int index, int selectedFailure) {
  if (!timeline_ || index < 0 || index >= static_cast<int>(timeline_->events.size())) return;
  const TimelineEvent& e = timeline_->events[static_cast<size_t>(index)];
  QString out = QStringLiteral("<h3 style='color:%1'>%2</h3>").arg(timelineKindColour(static_cast<int>(e.kind)).name(), html(e.summary));
  const QString compile = e.session >= 0 ? q(timeline_->compiles[static_cast<size_t>(e.session)].label()) : tr("no compile");
  out += QStringLiteral("<p>%1 · %2 · stage %3 · at %4 ms · line %5</p>")
             .arg(html(e.name), compile.toHtmlEscaped(), html(e.stage))
             .arg(static_cast<double>(e.axisUs) / 1000.0, 0, 'f', 2)
             .arg(e.line);
  if (!e.failures.empty()) {
    out += tr("<p><b>%1</b> — every check of every cached entry that refused %2. Click one to open the entry's graph at the "
              "node the guard came from:</p>").arg(html(plural(static_cast<int64_t>(e.failures.size()), "failing guard")), html(e.call));
    out += QStringLiteral("<table cellspacing='0' cellpadding='3'>");
    for (size_t f = 0; f < e.failures.size(); ++f) {
      const FailingGuard& g = e.failures[f];
      // The guard just opened is marked, so the list of all of them still says which one is shown.
      const QString row = static_cast<int>(f) == selectedFailure ? QStringLiteral(" style='background:#fff0b0'") : QString();
      out += QStringLiteral("<tr%9><td><a name='f%2'></a>%10entry #%1</td><td><a href='failure:%2'><code>%3</code></a> [%4]</td>"
                            "<td>with %5</td></tr><tr%9><td></td><td colspan='2'>from <b>%6</b> · in %7<br><i>%8</i></td></tr>")
                 .arg(g.entry)
                 .arg(f)
                 .arg(html(g.expr), html(g.kind), html(g.actual), html(g.provenance()), html(dumpAndGraph(g.target)), html(g.reason), row,
                      static_cast<int>(f) == selectedFailure ? QStringLiteral("▶ ") : QString());
    }
    out += QStringLiteral("</table>");
  } else if (!e.target.empty()) {
    out += tr("<p>Opens: <a href='event:%1'>%2</a></p>").arg(index).arg(targetText(e.target).toHtmlEscaped());
  }
  out += QStringLiteral("<table cellspacing='0' cellpadding='2'>");
  for (const auto& [key, value] : e.fields)
    out += QStringLiteral("<tr><td style='color:#666'>%1</td><td>%2</td></tr>").arg(html(key), html(value));
  detail_->setHtml(out + QStringLiteral("</table>"));
  if (selectedFailure >= 0) detail_->scrollToAnchor(QStringLiteral("f%1").arg(selectedFailure));
}

}  // namespace fathom::viz
