#include "engine/aot/GraphExtract.h"

namespace fathom::aot {

namespace {

// `v` with every NodeRef replaced by fn(ref), inside lists too.
template <class Fn>
Value mapRefs(const Value& v, const Fn& fn) {
  if (auto* r = v.tryAs<NodeRef>()) return fn(*r);
  if (auto* l = v.tryAs<ValueList>()) {
    ValueList out;
    out.reserve(l->size());
    for (const auto& e : *l) out.push_back(mapRefs(e, fn));
    return out;
  }
  return v;
}

}  // namespace

Value fakeValueOf(const Graph& g, const Value& v) {
  return mapRefs(v, [&](NodeRef r) { return g.node(r).val; });
}

Value remapRefs(const Value& v, const std::vector<NodeRef>& map) {
  return mapRefs(v, [&](NodeRef r) { return Value(map[static_cast<size_t>(r.index)]); });
}

Result<Graph> extractGraph(const Graph& source, const std::vector<NodeRef>& inputs, const ValueList& outputs,
                           std::string_view what) {
  const size_t n = source.size();
  std::vector<char> isInput(n, 0), needed(n, 0);
  for (NodeRef r : inputs) isInput[static_cast<size_t>(r.index)] = 1;
  // Needed: reachable backwards from the outputs without passing through an input.
  std::vector<int32_t> stack;
  auto need = [&](NodeRef r) {
    if (!needed[static_cast<size_t>(r.index)]) {
      needed[static_cast<size_t>(r.index)] = 1;
      stack.push_back(r.index);
    }
  };
  for (const auto& v : outputs) forEachNodeRef(v, need);
  while (!stack.empty()) {
    const int32_t i = stack.back();
    stack.pop_back();
    if (isInput[static_cast<size_t>(i)]) continue;
    const Node& node = source.nodes()[static_cast<size_t>(i)];
    if (node.kind == NodeKind::Placeholder)
      return internalError("graph '" + std::string(what) + "' needs %" + node.name +
                           ", which is neither one of its inputs nor computable from them");
    forEachNodeRef(node, need);
  }
  Graph g;
  g.reserve(n);
  std::vector<NodeRef> map(n);
  for (NodeRef r : inputs) {
    const Node& src = source.node(r);
    Node p;
    p.name = src.name;
    p.kind = NodeKind::Placeholder;
    p.val = src.val;
    p.provenance = src.provenance;
    p.stage = src.stage;
    map[static_cast<size_t>(r.index)] = g.append(std::move(p));
  }
  for (size_t i = 0; i < n; ++i) {
    if (!needed[i] || isInput[i]) continue;
    const Node& src = source.nodes()[i];
    Node c = src;
    for (auto& a : c.args) a = remapRefs(a, map);
    for (auto& [k, a] : c.kwargs) a = remapRefs(a, map);
    map[i] = g.append(std::move(c));
  }
  Node out;
  out.name = g.uniqueName("output");
  out.kind = NodeKind::Output;
  ValueList results;
  for (const auto& v : outputs) results.push_back(remapRefs(v, map));
  out.args.push_back(Value(std::move(results)));
  g.append(std::move(out));
  return g;
}

}  // namespace fathom::aot
