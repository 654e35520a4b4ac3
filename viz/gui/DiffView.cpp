// DiffView (see the header).
#include "viz/gui/DiffView.h"

#include <QFileInfo>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

#include "viz/gui/GraphTab.h"
#include "viz/model/DiffOverlay.h"

namespace fathom::viz {
namespace {

// A titled pane: the title line above whichever GraphTab the view puts in.
QWidget* pane(QWidget* parent, QLabel** title) {
  auto* w = new QWidget(parent);
  auto* layout = new QVBoxLayout(w);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  *title = new QLabel(w);
  (*title)->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);  // a long name is clipped, not widening the window
  (*title)->setStyleSheet(QStringLiteral("QLabel { background: #eef1f5; padding: 4px 8px; border-bottom: 1px solid #c8ced6; }"));
  layout->addWidget(*title);
  return w;
}

QString titleOf(const char* side, const DumpView& view, const GraphModel& g) {
  return QStringLiteral("<b>%1</b> %2 · graph '%3' (%4 nodes)")
      .arg(QString::fromUtf8(side), QFileInfo(view.path).fileName().toHtmlEscaped(), QString::fromStdString(g.graphName()).toHtmlEscaped())
      .arg(g.size());
}

std::vector<int32_t> sortedUnique(std::vector<int32_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

}  // namespace

DiffView::DiffView(std::shared_ptr<LayoutCache> cache, QWidget* parent) : QWidget(parent), cache_(std::move(cache)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  stack_ = new QStackedWidget(this);
  layout->addWidget(stack_);
  auto* split = new QSplitter(Qt::Horizontal, stack_);
  leftPane_ = pane(split, &leftTitle_);
  rightPane_ = pane(split, &rightTitle_);
  split->addWidget(leftPane_);
  split->addWidget(rightPane_);
  split->setChildrenCollapsible(false);
  unionPane_ = pane(stack_, &unionTitle_);
  stack_->addWidget(split);
  stack_->addWidget(unionPane_);
}

DiffView::~DiffView() = default;

GraphTab* DiffView::makeTab(QWidget* host, std::shared_ptr<const DumpView> view, int32_t graph, std::vector<NodeMark> marks) {
  auto* tab = new GraphTab(std::move(view), graph, cache_, host);
  static_cast<QVBoxLayout*>(host->layout())->addWidget(tab, 1);
  tab->setMarks(std::move(marks));
  connect(tab, &GraphTab::selectionChanged, this, [this, tab] { onSelection(tab); });
  return tab;
}

void DiffView::setDiff(DiffBuild build, const std::vector<int32_t>& selection) {
  for (GraphTab** t : {&left_, &right_, &union_}) {
    delete *t;  // cancels its layout jobs
    *t = nullptr;
  }
  build_ = std::move(build);
  const DiffModel& d = *build_.diff;
  leftTitle_->setText(titleOf("◀ left (before)", *build_.left, d.model(DiffSide::Left)));
  rightTitle_->setText(titleOf("right (after) ▶", *build_.right, d.model(DiffSide::Right)));
  unionTitle_->setText(QStringLiteral("<b>overlay</b> %1 with what was removed from %2 added back (%3 nodes) — %4")
                           .arg(QFileInfo(build_.right->path).fileName().toHtmlEscaped(), QFileInfo(build_.left->path).fileName().toHtmlEscaped())
                           .arg(build_.overlayView->model->graph(build_.overlayGraph).size())
                           .arg(QString::fromStdString(d.countsText())));
  message_.clear();
  entry_ = -1;
  pendingSelection_ = selection;
  ++generation_;
  making_ = true;
  makeNextTab();
}

void DiffView::makeNextTab() {
  GraphTab** order[3] = {&left_, &right_, &union_};
  if (overlay_) std::rotate(order, order + 2, order + 3);  // the overlay first
  GraphTab** next = nullptr;
  for (GraphTab** t : order)
    if (!*t) {
      next = t;
      break;
    }
  making_ = next != nullptr;
  if (!next) return;
  if (next == &left_) left_ = makeTab(leftPane_, build_.left, build_.leftGraph, diff()->marks(DiffSide::Left));
  else if (next == &right_) right_ = makeTab(rightPane_, build_.right, build_.rightGraph, diff()->marks(DiffSide::Right));
  else union_ = makeTab(unionPane_, build_.overlayView, build_.overlayGraph, build_.overlay->marks);
  // The new tab takes the selection: the one asked for, else what another tab has selected.
  if (*next == left_ && !pendingSelection_.empty()) {
    left_->select(std::exchange(pendingSelection_, {}), true);
  } else {
    for (GraphTab* t : {left_, right_, union_})
      if (t && t != *next && !t->state().selection().empty()) {
        onSelection(t, *next);
        break;
      }
  }
  QTimer::singleShot(0, this, [this, generation = generation_] {
    if (generation == generation_) makeNextTab();
  });
}

void DiffView::setOverlay(bool on) {
  overlay_ = on;
  stack_->setCurrentIndex(on ? 1 : 0);
}

GraphTab* DiffView::shownTab() const { return overlay_ ? union_ : left_; }

bool DiffView::idle() const {
  if (making_) return false;
  for (const GraphTab* t : {left_, right_, union_})
    if (t && !t->idle()) return false;
  return true;
}

void DiffView::selectNodes(DiffSide side, const std::vector<int32_t>& nodes) {
  if (GraphTab* t = tab(side)) t->select(nodes, true);  // its selectionChanged carries it over
  else if (side == DiffSide::Left) pendingSelection_ = nodes;  // the left tab is not made yet
}

void DiffView::selectEntry(int entry) {
  if (!diff() || entry < 0 || static_cast<size_t>(entry) >= diff()->entries().size()) return;
  const DiffEntry& e = diff()->entries()[static_cast<size_t>(entry)];
  if (e.left >= 0) selectNodes(DiffSide::Left, {e.left});
  else selectNodes(DiffSide::Right, {e.right});
}

// One node centered and revealed; many (a group clicked) selected as they are, so the other
// side does not expand every group they fall in.
void DiffView::follow(GraphTab* t, const std::vector<int32_t>& nodes) {
  if (!t) return;  // not made yet: it takes the selection when it is
  if (nodes.size() == 1) {
    t->select(nodes, true);
    return;
  }
  t->state().select(nodes);
  t->refresh(true);
}

void DiffView::onSelection(GraphTab* from, GraphTab* only) {
  if (syncing_ || !diff()) return;
  syncing_ = true;
  const DiffOverlay& o = *build_.overlay;
  const std::vector<int32_t>& selection = from->state().selection();
  std::vector<int32_t> left, right;
  if (from == union_) {
    for (int32_t n : selection) {
      if (const int32_t l = o.toSide(DiffSide::Left, n); l >= 0) left.push_back(l);
      if (const int32_t r = o.toSide(DiffSide::Right, n); r >= 0) right.push_back(r);
    }
  } else {
    const DiffSide side = from == left_ ? DiffSide::Left : DiffSide::Right;
    (side == DiffSide::Left ? left : right) = selection;
    (side == DiffSide::Left ? right : left) = diff()->mapSelection(side, selection);
  }
  std::vector<int32_t> shown;
  for (int32_t l : left)
    if (diff()->counterpart(DiffSide::Left, l) < 0) shown.push_back(o.fromSide(DiffSide::Left, l));
  for (int32_t r : right) shown.push_back(o.fromSide(DiffSide::Right, r));
  for (auto [t, nodes] : {std::pair{left_, &left}, std::pair{right_, &right}, std::pair{union_, &shown}})
    if (t != from && (!only || t == only)) follow(t, t == union_ ? sortedUnique(*nodes) : *nodes);
  syncing_ = false;
  if (only) return;
  if (selection.size() != 1) return explain(DiffSide::Left, -1);
  if (from == left_ || (from == union_ && right.empty())) explain(DiffSide::Left, left.empty() ? -1 : left.front());
  else explain(DiffSide::Right, right.empty() ? -1 : right.front());
}

void DiffView::explain(DiffSide side, int32_t node) {
  message_ = node < 0 ? QString() : QString::fromStdString(diff()->nodeText(side, node));
  entry_ = node < 0 ? -1 : diff()->entryOf(side, node);
  Q_EMIT selectionExplained(message_);
  Q_EMIT entryFollowed(entry_);
}

}  // namespace fathom::viz
