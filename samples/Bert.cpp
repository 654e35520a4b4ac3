// The BERT encoder layer sample: what PyTorch 1.13's make_fx records for one HuggingFace-style
// BertLayer in eval mode (self-attention, output projection + residual + LayerNorm, GELU
// feed-forward + residual + LayerNorm), with the attention mask turned into an additive bias in
// the graph. Matmuls of 4-d tensors appear as make_fx decomposes them (expand, clone to
// contiguous, _unsafe_view, bmm); nn.Linear as t + addmm over a [batch*seq, hidden] view.
#include <cmath>

#include "engine/graph/GraphBuilder.h"
#include "engine/interp/ExampleInputs.h"
#include "samples/Samples.h"

namespace fathom::samples {
namespace {

// An int[] argument.
Value ints(const IntList& v) {
  ValueList out;
  for (int64_t x : v) out.push_back(x);
  return out;
}

class BertBuilder {
 public:
  BertBuilder(GraphBuilder& b, const BertConfig& c) : b_(b), c_(c) {}

  // nn.Linear on [batch, seq, in] -> [batch, seq, out].
  NodeRef linear(NodeRef x, NodeRef w, NodeRef bias, int64_t in, int64_t out) {
    NodeRef flat = b_.call("aten.view.default", {x, ints({c_.batch * c_.seq, in})});
    NodeRef wt = b_.call("aten.t.default", {w});
    NodeRef y = b_.call("aten.addmm.default", {bias, flat, wt});
    return b_.call("aten.view.default", {y, ints({c_.batch, c_.seq, out})});
  }

  // [batch, seq, hidden] -> [batch, heads, seq, head_dim] (a permuted view).
  NodeRef splitHeads(NodeRef x) {
    NodeRef v = b_.call("aten.view.default", {x, ints({c_.batch, c_.seq, c_.heads, headDim()})});
    return b_.call("aten.permute.default", {v, ints({0, 2, 1, 3})});
  }

  // torch.matmul of two 4-d tensors [B, H, n, k] @ [B, H, k, m], as make_fx records it.
  NodeRef matmul4d(NodeRef a, IntList aSizes, NodeRef b, IntList bSizes) {
    const int64_t batches = aSizes[0] * aSizes[1];
    NodeRef a3 = flattenBatch(a, aSizes, batches);
    NodeRef b3 = flattenBatch(b, bSizes, batches);
    NodeRef y = b_.call("aten.bmm.default", {a3, b3});
    return b_.call("aten._unsafe_view.default", {y, ints({aSizes[0], aSizes[1], aSizes[2], bSizes[3]})});
  }

  int64_t headDim() const { return c_.hidden / c_.heads; }

 private:
  NodeRef flattenBatch(NodeRef x, const IntList& sizes, int64_t batches) {
    NodeRef e = b_.call("aten.expand.default", {x, ints(sizes)});
    NodeRef c = b_.call("aten.clone.default", {e}, {{"memory_format", MemoryFormat::Contiguous}});
    return b_.call("aten._unsafe_view.default", {c, ints({batches, sizes[2], sizes[3]})});
  }

