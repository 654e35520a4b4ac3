// The min-cut partitioner's choice of saved values (Partition.h): a flow network over the joint
// graph, each node split into in -> out with its bytes as capacity, solved with Boost.Graph's
// Boykov-Kolmogorov max-flow; the saved values are the nodes whose in -> out edge is cut.
//
//   source -> primals, and forward nodes that must not be recomputed       (infinite)
//   node_in -> node_out                                                      (its bytes)
//   node_out -> user_in                                                      (infinite)
//   nodes computed from tangents that a gradient needs -> sink               (infinite)
// Boost 1.74's max-flow trips GCC 12's -Wmaybe-uninitialized on its own edge iterators (a false
// positive inside the library); silenced for this file only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/boykov_kolmogorov_max_flow.hpp>

#include <queue>
#include <string_view>
#include <unordered_set>

#include "engine/aot/Partition.h"
#include "engine/aot/PartitionSets.h"

namespace fathom::aot {
namespace {

using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using FlowGraph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS,
    boost::property<boost::vertex_index_t, long,
                    boost::property<boost::vertex_color_t, boost::default_color_type,
                                    boost::property<boost::vertex_distance_t, long,
                                                    boost::property<boost::vertex_predecessor_t, Traits::edge_descriptor>>>>,
    boost::property<boost::edge_capacity_t, long,
                    boost::property<boost::edge_residual_capacity_t, long,
                                    boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;

constexpr long kInfinite = 10'000'000'000'000L;  // 10 TB: more than any real cut, far from overflow

// Ops cheap enough to recompute in the backward (pointwise, views, size arithmetic, factories):
// tagged Recomputable in engine/ops/OpTagTable.cpp.
bool isRecomputable(const Node& n) { return tagsOf(n).has(OpTag::Recomputable); }

class Network {
 public:
  explicit Network(size_t vertices) : g_(vertices) {}

  void edge(size_t u, size_t v, long capacity) {
    auto cap = boost::get(boost::edge_capacity, g_);
    auto rev = boost::get(boost::edge_reverse, g_);
    auto e = boost::add_edge(u, v, g_).first;
    auto r = boost::add_edge(v, u, g_).first;
    cap[e] = capacity;
    cap[r] = 0;
    rev[e] = r;
    rev[r] = e;
  }

  long maxFlow(size_t s, size_t t) { return boost::boykov_kolmogorov_max_flow(g_, s, t); }

  // Vertices reachable from `s` in the residual graph: the source side of the minimum cut.
  std::vector<char> sourceSide(size_t s) const {
    auto res = boost::get(boost::edge_residual_capacity, g_);
    std::vector<char> seen(boost::num_vertices(g_), 0);
    std::queue<size_t> q;
    q.push(s);
    seen[s] = 1;
    while (!q.empty()) {
      const size_t u = q.front();
      q.pop();
      for (auto [e, end] = boost::out_edges(u, g_); e != end; ++e) {
        const size_t v = boost::target(*e, g_);
        if (!seen[v] && res[*e] > 0) {
          seen[v] = 1;
          q.push(v);
        }
      }
    }
    return seen;
  }

 private:
  FlowGraph g_;
};

}  // namespace

Result<std::vector<NodeRef>> minCutSavedValues(const JointGraph& joint) {
  const Graph& g = joint.graph;
  const JointSets sets = jointSets(joint);
  const size_t n = g.size();
  const size_t source = 2 * n, sink = 2 * n + 1;
  auto in = [](size_t i) { return 2 * i; };
  auto out = [](size_t i) { return 2 * i + 1; };
  Network net(2 * n + 2);
  const auto users = g.users();
  std::vector<char> isPrimal(n, 0);
  for (NodeRef p : joint.primals()) isPrimal[static_cast<size_t>(p.index)] = 1;
  for (size_t i = 0; i < n; ++i) {
    const Node& node = g.nodes()[i];
    if (node.kind == NodeKind::Output || !sets.needed[i]) continue;
    if (sets.requiredBackward[i]) {
      net.edge(in(i), sink, kInfinite);
      continue;
    }
    if (isPrimal[i]) net.edge(source, in(i), kInfinite);
    if (sets.requiredForward[i] && node.kind == NodeKind::Call && !isRecomputable(node))
      net.edge(source, in(i), kInfinite);
    const bool isTuple = node.val.is<ValueList>();
    long weight = isTuple || node.val.isNone() ? kInfinite : static_cast<long>(valueBytes(node.val));
    net.edge(in(i), out(i), weight);
    for (int32_t u : users[i]) {
      const Node& user = g.nodes()[static_cast<size_t>(u)];
      if (user.kind == NodeKind::Call && sets.needed[static_cast<size_t>(u)]) net.edge(out(i), in(static_cast<size_t>(u)), kInfinite);
    }
  }
  // A gradient that is a forward value (not computed from the tangents) must reach the backward.
  for (NodeRef r : sets.gradOutputs)
    if (!sets.requiredBackward[static_cast<size_t>(r.index)]) net.edge(out(static_cast<size_t>(r.index)), sink, kInfinite);
  const long flow = net.maxFlow(source, sink);
  if (flow >= kInfinite)
    return internalError("min-cut partitioner: no finite cut separates the forward from the backward");
  const std::vector<char> reach = net.sourceSide(source);
  std::vector<NodeRef> saved;
  for (size_t i = 0; i < n; ++i)
    if (reach[in(i)] && !reach[out(i)] && sets.needed[i] && !sets.requiredBackward[i] &&
        g.nodes()[i].kind != NodeKind::Output)
      saved.push_back(NodeRef{static_cast<int32_t>(i)});
  return saved;
}

}  // namespace fathom::aot

#pragma GCC diagnostic pop
