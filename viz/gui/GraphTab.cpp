// GraphTab (see the header).
#include "viz/gui/GraphTab.h"

#include <QFutureWatcher>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "viz/gui/GraphCanvas.h"

namespace fathom::viz {

using LayoutResult = Result<std::shared_ptr<const GroupLayout>>;

std::shared_ptr<DumpView> buildDumpView(const QString& path, std::shared_ptr<const Dump> dump, std::string* error) {
  if (!dump) return nullptr;
  auto model = DumpModel::build(dump);
  if (!model.ok()) {
    *error = path.toStdString() + ": " + model.error().str();
    return nullptr;
  }
  auto view = std::make_shared<DumpView>();
  view->path = path;
  view->dump = std::move(dump);
  view->model = std::make_unique<DumpModel>(std::move(*model));
  for (const GraphModel& g : view->model->graphs()) view->trees.push_back(std::make_unique<GroupTree>(GroupTree::build(g)));
  return view;
}

GraphTab::GraphTab(std::shared_ptr<const DumpView> view, int32_t graph, std::shared_ptr<LayoutCache> cache, QWidget* parent)
    : QWidget(parent), view_(std::move(view)), graph_(graph), cancel_(std::make_shared<std::atomic<bool>>(false)) {
  SceneStyle style;
  QFont bold = font();
  bold.setBold(true);  // first lines are bold: size boxes for them
  const QFontMetricsF metrics(font());
  style.charWidth = QFontMetricsF(bold).averageCharWidth() * 1.1;
  style.lineHeight = metrics.height();
  state_ = std::make_unique<ViewState>(model(), tree(), std::move(cache), style);
  canvas_ = new GraphCanvas(this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(canvas_);
  connect(canvas_, &GraphCanvas::itemClicked, this, &GraphTab::onItemClicked);
  connect(canvas_, &GraphCanvas::itemActivated, this, &GraphTab::onItemActivated);
  connect(canvas_, &GraphCanvas::stubClicked, this, [this](int, int otherNode) {
    if (otherNode >= 0) select({otherNode}, true);
  });
  connect(canvas_, &GraphCanvas::backgroundClicked, this, [this] {
    state_->clearSelection();
    refresh();
    Q_EMIT selectionChanged();
  });
  refresh(false);
  schedule();
}

GraphTab::~GraphTab() { cancel_->store(true); }

const GraphModel& GraphTab::model() const { return view_->model->graph(graph_); }
const GroupTree& GraphTab::tree() const { return *view_->trees[static_cast<size_t>(graph_)]; }

void GraphTab::refresh(bool keepView) {
  canvas_->setScene(state_->scene(), keepView);
  if (centerPending_ && !state_->selection().empty()) {
    const int item = canvas_->scene().itemOfNode(state_->selection().front());
    if (item >= 0 && !canvas_->scene().items[static_cast<size_t>(item)].isGroup) {
      canvas_->centerOn(canvas_->scene().items[static_cast<size_t>(item)].box, true);
      centerPending_ = false;
    }
  }
}

void GraphTab::schedule() {
  const auto jobs = state_->pendingJobs();
  for (const LayoutJob& job : jobs) {
    ++running_;
    auto* watcher = new QFutureWatcher<LayoutResult>(this);
    connect(watcher, &QFutureWatcher<LayoutResult>::finished, this, [this, watcher, job] {
      watcher->deleteLater();
      --running_;
      state_->accept(job, watcher->result());
      if (running_ == 0) {
        refresh(true);
        schedule();
        if (idle()) Q_EMIT idleChanged();
      }
    });
    watcher->setFuture(QtConcurrent::run([job, cancel = cancel_] { return runLayoutJob(job, cancel.get()); }));
  }
  if (!jobs.empty()) Q_EMIT layoutStarted(running_);
}

void GraphTab::select(const std::vector<int32_t>& nodes, bool center) {
  for (int32_t n : nodes) state_->reveal(n);
  state_->select(nodes);
  centerPending_ = center;
  refresh(true);
  schedule();
  Q_EMIT selectionChanged();
}

void GraphTab::reveal(const std::vector<int32_t>& nodes) {
  for (int32_t n : nodes) state_->reveal(n);
  refresh(true);
  schedule();
}

bool GraphTab::expandGroup(const QString& label) {
  const std::string wanted = label.toStdString();
  for (size_t g = 0; g < tree().groups().size(); ++g) {
    const Group& group = tree().group(static_cast<int32_t>(g));
    if (group.label == wanted || tree().title(static_cast<int32_t>(g)) == wanted) {
      for (int32_t a : tree().ancestors(static_cast<int32_t>(g))) state_->setExpanded(a, true);
      state_->setExpanded(static_cast<int32_t>(g), true);
      refresh(true);
      schedule();
      return true;
    }
  }
  return false;
}

void GraphTab::setHighlight(const std::vector<int32_t>& nodes, Highlight kind) {
  state_->clearHighlights();
  if (!nodes.empty()) state_->setHighlight(nodes, kind);
  refresh(true);
}

void GraphTab::setMarks(std::vector<NodeMark> perNode, std::vector<bool> breakpoints) {
  state_->setMarks(std::move(perNode));
  state_->setBreakpoints(std::move(breakpoints));
  refresh(true);
}

void GraphTab::onItemClicked(int item, Qt::KeyboardModifiers modifiers) {
  const SceneItem& it = canvas_->scene().items[static_cast<size_t>(item)];
  if (it.isGroup) {
    state_->select(tree().nodesBelow(it.id));  // the inspector sums the group up
  } else if (modifiers & Qt::ControlModifier) {
    auto selection = state_->selection();
    selection.push_back(it.id);
    state_->select(selection);
  } else {
    state_->select({it.id});
  }
  refresh(true);
  Q_EMIT selectionChanged();
}

void GraphTab::onItemActivated(int item) {
  const SceneItem& it = canvas_->scene().items[static_cast<size_t>(item)];
  if (it.isGroup) state_->toggle(it.id);
  else if (tree().groupOfNode(it.id) != tree().root()) state_->setExpanded(tree().groupOfNode(it.id), false);
  refresh(true);
  schedule();
}

}  // namespace fathom::viz
