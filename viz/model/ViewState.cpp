// ViewState: expansion, selection, filter, highlights, and the layout jobs of what is visible
// (ViewState.h). The scene itself is composed in ComposeScene.cpp.
#include "viz/model/ViewState.h"

#include <algorithm>
#include <functional>
#include <unordered_set>

#include "viz/model/ItemText.h"

namespace fathom::viz {

ViewState::ViewState(const GraphModel& model, const GroupTree& tree, std::shared_ptr<LayoutCache> cache, SceneStyle style)
    : model_(&model), tree_(&tree), cache_(cache ? std::move(cache) : std::make_shared<LayoutCache>()), style_(std::move(style)) {
  expanded_.assign(tree.groups().size(), false);
  expanded_[static_cast<size_t>(tree.root())] = true;
  for (GroupChild c : tree.group(tree.root()).children)
    if (c.isGroup && tree.group(c.index).kind == GroupKind::Side) expanded_[static_cast<size_t>(c.index)] = true;
  nodeSizes_.reserve(model.size());
  aside_.assign(model.size(), false);
  for (const NodeInfo& n : model.nodes()) {
    nodeSizes_.push_back(boxSizeFor(nodeLines(n), style_));
    aside_[static_cast<size_t>(n.index)] = static_cast<int32_t>(n.users.size()) > style_.asideUsers;
  }
}

void ViewState::setExpanded(int32_t group, bool expanded) {
  if (group < 0 || static_cast<size_t>(group) >= expanded_.size() || group == tree_->root()) return;
  if (expanded_[static_cast<size_t>(group)] == expanded) return;
  expanded_[static_cast<size_t>(group)] = expanded;
  keyMemo_.clear();
  ++version_;
}

void ViewState::collapseAll() {
  std::fill(expanded_.begin(), expanded_.end(), false);
  expanded_[static_cast<size_t>(tree_->root())] = true;
  keyMemo_.clear();
  ++version_;
}

void ViewState::reveal(int32_t node) {
  if (node < 0 || static_cast<size_t>(node) >= model_->size()) return;
  for (int32_t g = tree_->groupOfNode(node); g >= 0; g = tree_->group(g).parent) setExpanded(g, true);
}

bool ViewState::isVisible(int32_t node) const {
  if (node < 0 || static_cast<size_t>(node) >= model_->size()) return false;
  for (int32_t g = tree_->groupOfNode(node); g >= 0; g = tree_->group(g).parent)
    if (!expanded_[static_cast<size_t>(g)]) return false;
  return true;
}

void ViewState::select(std::vector<int32_t> nodes) {
  std::erase_if(nodes, [&](int32_t n) { return n < 0 || static_cast<size_t>(n) >= model_->size(); });
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  selection_ = std::move(nodes);
  ++version_;
}

Status ViewState::setFilter(const FindQuery& query) {
  auto found = findNodes(*model_, query);
  if (!found.ok()) return std::move(found.error());
  filter_ = query;
  matches_ = std::move(*found);
  ++version_;
  return {};
}

void ViewState::clearFilter() {
  filter_.reset();
  matches_.clear();
  ++version_;
}

void ViewState::setHighlight(const std::vector<int32_t>& nodes, Highlight kind) {
  if (highlight_.empty()) highlight_.assign(model_->size(), Highlight::None);
  for (int32_t n : nodes)
    if (n >= 0 && static_cast<size_t>(n) < highlight_.size()) highlight_[static_cast<size_t>(n)] = kind;
  ++version_;
}

void ViewState::clearHighlights() {
  highlight_.clear();
  ++version_;
}

void ViewState::setMarks(std::vector<NodeMark> perNode) {
  if (!perNode.empty() && perNode.size() != model_->size()) return;
  marks_ = std::move(perNode);
  ++version_;
}

void ViewState::setBreakpoints(std::vector<bool> perNode) {
  if (!perNode.empty() && perNode.size() != model_->size()) return;
  breakpoints_ = std::move(perNode);
  ++version_;
}

const std::vector<LayoutEdge>& ViewState::edgesOf(int32_t group) const {
  auto it = edgeMemo_.find(group);
  if (it == edgeMemo_.end()) it = edgeMemo_.emplace(group, childEdges(*model_, *tree_, group)).first;
  return it->second;
}

BoxSize ViewState::childBoxSize(GroupChild child) const {
  if (!child.isGroup) return nodeSizes_[static_cast<size_t>(child.index)];
  const BoxSize collapsed = boxSizeFor(groupLines(*tree_, child.index), style_);
  if (!expanded_[static_cast<size_t>(child.index)]) return collapsed;
  auto inner = layoutOf(child.index);
  if (!inner) return collapsed;  // pending: drawn collapsed until its layout arrives
  const Rect& b = inner->layout.bounds;
  const double titleWidth = static_cast<double>(tree_->title(child.index).size()) * style_.charWidth + 2 * style_.padding;
  return {std::max(b.width + 2 * style_.framePadding, titleWidth), b.height + style_.frameTitle + 2 * style_.framePadding};
}

LayoutJob ViewState::makeJob(int32_t group) const {
  LayoutJob job;
  job.group = group;
  job.options = style_.layout;
  for (GroupChild c : tree_->group(group).children) {
    const BoxSize s = childBoxSize(c);
    job.graph.nodes.push_back({s.width, s.height, !c.isGroup && aside_[static_cast<size_t>(c.index)]});
  }
  job.graph.edges = edgesOf(group);
  job.key = layoutKey(tree_->group(group).structuralHash, job.graph, job.options);
  return job;
}

std::optional<LayoutJob> ViewState::jobFor(int32_t group) const {
  for (GroupChild c : tree_->group(group).children)
    if (c.isGroup && expanded_[static_cast<size_t>(c.index)] && !layoutOf(c.index)) return std::nullopt;
  return makeJob(group);
}

std::shared_ptr<const GroupLayout> ViewState::layoutOf(int32_t group) const {
  // The key as the children are now: a child whose layout is pending counts at its collapsed
  // size, so the parent's previous layout keeps showing until the child's arrives.
  auto memo = keyMemo_.find(group);
  if (memo == keyMemo_.end()) memo = keyMemo_.emplace(group, makeJob(group).key).first;
  auto layout = cache_->find(memo->second);
  // A key collision between groups of different shapes must not index out of range.
  if (layout && layout->layout.boxes.size() != tree_->group(group).children.size()) return nullptr;
  return layout;
}

std::vector<LayoutJob> ViewState::pendingJobs() const {
  std::vector<LayoutJob> jobs;
  std::unordered_set<uint64_t> keys;
  std::function<void(int32_t)> visit = [&](int32_t g) {
    for (GroupChild c : tree_->group(g).children)
      if (c.isGroup && expanded_[static_cast<size_t>(c.index)]) visit(c.index);
    if (layoutOf(g)) return;
    auto job = jobFor(g);
    if (job && keys.insert(job->key).second) jobs.push_back(std::move(*job));
  };
  visit(tree_->root());
  return jobs;
}

bool ViewState::accept(const LayoutJob& job, const Result<std::shared_ptr<const GroupLayout>>& layout) {
  if (!layout.ok() || !*layout) return false;
  cache_->insert(job.key, *layout);
  keyMemo_.clear();
  ++version_;
  return true;
}

bool ViewState::layoutPending(const CancelFlag* cancel) {
  for (;;) {
    auto jobs = pendingJobs();
    if (jobs.empty()) return true;
    for (const LayoutJob& job : jobs)
      if (!accept(job, runLayoutJob(job, cancel))) return false;
  }
}

}  // namespace fathom::viz
