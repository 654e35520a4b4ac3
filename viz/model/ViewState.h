// ViewState: the state of one graph tab - which groups are expanded, the selection, the filter,
// highlights - and the Scene it shows. Lives on the UI thread; layouts are computed as
// LayoutJobs wherever the caller likes.
//
// Only what is visible is laid out. The root is always expanded (and, in a joint graph, its two
// sides at first). An expanded group needs the layout of its children, and its box in its
// parent's layout is as big as that layout, so layouts are computed bottom-up in waves:
//
//   ViewState view(model, tree, cache);
//   view.setExpanded(layer3, true);
//   while (true) {                          // the GUI runs each wave on a worker thread
//     auto jobs = view.pendingJobs();       // groups whose expanded children are all laid out
//     if (jobs.empty()) break;
//     for (auto& job : jobs) view.accept(job, runLayoutJob(job, &cancel));
//   }
//   Scene scene = view.scene();             // cheap: translates cached layouts
//
// (view.layoutPending() does exactly that on the calling thread.) Expanding a group therefore
// lays out that group and re-lays out its ancestors, whose child box grew; every other layout
// is a cache hit. scene() can be called at any time: an expanded group whose layout is not ready
// is drawn as a collapsed box marked pending, and Scene::complete is false.
#pragma once

#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "viz/model/Find.h"
#include "viz/model/ItemText.h"
#include "viz/model/LayoutJob.h"
#include "viz/model/Scene.h"

namespace fathom::viz {

class ViewState {
 public:
  // `model` and `tree` must outlive the view; the cache may be shared between views and threads.
  ViewState(const GraphModel& model, const GroupTree& tree, std::shared_ptr<LayoutCache> cache,
            SceneStyle style = {});

  const GraphModel& model() const { return *model_; }
  const GroupTree& tree() const { return *tree_; }
  const SceneStyle& style() const { return style_; }

  // Expansion. The root cannot be collapsed.
  bool isExpanded(int32_t group) const { return expanded_[static_cast<size_t>(group)]; }
  void setExpanded(int32_t group, bool expanded);
  void toggle(int32_t group) { setExpanded(group, !isExpanded(group)); }
  void collapseAll();
  // Expands every group holding `node`, so the node gets a box of its own.
  void reveal(int32_t node);
  // Whether `node` has a box of its own (all its groups expanded).
  bool isVisible(int32_t node) const;

  // Selection (node indices of this graph; out-of-range ones are dropped).
  const std::vector<int32_t>& selection() const { return selection_; }
  void select(std::vector<int32_t> nodes);
  void clearSelection() { select({}); }

  // Filter: items with no matching node are dimmed; collapsed groups count their matches.
  // A bad regex leaves the filter unchanged and returns the error.
  Status setFilter(const FindQuery& query);
  void clearFilter();
  const std::optional<FindQuery>& filter() const { return filter_; }
  const std::vector<int32_t>& filterMatches() const { return matches_; }

  // Highlights (guards clicked, find results, ...), one kind per node; None removes.
  void setHighlight(const std::vector<int32_t>& nodes, Highlight kind);
  void clearHighlights();

  // Marks (NodeMark: a debugging run's or a diff's state per node) and breakpoints, each a
  // vector over the graph's nodes; an empty vector clears. A vector of another size is ignored.
  void setMarks(std::vector<NodeMark> perNode);
  void setBreakpoints(std::vector<bool> perNode);
  const std::vector<NodeMark>& marks() const { return marks_; }

  // Layout jobs that can run now: expanded visible groups without a cached layout whose
  // expanded children all have one. Innermost first.
  std::vector<LayoutJob> pendingJobs() const;
  // Stores a finished job's layout (a failed or cancelled one is ignored; false then).
  bool accept(const LayoutJob& job, const Result<std::shared_ptr<const GroupLayout>>& layout);
  // Runs every wave of pending jobs on this thread. False when cancelled or a job failed.
  bool layoutPending(const CancelFlag* cancel = nullptr);

  // The scene as it stands (see the class comment).
  Scene scene() const;

  // Bumped on every change that alters the scene (expansion, selection, filter, highlight,
  // accepted layout), so the GUI knows when to recompose.
  uint64_t version() const { return version_; }

 private:
  friend class SceneComposer;
  // The job for a group as its children are now (pending children at their collapsed size).
  LayoutJob makeJob(int32_t group) const;
  // The job for an expanded group whose expanded children all have layouts; nullopt otherwise.
  std::optional<LayoutJob> jobFor(int32_t group) const;
  std::shared_ptr<const GroupLayout> layoutOf(int32_t group) const;  // null when not ready
  BoxSize childBoxSize(GroupChild child) const;
  const std::vector<LayoutEdge>& edgesOf(int32_t group) const;

  const GraphModel* model_;
  const GroupTree* tree_;
  std::shared_ptr<LayoutCache> cache_;
  SceneStyle style_;
  std::vector<bool> expanded_;
  std::vector<int32_t> selection_;
  std::optional<FindQuery> filter_;
  std::vector<int32_t> matches_;
  std::vector<Highlight> highlight_;  // per node; empty when none was ever set
  std::vector<NodeMark> marks_;       // per node; empty: none
  std::vector<bool> breakpoints_;     // per node; empty: none
  std::vector<BoxSize> nodeSizes_;    // per node, computed once
  std::vector<bool> aside_;           // per node: drawn aside
  mutable std::unordered_map<int32_t, std::vector<LayoutEdge>> edgeMemo_;  // per group
  mutable std::unordered_map<int32_t, uint64_t> keyMemo_;  // group -> key of its current job
  uint64_t version_ = 0;
};

}  // namespace fathom::viz
