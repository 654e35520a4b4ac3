#include "engine/aot/Functionalize.h"

#include <map>
#include <optional>

#include "engine/aot/GraphExtract.h"
#include "engine/ops/OpRegistry.h"

namespace fathom::aot {
namespace {

struct Rewrite {
  std::string functionalOp;
  std::vector<size_t> written;  // argument positions written in place
  bool returnsSelf = false;     // in-place op: its result is the new value of argument 0
};

bool isTrue(const Value& v) { return v.is<bool>() && v.as<bool>(); }

// The rewrite for a node, if it writes into an argument.
std::optional<Rewrite> rewriteFor(const Node& n) {
  if (n.kind != NodeKind::Call || !n.op) return std::nullopt;
  if (n.target == "aten.native_batch_norm.default") {
    // training=True with running stats given: they are updated in place.
    if (n.args.size() > 5 && isTrue(n.args[5]) && !n.args[3].isNone() && !n.args[4].isNone())
      return Rewrite{"aten._native_batch_norm_legit_functional.default", {3, 4}, false};
    return std::nullopt;
  }
  const FunctionSchema& s = n.op->schema;
  std::vector<size_t> written;
  for (size_t i = 0; i < s.args.size(); ++i)
    if (s.args[i].isMutated()) written.push_back(i);
  if (written.empty()) return std::nullopt;
  std::string base = s.name;
  if (!base.empty() && base.back() == '_') base.pop_back();
  return Rewrite{s.ns + "." + base + "." + (s.overload.empty() ? "default" : s.overload), written, true};
}

// Is `r` a view (its op's result aliases an argument without writing it)?
bool isView(const Graph& g, NodeRef r) {
  const Node& n = g.node(r);
  if (n.kind != NodeKind::Call || !n.op) return false;
  for (const auto& ret : n.op->schema.returns)
    if (!ret.alias.empty() && !ret.isMutated()) return true;
  return false;
}

// The arguments `n` writes, as nodes of `src`; an error when one is a view (its base would
// change too, which this pass does not follow).
Result<std::vector<NodeRef>> writtenNodes(const Graph& src, const Node& n, const Rewrite& rw) {
  std::vector<NodeRef> targets;
  for (size_t pos : rw.written) {
    const Value& a = pos < n.args.size() ? n.args[pos] : Value(None{});
    auto* r = a.tryAs<NodeRef>();
    if (!r) continue;
    if (isView(src, *r))
      return invalidInput("%" + n.name + " (" + n.target + ") writes into %" + src.node(*r).name +
                              ", a view of another tensor; mutating a view of a graph input cannot be "
                              "functionalized here",
                          "%" + n.name);
    targets.push_back(*r);
  }
  return targets;
}

}  // namespace

Status functionalize(JointGraph& joint) {
  const Graph& src = joint.graph;
  bool any = false;
  for (const Node& n : src.nodes()) any = any || rewriteFor(n).has_value();
  if (!any) return {};
  Graph g;
  g.reserve(src.size() + 8);
  std::vector<NodeRef> map(src.size());
  std::map<size_t, NodeRef> inputMutations;  // primal index -> its latest value
  for (size_t i = 0; i < src.size(); ++i) {
    const Node& n = src.nodes()[i];
    if (n.kind == NodeKind::Output) break;
    Node c = n;
    for (auto& a : c.args) a = remapRefs(a, map);
    for (auto& [k, a] : c.kwargs) a = remapRefs(a, map);
    auto rw = rewriteFor(n);
    if (!rw) {
      map[i] = g.append(std::move(c));
      continue;
    }
    auto written = writtenNodes(src, n, *rw);
    FATHOM_TRY(written);
    const std::vector<NodeRef>& targets = *written;
    const OpDef* functional = OpRegistry::global().find(rw->functionalOp);
    if (!functional)
      return invalidInput("in-place op " + n.target + " has no functional form (" + rw->functionalOp +
                              " is not registered), so the graph cannot be functionalized",
                          "%" + n.name);
    c.target = rw->functionalOp;
    c.op = functional;
    auto fake = callMeta(*functional, [&] {
      ValueList metas;
      auto bound = bindArguments(functional->schema, c.args, c.kwargs);
      if (!bound.ok()) return metas;
      for (const auto& a : *bound) metas.push_back(fakeValueOf(g, a));
      return metas;
    }());
    if (!fake.ok()) return fake.error().within("%" + n.name);
    c.val = fake->size() == 1 ? (*fake)[0] : Value(*fake);
    const NodeRef node = g.append(std::move(c));
    map[i] = node;
    // The new value of each written argument: the result itself (in-place op), or the extra
    // outputs after the op's own (the functional batch norm's 4th and 5th).
    for (size_t k = 0; k < targets.size(); ++k) {
      NodeRef value = node;
      if (!rw->returnsSelf) {
        const int64_t index = static_cast<int64_t>(fake->size() - targets.size() + k);
        Node item;
        item.name = g.uniqueName(n.name + "_updated");
        item.target = "getitem";
        item.op = OpRegistry::global().find("getitem");
        item.args = {Value(node), Value(index)};
        item.val = (*fake)[static_cast<size_t>(index)];
        item.provenance = n.provenance;
        item.stage = n.stage;
        value = g.append(std::move(item));
      }
      map[static_cast<size_t>(targets[k].index)] = value;
      if (static_cast<size_t>(targets[k].index) < joint.numPrimals)
        inputMutations[static_cast<size_t>(targets[k].index)] = value;
    }
  }
  ValueList outputs;
  for (const auto& [primal, value] : inputMutations) {
    outputs.push_back(value);
    joint.mutatedInputs.push_back(primal);
  }
  for (const auto& v : joint.outputs()) outputs.push_back(remapRefs(v, map));
  Node out;
  out.name = g.uniqueName("output");
  out.kind = NodeKind::Output;
  out.args = {Value(std::move(outputs))};
  g.append(std::move(out));
  joint.graph = std::move(g);
  return {};
}

}  // namespace fathom::aot