  GraphBuilder& b_;
  const BertConfig& c_;
};

struct LinearParams {
  NodeRef weight, bias;
  int64_t in, out;
};

LinearParams linearParams(GraphBuilder& b, const std::string& name, int64_t in, int64_t out) {
  auto scope = b.module(name);
  return {b.input(name + ".weight", fakeTensor(DType::Float32, {out, in})),
          b.input(name + ".bias", fakeTensor(DType::Float32, {out})), in, out};
}

}  // namespace

BertConfig BertConfig::sample() { return {2, 16, 768, 12, 3072}; }
BertConfig BertConfig::benchmark() { return {8, 128, 768, 12, 3072}; }
// Long: the layer's forward written out op by op, as HuggingFace's BertLayer reads top to bottom.
Result<Dump> buildBertLayer(const BertConfig& c) {
  if (c.heads <= 0 || c.hidden % c.heads != 0) return invalidInput("BERT hidden size must divide into the heads");
  GraphBuilder b;
  b.setStage("forward");
  BertBuilder bert(b, c);
  const LinearParams q = linearParams(b, "attention.self.query", c.hidden, c.hidden);
  const LinearParams k = linearParams(b, "attention.self.key", c.hidden, c.hidden);
  const LinearParams v = linearParams(b, "attention.self.value", c.hidden, c.hidden);
  const LinearParams o = linearParams(b, "attention.output.dense", c.hidden, c.hidden);
  NodeRef ln1w = b.input("attention.output.LayerNorm.weight", fakeTensor(DType::Float32, {c.hidden}));
  NodeRef ln1b = b.input("attention.output.LayerNorm.bias", fakeTensor(DType::Float32, {c.hidden}));
  const LinearParams ff1 = linearParams(b, "intermediate.dense", c.hidden, c.intermediate);
  const LinearParams ff2 = linearParams(b, "output.dense", c.intermediate, c.hidden);
  NodeRef ln2w = b.input("output.LayerNorm.weight", fakeTensor(DType::Float32, {c.hidden}));
  NodeRef ln2b = b.input("output.LayerNorm.bias", fakeTensor(DType::Float32, {c.hidden}));
  NodeRef x = b.input("hidden_states", fakeTensor(DType::Float32, {c.batch, c.seq, c.hidden}));
  NodeRef mask = b.input("attention_mask", fakeTensor(DType::Int64, {c.batch, c.seq}));

  // (1.0 - mask[:, None, None, :].float()) * -10000.0: 0 where attended, -10000 where masked.
  NodeRef bias;
  {
    auto scope = b.module("get_extended_attention_mask");
    NodeRef m = b.call("aten.unsqueeze.default", {mask, int64_t{1}});
    m = b.call("aten.unsqueeze.default", {m, int64_t{2}});
    m = b.call("aten._to_copy.default", {m}, {{"dtype", DType::Float32}});
    m = b.call("aten.rsub.Scalar", {m, 1.0});
    bias = b.call("aten.mul.Scalar", {m, -10000.0});
  }
  const IntList heads4{c.batch, c.heads, c.seq, bert.headDim()};
  NodeRef context;
  {
    auto scope = b.module("attention.self");
    NodeRef qh = bert.splitHeads(bert.linear(x, q.weight, q.bias, c.hidden, c.hidden));
    NodeRef kh = bert.splitHeads(bert.linear(x, k.weight, k.bias, c.hidden, c.hidden));
    NodeRef vh = bert.splitHeads(bert.linear(x, v.weight, v.bias, c.hidden, c.hidden));
    NodeRef kt = b.call("aten.transpose.int", {kh, int64_t{-1}, int64_t{-2}});
    NodeRef scores = bert.matmul4d(qh, heads4, kt, {c.batch, c.heads, bert.headDim(), c.seq});
    scores = b.call("aten.div.Scalar", {scores, std::sqrt(static_cast<double>(bert.headDim()))});
    scores = b.call("aten.add.Tensor", {scores, bias});
    NodeRef probs = b.call("aten._softmax.default", {scores, int64_t{-1}, false});
    NodeRef ctx = bert.matmul4d(probs, {c.batch, c.heads, c.seq, c.seq}, vh, heads4);
    ctx = b.call("aten.permute.default", {ctx, ints({0, 2, 1, 3})});
    ctx = b.call("aten.clone.default", {ctx}, {{"memory_format", MemoryFormat::Contiguous}});
    context = b.call("aten.view.default", {ctx, ints({c.batch, c.seq, c.hidden})});
  }
  NodeRef attn;
  {
    auto scope = b.module("attention.output");
    NodeRef y = bert.linear(context, o.weight, o.bias, c.hidden, c.hidden);
    y = b.call("aten.add.Tensor", {y, x});
    NodeRef ln = b.call("aten.native_layer_norm.default", {y, ints({c.hidden}), ln1w, ln1b, 1e-12});
    attn = b.getitem(ln, 0);
  }
  NodeRef out;
  {
    auto scope = b.module("intermediate");
    NodeRef h = bert.linear(attn, ff1.weight, ff1.bias, c.hidden, c.intermediate);
    h = b.call("aten.gelu.default", {h});
    auto outScope = b.module("output");
    NodeRef y = bert.linear(h, ff2.weight, ff2.bias, c.intermediate, c.hidden);
    y = b.call("aten.add.Tensor", {y, attn});
    NodeRef ln = b.call("aten.native_layer_norm.default", {y, ints({c.hidden}), ln2w, ln2b, 1e-12});
    out = b.getitem(ln, 0);
  }
  b.output({out});
  auto graph = b.finish();
  FATHOM_TRY(graph);

  Dump dump;
  dump.producer = {{"tool", "fathom"}, {"version", FATHOM_VERSION}, {"sample", "bert"}};
  auto inputs = inputsFromPlaceholders(*graph, /*seed=*/1);
  FATHOM_TRY(inputs);
  // Parameters as BertLayer initializes them (nn.Linear: U(+-1/sqrt(fan_in)); LayerNorm near
  // (1, 0)); hidden states N(0, 1); the mask 0/1.
  int64_t fanIn = 0;  // of the last Linear weight; its bias follows it
  for (ExampleInput& in : *inputs) {
    if (in.name.ends_with("LayerNorm.weight")) {
      in.range = std::pair{0.9, 1.1};
    } else if (in.name.ends_with("LayerNorm.bias")) {
      in.range = std::pair{-0.1, 0.1};
    } else if (in.name == "attention_mask") {
      in.range = std::pair{0.0, 2.0};
    } else if (in.name != "hidden_states") {
      if (in.name.ends_with(".weight")) fanIn = in.meta.sizes[1].hint();
      const double bound = 1.0 / std::sqrt(static_cast<double>(fanIn));
      in.range = std::pair{-bound, bound};
    }
  }
  dump.graphs.push_back({"forward", std::move(*graph)});
  dump.inputs.emplace_back("forward", std::move(*inputs));
  return dump;
}

Result<Dump> buildBert() { return buildBertLayer(BertConfig::sample()); }

}  // namespace fathom::samples
