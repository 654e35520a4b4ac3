// GPT-2 small as HuggingFace transformers' GPT2Model (4.24, the PyTorch 1.13 era) writes it:
// token + position embeddings, decoder blocks (LayerNorm, causal self-attention with fused
// c_attn, residual; LayerNorm, gelu_new MLP, residual), final LayerNorm. Weights of GPT-2's
// Conv1D are [in, out] and feed addmm without a transpose.
//
// One difference from HuggingFace: the causal mask is computed in the graph (ones, tril, view)
// instead of sliced from a [1, 1, 1024, 1024] buffer, whose values a dump would have to carry
// inline (a buffer's values cannot be drawn from a seed).
#include <cmath>
#include <limits>

#include "engine/frontend/Layers.h"
#include "samples/models/Models.h"

namespace fathom::models {
namespace {

using namespace fathom::frontend;
using frontend::Tensor;  // not fathom::Tensor: model code handles frontend tensors

struct Gpt2Config {
  int64_t layers, batch, seq, vocab;  // GPT-2's vocabulary: 50257
  int64_t hidden = 768, heads = 12, maxPositions = 1024;
  double eps = 1e-5, dropout = 0.1;
  int64_t headDim() const { return hidden / heads; }
};

// GPT-2's Conv1D: a linear layer with a [in, out] weight.
class Conv1D : public Module {
 public:
  Conv1D(int64_t out, int64_t in)
      : out_(out), weight_(addParameter("weight", {in, out}, Init::uniform(-0.035, 0.035))),
        bias_(addParameter("bias", {out}, Init::uniform(-0.02, 0.02))) {}

  Tensor forward(const Tensor& x) {
    auto scope = enter();
    SymValues sizeOut = x.sizes();
    sizeOut.back() = out_;
    const Tensor y = addmm(bias_.tensor(), view(x, {-1, x.size(-1)}), weight_.tensor());
    return view(y, sizeOut);
  }

 private:
  int64_t out_;
  Parameter& weight_;
  Parameter& bias_;
};

class Gpt2Attention : public Module {
 public:
  explicit Gpt2Attention(const Gpt2Config& c)
      : c_(c), cAttn_(addModule<Conv1D>("c_attn", 3 * c.hidden, c.hidden)),
        cProj_(addModule<Conv1D>("c_proj", c.hidden, c.hidden)),
        attnDropout_(addModule<Dropout>("attn_dropout", c.dropout)),
        residDropout_(addModule<Dropout>("resid_dropout", c.dropout)) {}

  Tensor forward(const Tensor& hidden) {
    auto scope = enter();
    const std::vector<Tensor> qkv = split(cAttn_.forward(hidden), c_.hidden, 2);
    const Tensor query = splitHeads(qkv[0]), key = splitHeads(qkv[1]), value = splitHeads(qkv[2]);
    Tensor out = mergeHeads(attend(query, key, value));
    out = cProj_.forward(out);
    return residDropout_.forward(out);
  }

 private:
  Tensor attend(const Tensor& query, const Tensor& key, const Tensor& value) {
    Tensor weights = matmul(query, transpose(key, -1, -2));
    weights = div(weights, full({}, std::sqrt(static_cast<double>(value.size(-1).hint())), DType::Float32));
    const SymValue queryLength = query.size(-2), keyLength = key.size(-2);
    const Tensor causal = view(tril(ones({queryLength, keyLength}, DType::Bool)), {1, 1, queryLength, keyLength});
    const Tensor maskValue = full({}, static_cast<double>(std::numeric_limits<float>::lowest()), DType::Float32);
    weights = where(causal, weights, maskValue);
    weights = softmax(weights, -1);
    weights = attnDropout_.forward(weights);
    return matmul(weights, value);
  }

  // [batch, seq, hidden] -> [batch, heads, seq, head_dim].
  Tensor splitHeads(const Tensor& x) {
    return permute(view(x, {x.size(0), x.size(1), c_.heads, c_.headDim()}), {0, 2, 1, 3});
  }

  Tensor mergeHeads(const Tensor& x) {
    const Tensor merged = contiguous(permute(x, {0, 2, 1, 3}));
    return view(merged, {merged.size(0), merged.size(1), c_.heads * c_.headDim()});
  }

