// planFusion: one pass over the call nodes in graph order. Each node either joins the kernel of
// one of its producers (when FusionRules says it may and the producer reads at the same index)
// or starts a kernel of its own. A kernel stays open to pointwise joins until a reduction ends
// it, the cap fills it, or a barrier (FusionRules.h) closes everything open.
//
// Joining may reorder: a node read by an earlier-started kernel's newest member also depends
// on whatever that member reads. A join that would make a kernel wait on itself (a producer
// step that already depends on the kernel) is refused, as Inductor's will_fusion_create_cycle
// does; the kernels are then sorted topologically, earliest-started first, so the order stays
// the graph's wherever nothing was fused across.
#include "engine/compile/FusionPlan.h"

#include <algorithm>
#include <queue>

#include "engine/compile/FusionRules.h"

namespace fathom {
namespace {

struct Step {
  KernelKind kind = KernelKind::Extern;
  std::vector<NodeRef> nodes;
  std::vector<int32_t> deps;  // steps this one reads (unsorted, may repeat)
  bool open = false;          // a pointwise kernel that may still take nodes
  int64_t count = 0;          // nodes towards the cap (getitems do not count)
};

class Planner {
 public:
  Planner(const Graph& g, FusionOptions o) : g_(g), opts_(o), stepOf_(g.size(), -1), seen_(g.size(), 0) {}

  Status place(NodeRef n);
  std::vector<int32_t> order() const;
  FusionPlan finish() const;

 private:
  const Node& node(NodeRef r) const { return g_.node(r); }
  std::vector<NodeRef> refsOf(NodeRef n) const {
    std::vector<NodeRef> refs;
    forEachNodeRef(node(n), [&](NodeRef r) { refs.push_back(r); });
    return refs;
  }
  int32_t start(NodeRef n, KernelKind kind, bool open);
  void join(int32_t s, NodeRef n);
  bool mayJoin(int32_t s, NodeRef n, const SymIntList& index) const;
  bool dependsOn(int32_t from, int32_t target) const;
  int32_t pointwiseHost(NodeRef n) const;
  int32_t hostOf(FusionRole role, NodeRef n) const;

