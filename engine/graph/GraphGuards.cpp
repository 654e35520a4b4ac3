#include "engine/graph/GraphGuards.h"

#include "engine/core/Error.h"

namespace fathom {

Result<std::vector<sym::GuardedInput>> guardedInputsOf(const Graph& graph) {
  std::vector<sym::GuardedInput> inputs;
  for (NodeRef r : graph.placeholders()) {
    const Node& n = graph.node(r);
    const auto* meta = n.val.tryAs<TensorMeta>();
    if (!meta) return invalidInput("placeholder %" + n.name + " has no recorded tensor meta to guard");
    inputs.push_back({n.name, meta->sizes});
  }
  return inputs;
}

Result<sym::GuardSet> guardSetOf(const Graph& graph, const sym::ShapeEnv& env) {
  auto inputs = guardedInputsOf(graph);
  FATHOM_TRY(inputs);
  return sym::GuardSet::compile(env, *inputs);
}

std::vector<std::vector<int64_t>> inputSizes(const std::vector<ExampleInput>& inputs) {
  std::vector<std::vector<int64_t>> out;
  out.reserve(inputs.size());
  for (const auto& in : inputs) {
    std::vector<int64_t> sizes;
    for (const auto& s : in.meta.sizes) sizes.push_back(s.hint());
    out.push_back(std::move(sizes));
  }
  return out;
}

}  // namespace fathom