  const Gpt2Config& c_;
  Conv1D& cAttn_;
  Conv1D& cProj_;
  Dropout& attnDropout_;
  Dropout& residDropout_;
};

// gelu_new: the tanh approximation, written out as HuggingFace's NewGELUActivation does.
class NewGELU : public Module {
 public:
  Tensor forward(const Tensor& x) {
    auto scope = enter();
    const Tensor half = mul(x, 0.5);
    const Tensor cube = mul(pow(x, 3.0), 0.044715);
    const Tensor inner = mul(add(x, cube), std::sqrt(2.0 / M_PI));
    return mul(half, add(tanh(inner), 1.0));
  }
};

class Gpt2Mlp : public Module {
 public:
  explicit Gpt2Mlp(const Gpt2Config& c)
      : cFc_(addModule<Conv1D>("c_fc", 4 * c.hidden, c.hidden)),
        cProj_(addModule<Conv1D>("c_proj", c.hidden, 4 * c.hidden)),
        act_(addModule<NewGELU>("act")), dropout_(addModule<Dropout>("dropout", c.dropout)) {}

  Tensor forward(const Tensor& hidden) {
    auto scope = enter();
    Tensor h = cFc_.forward(hidden);
    h = act_.forward(h);
    h = cProj_.forward(h);
    return dropout_.forward(h);
  }

 private:
  Conv1D& cFc_;
  Conv1D& cProj_;
  NewGELU& act_;
  Dropout& dropout_;
};

class Gpt2Block : public Module {
 public:
  explicit Gpt2Block(const Gpt2Config& c)
      : ln1_(addModule<LayerNorm>("ln_1", c.hidden, c.eps)), attn_(addModule<Gpt2Attention>("attn", c)),
        ln2_(addModule<LayerNorm>("ln_2", c.hidden, c.eps)), mlp_(addModule<Gpt2Mlp>("mlp", c)) {}

  Tensor forward(const Tensor& hidden) {
    auto scope = enter();
    Tensor h = add(attn_.forward(ln1_.forward(hidden)), hidden);
    return add(h, mlp_.forward(ln2_.forward(h)));
  }

 private:
  LayerNorm& ln1_;
  Gpt2Attention& attn_;
  LayerNorm& ln2_;
  Gpt2Mlp& mlp_;
};

class Gpt2Model : public Model {
 public:
  explicit Gpt2Model(const Gpt2Config& c)
      : c_(c), wte_(addModule<Embedding>("wte", c.vocab, c.hidden)),
        wpe_(addModule<Embedding>("wpe", c.maxPositions, c.hidden)), drop_(addModule<Dropout>("drop", c.dropout)) {
    for (int64_t i = 0; i < c_.layers; ++i) blocks_.push_back(&addModule<Gpt2Block>("h." + std::to_string(i), c_));
    lnF_ = &addModule<LayerNorm>("ln_f", c_.hidden, c_.eps);
  }

  std::vector<ExampleInput> inputSpecs() const override {
    return {inputSpec("input_ids", DType::Int64, {c_.batch, c_.seq}, std::pair{0.0, static_cast<double>(c_.vocab)})};
  }

  // -> {last_hidden_state [batch, seq, hidden]}
  std::vector<Tensor> forward(const std::vector<Tensor>& inputs) override {
    const SymValues inputShape = inputs.at(0).sizes();
    const Tensor inputIds = view(inputs.at(0), {-1, inputShape.back()});
    Tensor positionIds = arange(0, inputShape.back(), DType::Int64);
    positionIds = view(unsqueeze(positionIds, 0), {-1, inputShape.back()});
    const Tensor inputsEmbeds = wte_.forward(inputIds);
    const Tensor positionEmbeds = wpe_.forward(positionIds);
    Tensor hidden = add(inputsEmbeds, positionEmbeds);
    hidden = drop_.forward(hidden);
    SymValues outputShape = inputShape;
    outputShape.push_back(hidden.size(-1));
    for (Gpt2Block* block : blocks_) hidden = block->forward(hidden);
    hidden = lnF_->forward(hidden);
    return {view(hidden, outputShape)};
  }

 private:
  Gpt2Config c_;
  Embedding& wte_;
  Embedding& wpe_;
  Dropout& drop_;
  std::vector<Gpt2Block*> blocks_;
  LayerNorm* lnF_ = nullptr;
};

}  // namespace

Result<std::unique_ptr<frontend::Model>> createGpt2(const ModelOptions& o) {
  Gpt2Config c{o.layers, o.batch, o.seq, o.vocab};
  if (o.seq < 1 || o.seq > c.maxPositions)
    return invalidInput("model gpt2: seq must be in [1, " + std::to_string(c.maxPositions) + "]");
  if (o.vocab < 1) return invalidInput("model gpt2: vocab must be positive");
  return std::unique_ptr<frontend::Model>(std::make_unique<Gpt2Model>(c));
}

}  // namespace fathom::models