  const Graph& g_;
  FusionOptions opts_;
  std::vector<int32_t> stepOf_;  // per node; -1: placeholder, output or not yet placed
  std::vector<Step> steps_;
  std::vector<int32_t> open_;
  mutable std::vector<uint32_t> seen_;  // dependsOn's visited marks, by epoch
  mutable uint32_t epoch_ = 0;
};

int32_t Planner::start(NodeRef n, KernelKind kind, bool open) {
  steps_.push_back({kind, {}, {}, open, 0});
  const auto s = static_cast<int32_t>(steps_.size() - 1);
  if (open) open_.push_back(s);
  join(s, n);
  return s;
}

void Planner::join(int32_t s, NodeRef n) {
  Step& step = steps_[s];
  step.nodes.push_back(n);
  if (node(n).target != "getitem") ++step.count;
  stepOf_[n.index] = s;
  for (NodeRef r : refsOf(n))
    if (stepOf_[r.index] >= 0 && stepOf_[r.index] != s) step.deps.push_back(stepOf_[r.index]);
  if (step.count >= opts_.maxNodesPerKernel) step.open = false;
}

// Does step `from` (transitively) read step `target`? Steps are few next to nodes and joins are
// local, so a plain depth-first search is enough here.
bool Planner::dependsOn(int32_t from, int32_t target) const {
  if (seen_.size() < steps_.size()) seen_.resize(steps_.size() * 2, 0);
  ++epoch_;
  std::vector<int32_t> stack{from};
  while (!stack.empty()) {
    const int32_t s = stack.back();
    stack.pop_back();
    if (s == target) return true;
    if (seen_[s] == epoch_) continue;
    seen_[s] = epoch_;
    for (int32_t d : steps_[s].deps) stack.push_back(d);
  }
  return false;
}

// Whether node n may join open kernel s, iterating over `index` (n's sizes, or a reduction's
// input sizes): every value it reads from s is at that same index, and no value it reads from
// elsewhere waits on s.
bool Planner::mayJoin(int32_t s, NodeRef n, const SymIntList& index) const {
  if (!steps_[s].open) return false;
  for (NodeRef r : refsOf(n)) {
    const int32_t t = stepOf_[r.index];
    if (t == s) {
      const TensorMeta* m = resultMeta(node(r));
      if (!m || !sameSizes(m->sizes, index)) return false;  // a broadcast read of a kernel value
    } else if (t >= 0 && dependsOn(t, s)) {
      return false;
    }
  }
  return true;
}

// The open pointwise kernel a pointwise node can join: its producers' in argument order.
int32_t Planner::pointwiseHost(NodeRef n) const {
  const SymIntList& sizes = resultMeta(node(n))->sizes;
  for (NodeRef r : refsOf(n)) {
    const int32_t s = stepOf_[r.index];
    if (s >= 0 && steps_[s].kind == KernelKind::Pointwise && mayJoin(s, n, sizes)) return s;
  }
  return -1;
}

// The kernel node n joins, or -1 when it starts one.
int32_t Planner::hostOf(FusionRole role, NodeRef n) const {
  const std::vector<NodeRef> refs = refsOf(n);
  const int32_t first = refs.empty() ? -1 : stepOf_[refs.front().index];
  switch (role) {
    case FusionRole::Getitem: return first;  // goes with the node it picks from, whatever that became
    case FusionRole::Pointwise: return pointwiseHost(n);
    case FusionRole::Reshape:
    case FusionRole::Reduction: {  // over its input's index
      const bool fits = first >= 0 && steps_[first].kind == KernelKind::Pointwise &&
                        mayJoin(first, n, resultMeta(node(refs.front()))->sizes);
      return fits ? first : -1;
    }
    case FusionRole::RowLocal:
    case FusionRole::Extern: return -1;
  }
  return -1;
}

KernelKind kindOf(FusionRole role) {
  switch (role) {
    case FusionRole::Pointwise: return KernelKind::Pointwise;
    case FusionRole::Reduction: return KernelKind::Reduction;
    case FusionRole::RowLocal: return KernelKind::RowLocal;
    default: return KernelKind::Extern;
  }
}

Status Planner::place(NodeRef n) {
  for (NodeRef r : refsOf(n))
    if (r.index < 0 || r.index >= n.index)
      return invalidInput("reads node #" + std::to_string(r.index) + " before it is made; run verify()", "%" + node(n).name);
  if (isFusionBarrier(node(n))) {
    for (int32_t s : open_) steps_[s].open = false;
    open_.clear();
  }
  const FusionRole role = fusionRoleOf(g_, node(n));
  const int32_t host = hostOf(role, n);
  if (host < 0) {
    start(n, kindOf(role), role == FusionRole::Pointwise);
    return {};
  }
  join(host, n);
  if (role == FusionRole::Reduction) {  // a reduction ends its kernel
    steps_[host].kind = KernelKind::Reduction;
    steps_[host].open = false;
  }
  return {};
}

// Kahn's algorithm over the steps, the earliest-started ready step first.
std::vector<int32_t> Planner::order() const {
  const size_t n = steps_.size();
  std::vector<std::vector<int32_t>> readers(n);
  std::vector<int32_t> waiting(n, 0);
  for (size_t s = 0; s < n; ++s) {
    std::vector<int32_t> deps = steps_[s].deps;
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    for (int32_t d : deps) readers[d].push_back(static_cast<int32_t>(s));
    waiting[s] = static_cast<int32_t>(deps.size());
  }
  std::priority_queue<int32_t, std::vector<int32_t>, std::greater<>> ready;
  for (size_t s = 0; s < n; ++s)
    if (waiting[s] == 0) ready.push(static_cast<int32_t>(s));
  std::vector<int32_t> out;
  while (!ready.empty()) {
    const int32_t s = ready.top();
    ready.pop();
    out.push_back(s);
    for (int32_t r : readers[s])
      if (--waiting[r] == 0) ready.push(r);
  }
  return out;  // all of them: joins never close a cycle
}


// The sizes a kernel iterates over: its last computing node's (getitems and folded reshapes only
// re-read what it made); for an extern step of a lone view, the view's.
SymIntList iterationSizes(const Graph& g, const std::vector<NodeRef>& nodes) {
  const TensorMeta* fallback = nullptr;
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    const FusionRole role = fusionRoleOf(g, g.node(*it));
    const TensorMeta* meta = resultMeta(g.node(*it));
    if (!fallback) fallback = meta;
    if (role != FusionRole::Getitem && role != FusionRole::Reshape && meta) return meta->sizes;
  }
  return fallback ? fallback->sizes : SymIntList{};
}

FusionPlan Planner::finish() const {
  const auto users = g_.users();
  FusionPlan plan;
  for (int32_t s : order()) {
    FusedKernel k;
    k.kind = steps_[s].kind;
    k.name = std::string(kernelKindName(k.kind)) + "_" + std::to_string(plan.kernels.size());
    k.nodes = steps_[s].nodes;
    for (NodeRef n : k.nodes) {
      for (NodeRef r : refsOf(n))
        if (stepOf_[r.index] != s && std::find(k.inputs.begin(), k.inputs.end(), r) == k.inputs.end())
          k.inputs.push_back(r);
      const auto& readers = users[n.index];
      if (std::any_of(readers.begin(), readers.end(), [&](int32_t u) { return stepOf_[u] != s; }))
        k.outputs.push_back(n);
    }
    k.sizes = iterationSizes(g_, k.nodes);
    plan.kernels.push_back(std::move(k));
  }
  return plan;
}

}  // namespace

std::string_view kernelKindName(KernelKind k) {
  switch (k) {
    case KernelKind::Pointwise: return "pointwise";
    case KernelKind::Reduction: return "reduction";
    case KernelKind::RowLocal: return "row-local";
    case KernelKind::Extern: return "extern";
  }
  return "?";
}

FusionSummary FusionPlan::summary() const {
  FusionSummary out;
  for (const FusedKernel& k : kernels) {
    ++out.kernels;
    const auto n = static_cast<int64_t>(k.nodes.size());
    switch (k.kind) {
      case KernelKind::Pointwise: ++out.pointwise, out.pointwiseOps += n; break;
      case KernelKind::Reduction: ++out.reduction, out.reductionOps += n; break;
      case KernelKind::RowLocal: ++out.rowLocal; break;
      case KernelKind::Extern: ++out.extern_; break;
    }
  }
  return out;
}

Result<FusionPlan> planFusion(const Graph& graph, FusionOptions options) {
  if (options.maxNodesPerKernel < 1)
    return invalidInput("the kernel size cap must be at least 1, not " + std::to_string(options.maxNodesPerKernel));
  Planner planner(graph, options);
  for (size_t i = 0; i < graph.size(); ++i)
    if (graph.nodes()[i].kind == NodeKind::Call) FATHOM_TRY(planner.place(NodeRef{static_cast<int32_t>(i)}));
  return planner.finish();
}

}  // namespace fathom
