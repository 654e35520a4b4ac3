#include "engine/graph/GraphDiff.h"

#include <cstdlib>
#include <functional>
#include <unordered_map>

#include "engine/graph/GraphPrinter.h"

namespace fathom {
namespace {

using NameOfRef = std::function<std::string(NodeRef)>;

// "(%x, 2, alpha=1)" with inputs named by `name`.
std::string argsText(const Node& n, const NameOfRef& name) {
  std::string out = "(";
  for (size_t i = 0; i < n.args.size(); ++i) out += (i ? ", " : "") + diffValueText(n.args[i], name);
  for (const auto& [k, v] : n.kwargs) out += (out.size() > 1 ? ", " : "") + k + "=" + diffValueText(v, name);
  return out + ")";
}

std::string metaText(const Value& v) { return v.isNone() ? "none" : formatValue(v); }

// The guards each node raised, as text, by node name.
using GuardsByNode = std::unordered_map<std::string, std::vector<std::string>>;
GuardsByNode guardsByNode(const sym::ShapeEnv* env) {
  GuardsByNode out;
  if (!env) return out;
  for (const auto& g : env->guards()) out[g.where.node].push_back(g.expr.str());
  return out;
}

std::string listText(const std::vector<std::string>& list) {
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + list[i];
  return out + "]";
}

class Matcher {
 public:
  Matcher(const Graph& a, const Graph& b, GuardsByNode guardsA, GuardsByNode guardsB)
      : a_(a), b_(b), bToA_(b.size(), -1), aToB_(a.size(), -1), guardsA_(std::move(guardsA)), guardsB_(std::move(guardsB)) {}

  void run() {
    for (size_t i = 0; i < b_.size(); ++i)
      if (auto r = a_.find(b_.nodes()[i].name)) link(r->index, static_cast<int32_t>(i));
    matchInputsOfMatched(false);
    matchByKey();
    matchInputsOfMatched(true);
  }

  // A matched pair's inputs match each other, argument by argument, when neither has a match yet
  // and both are the same kind of node with the same op: the placeholder PyTorch's export calls
  // %primals_1 is the one Fathom's trace calls %conv1.weight when both are the weight of the
  // matched %convolution (matching placeholders by position instead pairs them wrongly as soon
  // as one side has an extra input, such as PyTorch's num_batches_tracked buffers). Inputs come
  // before their users, so one sweep from the end carries the matches up the graph. The output's
  // arguments only last (`withOutput`): the order of what a graph returns is the tool's choice (an
  // AOT forward returns its saved values in its partitioner's order), an op's arguments are not.
  void matchInputsOfMatched(bool withOutput) {
    for (size_t i = a_.size(); i-- > 0;) {
      const int32_t j = aToB_[i];
      if (j < 0 || (!withOutput && a_.nodes()[i].kind == NodeKind::Output)) continue;
      const Node& na = a_.nodes()[i];
      const Node& nb = b_.nodes()[static_cast<size_t>(j)];
      for (size_t k = 0; k < na.args.size() && k < nb.args.size(); ++k) pairInputs(na.args[k], nb.args[k]);
      for (const auto& [key, va] : na.kwargs)
        for (const auto& [keyB, vb] : nb.kwargs)
          if (key == keyB) pairInputs(va, vb);
    }
  }

  void pairInputs(const Value& va, const Value& vb) {
    const auto* ra = va.tryAs<NodeRef>();
    const auto* rb = vb.tryAs<NodeRef>();
    if (ra && rb) {
      const auto ia = static_cast<size_t>(ra->index), ib = static_cast<size_t>(rb->index);
      const Node& na = a_.nodes()[ia];
      const Node& nb = b_.nodes()[ib];
      if (aToB_[ia] < 0 && bToA_[ib] < 0 && na.kind == nb.kind && na.target == nb.target) link(ra->index, rb->index);
      return;
    }
    const auto* la = va.tryAs<ValueList>();
    const auto* lb = vb.tryAs<ValueList>();
    if (la && lb)
      for (size_t k = 0; k < la->size() && k < lb->size(); ++k) pairInputs((*la)[k], (*lb)[k]);
  }

  // What is left, in B's order: the same op on the same (matched) inputs, nearest position.
  void matchByKey() {
    std::unordered_map<std::string, std::vector<int32_t>> unmatchedA;
    for (size_t i = 0; i < a_.size(); ++i)
      if (aToB_[i] < 0) unmatchedA[key(a_.nodes()[i], [&](NodeRef r) { return "%" + a_.node(r).name; })].push_back(static_cast<int32_t>(i));
    for (size_t i = 0; i < b_.size(); ++i) {
      if (bToA_[i] >= 0) continue;
      auto it = unmatchedA.find(key(b_.nodes()[i], [&](NodeRef r) { return nameInA(r); }));
      if (it == unmatchedA.end() || it->second.empty()) continue;
      auto& candidates = it->second;
      size_t best = 0;
      for (size_t c = 1; c < candidates.size(); ++c)
        if (std::abs(candidates[c] - static_cast<int32_t>(i)) < std::abs(candidates[best] - static_cast<int32_t>(i))) best = c;
      link(candidates[best], static_cast<int32_t>(i));
      candidates.erase(candidates.begin() + static_cast<std::ptrdiff_t>(best));
    }
  }

