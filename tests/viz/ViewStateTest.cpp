// ViewState and its Scene: the first scene is the collapsed top level; expanding a group lays out
// that group and its ancestors only, identical groups share one cached layout; scenes keep the
// layout invariants (no two items overlap, items inside their frames, edges join their items);
// selection, filters, highlights, aside stubs and cut-crossing stubs show up.
#include "viz/model/ViewState.h"

#include <gtest/gtest.h>

#include <future>
#include <map>

#include "tests/viz/SyntheticGraphs.h"
#include "tests/viz/VizTestDumps.h"

namespace fathom::viz {
namespace {

struct BertView {
  std::shared_ptr<const Dump> dump;
  std::optional<GraphModel> model;
  std::optional<GroupTree> tree;
  std::map<std::string, int32_t> group;  // by label
};

BertView bertForward(const char* graph = "forward") {
  BertView b;
  b.dump = testing::aotDump("bert", 12);
  auto m = GraphModel::build(*b.dump, graph);
  EXPECT_TRUE(m.ok());
  b.model.emplace(std::move(*m));
  b.tree.emplace(GroupTree::build(*b.model));
  for (size_t g = 0; g < b.tree->groups().size(); ++g) b.group[b.tree->group(static_cast<int32_t>(g)).label] = static_cast<int32_t>(g);
  return b;
}

// No two items overlap; every item lies inside the frame of the group that placed it (by depth,
// the frames it is in); edges start and end on their items.
void expectSceneInvariants(const Scene& s) {
  for (size_t i = 0; i < s.items.size(); ++i)
    for (size_t j = i + 1; j < s.items.size(); ++j)
      EXPECT_FALSE(s.items[i].box.overlaps(s.items[j].box)) << "items " << i << " and " << j;
  for (const SceneItem& it : s.items) {
    int inside = 0;
    for (const SceneFrame& f : s.frames)
      if (f.box.contains(it.box.topCenter()) && f.box.contains(it.box.bottomCenter())) ++inside;
    EXPECT_EQ(inside, it.depth - 1) << it.lines[0];
  }
  for (const SceneEdge& e : s.edges) {
    ASSERT_GE(e.points.size(), 2u);
    const Rect& a = s.items[static_cast<size_t>(e.from)].box;
    const Rect& b = s.items[static_cast<size_t>(e.to)].box;
    auto near = [](Point p, const Rect& r) { return p.x >= r.x - 1 && p.x <= r.right() + 1 && p.y >= r.y - 1 && p.y <= r.bottom() + 1; };
    EXPECT_TRUE(near(e.points.front(), a)) << e.points.front().x << "," << e.points.front().y << " box " << a.x << "," << a.y << " " << a.width << "x" << a.height << " rev " << e.reversed;
    EXPECT_TRUE(near(e.points.back(), b)) << e.points.back().x << "," << e.points.back().y << " box " << b.x << "," << b.y << " " << b.width << "x" << b.height << " rev " << e.reversed << " n " << e.points.size();
    if (!e.reversed) {
      EXPECT_LT(e.points.front().y, e.points.back().y);
    }
  }
  for (const SceneItem& it : s.items) {
    EXPECT_GE(it.box.x, s.bounds.x - 1e-6);
    EXPECT_LE(it.box.bottom(), s.bounds.bottom() + 1e-6);
  }
}

// The first scene shows the top level collapsed: one box per child of the root.
TEST(VizViewState, FirstSceneIsCollapsed) {
  BertView b = bertForward();
  ViewState view(*b.model, *b.tree, nullptr);
  ASSERT_EQ(view.pendingJobs().size(), 1u);
  ASSERT_TRUE(view.layoutPending());
  const Scene s = view.scene();
  EXPECT_TRUE(s.complete);
  EXPECT_EQ(s.items.size(), b.tree->group(b.tree->root()).children.size());
  EXPECT_TRUE(s.frames.empty());
  const SceneItem& layers = s.items[static_cast<size_t>(s.itemOfNode(b.model->find("addmm_5")))];
  EXPECT_TRUE(layers.isGroup);
  EXPECT_EQ(layers.lines[0], "encoder.layer (" + std::to_string(b.tree->group(b.group["encoder.layer"]).numNodes) + " nodes)");
  expectSceneInvariants(s);
}

// Expanding a layer lays out the layer, then its parent, then the root - one job per wave; the
// other layers are untouched and stay collapsed.
TEST(VizViewState, ExpandingRelaysOutOnlyAncestors) {
  BertView b = bertForward();
  ViewState view(*b.model, *b.tree, nullptr);
  ASSERT_TRUE(view.layoutPending());
  view.setExpanded(b.group["encoder.layer"], true);
  view.setExpanded(b.group["encoder.layer.3"], true);
  std::vector<int32_t> order;
  for (auto jobs = view.pendingJobs(); !jobs.empty(); jobs = view.pendingJobs()) {
    ASSERT_EQ(jobs.size(), 1u);
    order.push_back(jobs[0].group);
    EXPECT_TRUE(view.accept(jobs[0], runLayoutJob(jobs[0])));
  }
  EXPECT_EQ(order, (std::vector<int32_t>{b.group["encoder.layer.3"], b.group["encoder.layer"], b.tree->root()}));
  const Scene s = view.scene();
  EXPECT_TRUE(s.complete);
  EXPECT_EQ(s.frames.size(), 2u);
  EXPECT_EQ(s.frames[0].title, b.tree->title(b.group["encoder.layer"]));
  expectSceneInvariants(s);
}

// While a job is outstanding the scene draws the group collapsed, marked pending.
TEST(VizViewState, PendingGroupDrawnCollapsed) {
  BertView b = bertForward();
  ViewState view(*b.model, *b.tree, nullptr);
  ASSERT_TRUE(view.layoutPending());
  view.setExpanded(b.group["encoder.layer"], true);
  const Scene s = view.scene();
  EXPECT_FALSE(s.complete);
  const SceneItem& it = s.items[static_cast<size_t>(s.itemOfNode(b.model->find("addmm_5")))];
  EXPECT_TRUE(it.isGroup);
  EXPECT_TRUE(it.pending);
}

// Twelve identical layers expanded at once: one layout job for all of them, one cache entry.
TEST(VizViewState, IdenticalGroupsShareOneLayout) {
  BertView b = bertForward();
  auto cache = std::make_shared<LayoutCache>();
  ViewState view(*b.model, *b.tree, cache);
  view.setExpanded(b.group["encoder.layer"], true);
  for (int k = 0; k < 12; ++k) view.setExpanded(b.group["encoder.layer." + std::to_string(k)], true);
  const auto jobs = view.pendingJobs();
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_TRUE(view.accept(jobs[0], runLayoutJob(jobs[0])));
  EXPECT_EQ(cache->size(), 1u);
  ASSERT_TRUE(view.layoutPending());
  EXPECT_EQ(cache->size(), 3u);  // the layers, encoder.layer, the root
  const Scene s = view.scene();
  EXPECT_EQ(s.frames.size(), 13u);
  expectSceneInvariants(s);
  // A second view of the same graph, sharing the cache, computes nothing.
  ViewState again(*b.model, *b.tree, cache);
  again.setExpanded(b.group["encoder.layer"], true);
  for (int k = 0; k < 12; ++k) again.setExpanded(b.group["encoder.layer." + std::to_string(k)], true);
  EXPECT_TRUE(again.pendingJobs().empty());
}

// reveal() expands a node's groups; selection marks the node, or the collapsed group holding it.
TEST(VizViewState, RevealAndSelect) {
  BertView b = bertForward();
  ViewState view(*b.model, *b.tree, nullptr);
  const int32_t node = b.model->find("addmm_20");
  ASSERT_GE(node, 0);
  view.select({node, -5, 1 << 30});
  EXPECT_EQ(view.selection(), std::vector<int32_t>{node});
  ASSERT_TRUE(view.layoutPending());
  Scene s = view.scene();
  EXPECT_TRUE(s.items[static_cast<size_t>(s.itemOfNode(node))].isGroup);
  EXPECT_TRUE(s.items[static_cast<size_t>(s.itemOfNode(node))].selected);
  EXPECT_FALSE(view.isVisible(node));
  view.reveal(node);
  EXPECT_TRUE(view.isVisible(node));
  ASSERT_TRUE(view.layoutPending());
  s = view.scene();
  const SceneItem& it = s.items[static_cast<size_t>(s.itemOfNode(node))];
  EXPECT_FALSE(it.isGroup);
  EXPECT_TRUE(it.selected);
  EXPECT_EQ(it.lines[0], "addmm_20");
  EXPECT_EQ(it.lines[1], "addmm");
  expectSceneInvariants(s);
}

// A filter dims what does not match; collapsed groups count their matches; highlights show.
TEST(VizViewState, FilterAndHighlight) {
  BertView b = bertForward();
  ViewState view(*b.model, *b.tree, nullptr);
  FindQuery q;
  q.op = "_softmax";
  ASSERT_TRUE(view.setFilter(q).ok());
  EXPECT_EQ(view.filterMatches().size(), 12u);
  q.op = "([";
  EXPECT_FALSE(view.setFilter(q).ok());
  EXPECT_EQ(view.filterMatches().size(), 12u);  // unchanged
  view.setHighlight({b.model->find("addmm_20")}, Highlight::Guard);
  ASSERT_TRUE(view.layoutPending());
  const Scene s = view.scene();
  const SceneItem& layers = s.items[static_cast<size_t>(s.itemOfNode(b.model->find("addmm_20")))];
  EXPECT_EQ(layers.matches, 12);
  EXPECT_FALSE(layers.dimmed);
  EXPECT_EQ(layers.highlight, Highlight::Guard);
  int dimmed = 0;
  for (const SceneItem& it : s.items) dimmed += it.dimmed;
  EXPECT_EQ(dimmed, static_cast<int>(s.items.size()) - 1);
}

// Marks and breakpoints reach the node's box; a collapsed group shows the highest-ranked mark of
// its nodes and any breakpoint inside; a vector of the wrong size is ignored.
TEST(VizViewState, MarksAndBreakpoints) {
  BertView b = bertForward();
  ViewState view(*b.model, *b.tree, nullptr);
  const int32_t addmm = b.model->find("addmm_20"), softmax = b.model->find("_softmax_3");
  ASSERT_GE(addmm, 0);
  ASSERT_GE(softmax, 0);
  std::vector<NodeMark> marks(b.model->size(), NodeMark::Ran);
  marks[static_cast<size_t>(addmm)] = NodeMark::Inherited;
  marks[static_cast<size_t>(softmax)] = NodeMark::Origin;
  std::vector<bool> breaks(b.model->size(), false);
  breaks[static_cast<size_t>(addmm)] = true;
  const uint64_t before = view.version();
  view.setMarks(marks);
  view.setBreakpoints(breaks);
  EXPECT_GT(view.version(), before);
  ASSERT_TRUE(view.layoutPending());
  Scene s = view.scene();
  const SceneItem& collapsed = s.items[static_cast<size_t>(s.itemOfNode(addmm))];
  ASSERT_TRUE(collapsed.isGroup);
  EXPECT_EQ(collapsed.mark, NodeMark::Origin);  // the softmax is in the same collapsed layers
  EXPECT_TRUE(collapsed.breakpoint);
  view.reveal(addmm);
  ASSERT_TRUE(view.layoutPending());
  s = view.scene();
  const SceneItem& own = s.items[static_cast<size_t>(s.itemOfNode(addmm))];
  ASSERT_FALSE(own.isGroup);
  EXPECT_EQ(own.mark, NodeMark::Inherited);
  EXPECT_TRUE(own.breakpoint);
  view.setMarks(std::vector<NodeMark>(3, NodeMark::Added));  // wrong size: ignored
  EXPECT_EQ(view.marks().size(), b.model->size());
  view.setMarks({});
  EXPECT_TRUE(view.marks().empty());
  EXPECT_EQ(view.scene().items[static_cast<size_t>(view.scene().itemOfNode(addmm))].mark, NodeMark::None);
}

// A node with many users is drawn aside, each use a stub naming it instead of an edge.
TEST(VizViewState, ManyUsersDrawnAsideWithStubs) {
  Dump dump;
  dump.graphs.push_back({"forward", testing::repeatedBlockGraph(12, 20, true)});
  auto m = GraphModel::build(dump, "forward");
  ASSERT_TRUE(m.ok());
  const GroupTree t = GroupTree::build(*m);
  ViewState view(*m, t, nullptr);
  for (size_t g = 0; g < t.groups().size(); ++g) view.setExpanded(static_cast<int32_t>(g), true);
  ASSERT_TRUE(view.layoutPending());
  const Scene s = view.scene();
  const int32_t mask = m->find("mask");
  const SceneItem& maskItem = s.items[static_cast<size_t>(s.itemOfNode(mask))];
  EXPECT_TRUE(maskItem.aside);
  int stubs = 0;
  for (const SceneStub& st : s.stubs)
    if (st.otherNode == mask) {
      ++stubs;
      EXPECT_EQ(st.label, "\u2190 %mask");
      EXPECT_TRUE(st.incoming);
    }
  EXPECT_EQ(stubs, 12);
  for (const SceneEdge& e : s.edges) EXPECT_NE(e.from, s.itemOfNode(mask));
  expectSceneInvariants(s);
}

// In the joint graph, values saved across the cut are marked; fully expanded, the long edges from
// the forward side into the backward side become stubs at both ends, marked as crossing the cut.
TEST(VizViewState, JointCutCrossingEdges) {
  BertView b = bertForward("joint");
  ViewState view(*b.model, *b.tree, nullptr);
  ASSERT_TRUE(view.layoutPending());
  Scene s = view.scene();
  bool cutEdge = false;
  for (const SceneEdge& e : s.edges) cutEdge = cutEdge || e.crossesCut;
  for (const SceneStub& st : s.stubs) cutEdge = cutEdge || st.crossesCut;
  EXPECT_TRUE(cutEdge);
  for (size_t g = 0; g < b.tree->groups().size(); ++g) view.setExpanded(static_cast<int32_t>(g), true);
  ASSERT_TRUE(view.layoutPending());
  s = view.scene();
  EXPECT_EQ(s.items.size(), b.model->size());
  int cutStubs = 0;
  for (const SceneStub& st : s.stubs) cutStubs += st.crossesCut;
  EXPECT_GT(cutStubs, 0);
  int saved = 0;
  for (const SceneItem& it : s.items) saved += it.role == PartitionRole::CrossesCut;
  EXPECT_EQ(saved, static_cast<int>(b.model->saved().size()));
  expectSceneInvariants(s);
}

// The GUI's loop: jobs run on worker threads (two at once, Graphviz serialized inside), results
// are accepted on this thread, and the scene is composed here.
TEST(VizViewState, JobsRunOnWorkerThreads) {
  BertView b = bertForward();
  ViewState view(*b.model, *b.tree, nullptr);
  view.setExpanded(b.group["encoder.layer"], true);
  view.setExpanded(b.group["encoder.layer.0"], true);
  view.setExpanded(b.group["embeddings"], true);
  CancelFlag cancel{false};
  int waves = 0;
  for (auto jobs = view.pendingJobs(); !jobs.empty(); jobs = view.pendingJobs(), ++waves) {
    std::vector<std::future<Result<std::shared_ptr<const GroupLayout>>>> running;
    for (const LayoutJob& job : jobs)
      running.push_back(std::async(std::launch::async, [job, &cancel] { return runLayoutJob(job, &cancel); }));
    for (size_t k = 0; k < jobs.size(); ++k) EXPECT_TRUE(view.accept(jobs[k], running[k].get()));
  }
  EXPECT_EQ(waves, 3);  // layer 0 and embeddings; encoder.layer; the root
  const Scene s = view.scene();
  EXPECT_TRUE(s.complete);
  EXPECT_EQ(s.frames.size(), 3u);
  expectSceneInvariants(s);
}

// A set cancel flag stops layoutPending; nothing is stored.
TEST(VizViewState, CancelledJobsAreDropped) {
  BertView b = bertForward();
  auto cache = std::make_shared<LayoutCache>();
  ViewState view(*b.model, *b.tree, cache);
  CancelFlag cancel{true};
  EXPECT_FALSE(view.layoutPending(&cancel));
  EXPECT_EQ(cache->size(), 0u);
  EXPECT_FALSE(view.scene().complete);
}

}  // namespace
}  // namespace fathom::viz
