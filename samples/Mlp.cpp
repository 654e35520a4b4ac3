// The MLP sample: what PyTorch's make_fx records for nn.Sequential(Linear, ReLU, Linear, ReLU,
// Linear) - a transposed weight feeding addmm, per layer - so it matches real exported graphs.
#include <cmath>

#include "engine/graph/GraphBuilder.h"
#include "engine/interp/ExampleInputs.h"
#include "samples/Samples.h"

namespace fathom::samples {
namespace {

// y = x @ w.t() + b, recorded like PyTorch's aten decomposition of nn.Linear.
NodeRef linear(GraphBuilder& b, NodeRef x, NodeRef w, NodeRef bias) {
  NodeRef wt = b.call("aten.t.default", {w});
  return b.call("aten.addmm.default", {bias, x, wt});
}

}  // namespace

Result<Dump> buildMlp() {
  const int64_t batch = 32;
  const std::vector<int64_t> widths = {784, 256, 128, 10};
  GraphBuilder b;
  b.setStage("forward");
  std::vector<NodeRef> weights, biases;
  for (size_t i = 0; i + 1 < widths.size(); ++i) {
    auto scope = b.module("layers." + std::to_string(2 * i));
    weights.push_back(b.input("w" + std::to_string(i), fakeTensor(DType::Float32, {widths[i + 1], widths[i]})));
    biases.push_back(b.input("b" + std::to_string(i), fakeTensor(DType::Float32, {widths[i + 1]})));
  }
  NodeRef h = b.input("x", fakeTensor(DType::Float32, {batch, widths[0]}));
  for (size_t i = 0; i < weights.size(); ++i) {
    auto scope = b.module("layers." + std::to_string(2 * i));
    h = linear(b, h, weights[i], biases[i]);
    if (i + 1 < weights.size()) {
      auto act = b.module("layers." + std::to_string(2 * i + 1));  // the ReLU is its own module
      h = b.call("aten.relu.default", {h});
    }
  }
  b.output({h});
  auto graph = b.finish();
  FATHOM_TRY(graph);

  Dump dump;
  dump.producer = {{"tool", "fathom"}, {"version", FATHOM_VERSION}, {"sample", "mlp"}};
  auto inputs = inputsFromPlaceholders(*graph, /*seed=*/1);
  FATHOM_TRY(inputs);
  // Parameters drawn as nn.Linear initializes them, U(-1/sqrt(fan_in), 1/sqrt(fan_in)), so
  // activations stay in a realistic range; the batch x stays N(0, 1).
  for (size_t i = 0; i + 1 < widths.size(); ++i) {
    const double bound = 1.0 / std::sqrt(static_cast<double>(widths[i]));
    (*inputs)[2 * i].range = (*inputs)[2 * i + 1].range = std::pair{-bound, bound};
  }
  dump.graphs.push_back({"forward", std::move(*graph)});
  dump.inputs.emplace_back("forward", std::move(*inputs));
  return dump;
}

}  // namespace fathom::samples