  // B's input as A names it: its match, or a name marked as B's own.
  std::string nameInA(NodeRef r) const {
    const int32_t a = bToA_[static_cast<size_t>(r.index)];
    return a >= 0 ? "%" + a_.nodes()[static_cast<size_t>(a)].name : "%" + b_.node(r).name + "'";
  }

  GraphDiff diff() const {
    GraphDiff d;
    for (size_t i = 0; i < a_.size(); ++i) {
      const Node& na = a_.nodes()[i];
      NodeDiff nd{.state = NodeDiffState::Same, .a = na.name, .b = "", .changes = {}, .ia = static_cast<int32_t>(i), .ib = -1};
      if (aToB_[i] < 0) {
        nd.state = NodeDiffState::Removed;
        ++d.summary.removed;
      } else {
        const Node& nb = b_.nodes()[static_cast<size_t>(aToB_[i])];
        nd.b = nb.name;
        nd.ib = aToB_[i];
        compare(na, nb, &nd.changes);
        nd.state = nd.changes.empty() ? NodeDiffState::Same : NodeDiffState::Changed;
        ++(nd.changes.empty() ? d.summary.same : d.summary.changed);
      }
      d.nodes.push_back(std::move(nd));
    }
    for (size_t i = 0; i < b_.size(); ++i)
      if (bToA_[i] < 0) {
        d.nodes.push_back({.state = NodeDiffState::Added, .a = "", .b = b_.nodes()[i].name, .changes = {}, .ia = -1, .ib = static_cast<int32_t>(i)});
        ++d.summary.added;
      }
    return d;
  }

 private:
  static std::string key(const Node& n, const NameOfRef& name) {
    return std::string(nodeKindName(n.kind)) + " " + n.target + argsText(n, name);
  }

  void link(int32_t a, int32_t b) {
    aToB_[static_cast<size_t>(a)] = b;
    bToA_[static_cast<size_t>(b)] = a;
  }

  void compare(const Node& na, const Node& nb, std::vector<std::string>* changes) const {
    if (na.kind != nb.kind) changes->push_back("kind: " + std::string(nodeKindName(na.kind)) + " -> " + std::string(nodeKindName(nb.kind)));
    if (na.target != nb.target) changes->push_back("op: " + na.target + " -> " + nb.target);
    const std::string argsA = argsText(na, [&](NodeRef r) { return "%" + a_.node(r).name; });
    const std::string argsB = argsText(nb, [&](NodeRef r) { return nameInA(r); });
    if (argsA != argsB) changes->push_back("args: " + argsA + " -> " + argsB);
    const std::string metaA = metaText(na.val), metaB = metaText(nb.val);
    if (metaA != metaB) changes->push_back("meta: " + metaA + " -> " + metaB);
    if (na.stage != nb.stage) changes->push_back("stage: " + na.stage + " -> " + nb.stage);
    const auto none = std::vector<std::string>{};
    const auto ga = guardsA_.count(na.name) ? guardsA_.at(na.name) : none;
    const auto gb = guardsB_.count(nb.name) ? guardsB_.at(nb.name) : none;
    if (ga != gb) changes->push_back("guards: " + listText(ga) + " -> " + listText(gb));
  }

  const Graph& a_;
  const Graph& b_;
  std::vector<int32_t> bToA_, aToB_;
  GuardsByNode guardsA_, guardsB_;
};

}  // namespace

std::string diffValueText(const Value& v, const std::function<std::string(NodeRef)>& name) {
  if (const auto* r = v.tryAs<NodeRef>()) return name(*r);
  if (const auto* l = v.tryAs<ValueList>()) {
    std::string out = "[";
    for (size_t i = 0; i < l->size(); ++i) out += (i ? ", " : "") + diffValueText((*l)[i], name);
    return out + "]";
  }
  return formatValue(v);
}

std::string_view nodeDiffStateName(NodeDiffState s) {
  switch (s) {
    case NodeDiffState::Same: return "same";
    case NodeDiffState::Changed: return "changed";
    case NodeDiffState::Added: return "added";
    case NodeDiffState::Removed: return "removed";
  }
  return "?";
}

GraphDiff diffGraphs(const Graph& a, const Graph& b, const sym::ShapeEnv* envA, const sym::ShapeEnv* envB) {
  Matcher m(a, b, guardsByNode(envA), guardsByNode(envB));
  m.run();
  return m.diff();
}

}  // namespace fathom
