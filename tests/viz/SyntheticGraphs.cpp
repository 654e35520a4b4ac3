// Synthetic graphs for the viz tests and benchmarks (SyntheticGraphs.h).
#include "tests/viz/SyntheticGraphs.h"

#include <random>
#include <string>
#include <vector>

namespace fathom::viz::testing {

LayoutGraph nnLikeDag(int32_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  LayoutGraph g;
  g.nodes.resize(static_cast<size_t>(n));
  for (auto& node : g.nodes) node.width = 60 + static_cast<double>(rng() % 5) * 20;
  for (int32_t i = 1; i < n; ++i) {
    const int32_t inputs = 1 + static_cast<int32_t>(rng() % 3);
    for (int32_t k = 0; k < inputs && k < i; ++k) {
      const int32_t back = 1 + static_cast<int32_t>(rng() % static_cast<uint64_t>(std::min(i, 8)));
      g.edges.push_back({i - back, i, 1});
    }
  }
  return g;
}

namespace {

NodeRef addNode(Graph& g, const std::string& name, NodeKind kind, const std::string& target, std::vector<int32_t> inputs,
                const std::string& module) {
  Node n;
  n.name = name;
  n.kind = kind;
  n.target = target;
  for (int32_t i : inputs) n.args.push_back(Value(NodeRef{i}));
  n.provenance.module = module;
  TensorMeta m;
  m.sizes = {8, 256};
  m.strides = {256, 1};
  n.val = Value(m);
  return g.append(std::move(n));
}

}  // namespace

Graph repeatedBlockGraph(int32_t blocks, int32_t blockSize, bool modules, uint64_t seed) {
  // One block's op pattern (fixed for the graph): each step reads the previous value and maybe
  // one or two earlier values of the block; the last step adds the residual.
  std::mt19937_64 rng(seed);
  static const char* kOps[] = {"aten.addmm.default", "aten.view.default", "aten.permute.default", "aten.bmm.default",
                               "aten.div.Tensor",    "aten._softmax.default", "aten.add.Tensor", "aten.gelu.default",
                               "aten.native_layer_norm.default", "aten.t.default", "aten.clone.default"};
  struct Step {
    int32_t op;
    std::vector<int32_t> back;  // how far back within the block
    bool usesParam;
  };
  std::vector<Step> pattern;
  for (int32_t s = 0; s < blockSize; ++s) {
    Step st{static_cast<int32_t>(rng() % std::size(kOps)), {1}, rng() % 4 == 0};
    if (s > 3 && rng() % 3 == 0) st.back.push_back(2 + static_cast<int32_t>(rng() % static_cast<uint64_t>(std::min(s, 6) - 1)));
    pattern.push_back(st);
  }
  Graph g;
  g.reserve(static_cast<size_t>(blocks) * static_cast<size_t>(blockSize) * 5 / 4 + 8);
  std::vector<std::vector<int32_t>> params(static_cast<size_t>(blocks));
  for (int32_t b = 0; b < blocks; ++b)
    for (int32_t s = 0; s < blockSize; ++s)
      if (pattern[static_cast<size_t>(s)].usesParam)
        params[static_cast<size_t>(b)].push_back(
            addNode(g, "layers." + std::to_string(b) + ".w" + std::to_string(s), NodeKind::Placeholder, "", {}, "").index);
  const int32_t mask = addNode(g, "mask", NodeKind::Placeholder, "", {}, "").index;
  int32_t stream = addNode(g, "x", NodeKind::Placeholder, "", {}, "").index;
  for (int32_t b = 0; b < blocks; ++b) {
    std::vector<int32_t> made;
    size_t param = 0;
    for (int32_t s = 0; s < blockSize; ++s) {
      const Step& st = pattern[static_cast<size_t>(s)];
      std::vector<int32_t> in;
      for (int32_t back : st.back) {
        const int32_t at = s - back;
        in.push_back(at >= 0 ? made[static_cast<size_t>(at)] : stream);
      }
      if (st.usesParam) in.push_back(params[static_cast<size_t>(b)][param++]);
      if (s == blockSize / 2) in.push_back(mask);
      if (s == blockSize - 1) in.push_back(stream);
      const std::string module = modules ? "layers." + std::to_string(b) + (s < blockSize / 2 ? ".attention" : ".mlp") : "";
      const std::string op = kOps[st.op];
      made.push_back(addNode(g, g.uniqueName(op.substr(5, op.find('.', 5) - 5)), NodeKind::Call, op, in, module).index);
    }
    stream = made.back();
  }
  Node out;
  out.name = "output";
  out.kind = NodeKind::Output;
  out.args.push_back(Value(ValueList{Value(NodeRef{stream})}));
  g.append(std::move(out));
  return g;
}

}  // namespace fathom::viz::testing
