// BERT-base as HuggingFace transformers' BertModel (4.24, the PyTorch 1.13 era) writes it:
// embeddings (word + token type + position, LayerNorm), an encoder of BertLayers (self-attention
// with the additive attention mask, output projection + residual + LayerNorm, GELU feed-forward
// + residual + LayerNorm) and the pooler. Module and parameter names are HuggingFace's, so a
// traced graph's placeholders read "encoder.layer.0.attention.self.query.weight".
#include <cmath>
#include <limits>

#include "engine/frontend/Layers.h"
#include "samples/models/Models.h"

namespace fathom::models {
namespace {

using namespace fathom::frontend;
using frontend::Tensor;  // not fathom::Tensor: model code handles frontend tensors

struct BertConfig {
  int64_t layers, batch, seq, vocab;  // BERT-base's vocabulary: 30522
  int64_t hidden = 768, heads = 12, intermediate = 3072;
  int64_t maxPositions = 512, typeVocab = 2;
  double eps = 1e-12, dropout = 0.1;
  int64_t headDim() const { return hidden / heads; }
};

class BertEmbeddings : public Module {
 public:
  explicit BertEmbeddings(const BertConfig& c)
      : words_(addModule<Embedding>("word_embeddings", c.vocab, c.hidden)),
        positions_(addModule<Embedding>("position_embeddings", c.maxPositions, c.hidden)),
        tokenTypes_(addModule<Embedding>("token_type_embeddings", c.typeVocab, c.hidden)),
        norm_(addModule<LayerNorm>("LayerNorm", c.hidden, c.eps)),
        dropout_(addModule<Dropout>("dropout", c.dropout)),
        positionIds_(addBuffer("position_ids", {1, c.maxPositions}, arangeValues(c.maxPositions), DType::Int64)),
        tokenTypeIds_(addBuffer("token_type_ids", {1, c.maxPositions}, Init::uniform(0, 1), DType::Int64)) {}

  const Parameter& tokenTypeIds() const { return tokenTypeIds_; }

  Tensor forward(const Tensor& inputIds, const Tensor& tokenTypeIds) {
    auto scope = enter();
    const SymValue seq = inputIds.size(1);
    const Tensor positionIds = slice(slice(positionIds_.tensor(), 0, 0), 1, 0, seq);
    const Tensor inputsEmbeds = words_.forward(inputIds);
    const Tensor tokenTypeEmbeds = tokenTypes_.forward(tokenTypeIds);
    Tensor embeddings = add(inputsEmbeds, tokenTypeEmbeds);
    const Tensor positionEmbeds = positions_.forward(positionIds);
    embeddings = add(embeddings, positionEmbeds);
    embeddings = norm_.forward(embeddings);
    return dropout_.forward(embeddings);
  }

 private:
  static Init arangeValues(int64_t n) {
    std::vector<double> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<double>(i);
    return Init::values(std::move(v));
  }

  Embedding& words_;
  Embedding& positions_;
  Embedding& tokenTypes_;
  LayerNorm& norm_;
  Dropout& dropout_;
  Parameter& positionIds_;
  Parameter& tokenTypeIds_;
};

// Multi-head self-attention: [batch, seq, hidden] -> [batch, seq, hidden].
class BertSelfAttention : public Module {
 public:
  explicit BertSelfAttention(const BertConfig& c)
      : c_(c), query_(addModule<Linear>("query", c.hidden, c.hidden)),
        key_(addModule<Linear>("key", c.hidden, c.hidden)), value_(addModule<Linear>("value", c.hidden, c.hidden)),
        dropout_(addModule<Dropout>("dropout", c.dropout)) {}

  Tensor forward(const Tensor& hidden, const Tensor& maskBias) {
    auto scope = enter();
    const Tensor mixedQuery = query_.forward(hidden);
    const Tensor keys = transposeForScores(key_.forward(hidden));
    const Tensor values = transposeForScores(value_.forward(hidden));
    const Tensor queries = transposeForScores(mixedQuery);
    Tensor scores = matmul(queries, transpose(keys, -1, -2));
    scores = div(scores, std::sqrt(static_cast<double>(c_.headDim())));
    scores = add(scores, maskBias);
    Tensor probs = softmax(scores, -1);
    probs = dropout_.forward(probs);
    Tensor context = matmul(probs, values);
    context = contiguous(permute(context, {0, 2, 1, 3}));
    return view(context, {context.size(0), context.size(1), c_.hidden});
  }

 private:
  // [batch, seq, hidden] -> [batch, heads, seq, head_dim] (a permuted view).
  Tensor transposeForScores(const Tensor& x) {
    const Tensor v = view(x, {x.size(0), x.size(1), c_.heads, c_.headDim()});
    return permute(v, {0, 2, 1, 3});
  }

  const BertConfig& c_;
  Linear& query_;
  Linear& key_;
  Linear& value_;
  Dropout& dropout_;
};

// dense + dropout, then LayerNorm of the sum with the block's input (BertSelfOutput, BertOutput).
class BertResidualOutput : public Module {
 public:
  BertResidualOutput(const BertConfig& c, int64_t in)
      : dense_(addModule<Linear>("dense", in, c.hidden)), norm_(addModule<LayerNorm>("LayerNorm", c.hidden, c.eps)),
        dropout_(addModule<Dropout>("dropout", c.dropout)) {}

  Tensor forward(const Tensor& hidden, const Tensor& input) {
    auto scope = enter();
    Tensor h = dense_.forward(hidden);
    h = dropout_.forward(h);
    return norm_.forward(add(h, input));
  }

 private:
  Linear& dense_;
  LayerNorm& norm_;
  Dropout& dropout_;
};

class BertAttention : public Module {
 public:
  explicit BertAttention(const BertConfig& c)
      : self_(addModule<BertSelfAttention>("self", c)), output_(addModule<BertResidualOutput>("output", c, c.hidden)) {}

  Tensor forward(const Tensor& hidden, const Tensor& maskBias) {
    auto scope = enter();
    return output_.forward(self_.forward(hidden, maskBias), hidden);
  }

 private:
  BertSelfAttention& self_;
  BertResidualOutput& output_;
};

class BertIntermediate : public Module {
 public:
  explicit BertIntermediate(const BertConfig& c)
      : dense_(addModule<Linear>("dense", c.hidden, c.intermediate)),
        act_(addModule<GELU>("intermediate_act_fn")) {}

  Tensor forward(const Tensor& hidden) {
    auto scope = enter();
    return act_.forward(dense_.forward(hidden));
  }

 private:
  Linear& dense_;
  GELU& act_;
};

class BertLayer : public Module {
 public:
  explicit BertLayer(const BertConfig& c)
      : attention_(addModule<BertAttention>("attention", c)),
        intermediate_(addModule<BertIntermediate>("intermediate", c)),
        output_(addModule<BertResidualOutput>("output", c, c.intermediate)) {}

  Tensor forward(const Tensor& hidden, const Tensor& maskBias) {
    auto scope = enter();
    const Tensor attention = attention_.forward(hidden, maskBias);
    return output_.forward(intermediate_.forward(attention), attention);
  }

 private:
  BertAttention& attention_;
  BertIntermediate& intermediate_;
  BertResidualOutput& output_;
};

class BertPooler : public Module {
 public:
  explicit BertPooler(const BertConfig& c) : dense_(addModule<Linear>("dense", c.hidden, c.hidden)) {}

  // The first token's hidden state, dense, tanh.
  Tensor forward(const Tensor& hidden) {
    auto scope = enter();
    const Tensor first = select(slice(hidden, 0, 0), 1, 0);
    return tanh(dense_.forward(first));
  }

 private:
  Linear& dense_;
};

class BertModel : public Model {
 public:
  explicit BertModel(const BertConfig& c) : c_(c), embeddings_(addModule<BertEmbeddings>("embeddings", c_)) {
    for (int64_t i = 0; i < c_.layers; ++i)
      layers_.push_back(&addModule<BertLayer>("encoder.layer." + std::to_string(i), c_));
    pooler_ = &addModule<BertPooler>("pooler", c_);
  }

  std::vector<ExampleInput> inputSpecs() const override {
    return {inputSpec("input_ids", DType::Int64, {c_.batch, c_.seq}, std::pair{0.0, static_cast<double>(c_.vocab)}),
            inputSpec("attention_mask", DType::Int64, {c_.batch, c_.seq}, std::pair{0.0, 2.0})};
  }

  // -> {last_hidden_state [batch, seq, hidden], pooler_output [batch, hidden]}
  std::vector<Tensor> forward(const std::vector<Tensor>& inputs) override {
    const Tensor& inputIds = inputs.at(0);
    const Tensor& mask = inputs.at(1);
    const SymValue batch = inputIds.size(0), seq = inputIds.size(1);
    const Tensor bufferedTokenTypes = slice(slice(embeddings_.tokenTypeIds().tensor(), 0, 0), 1, 0, seq);
    const Tensor tokenTypeIds = expand(bufferedTokenTypes, {batch, seq});
    const Tensor maskBias = extendedAttentionMask(mask);
    Tensor hidden = embeddings_.forward(inputIds, tokenTypeIds);
    for (BertLayer* layer : layers_) hidden = layer->forward(hidden, maskBias);
    return {hidden, pooler_->forward(hidden)};
  }

 private:
  // mask[:, None, None, :] as 0 where attended and float32's lowest where masked, added to the
  // attention scores (get_extended_attention_mask).
  static Tensor extendedAttentionMask(const Tensor& mask) {
    Tensor m = unsqueeze(unsqueeze(slice(mask, 0, 0), 1), 2);
    m = to(slice(m, 3, 0), DType::Float32);
    return mul(rsub(m, 1.0), static_cast<double>(std::numeric_limits<float>::lowest()));
  }

  BertConfig c_;
  BertEmbeddings& embeddings_;
  std::vector<BertLayer*> layers_;
  BertPooler* pooler_ = nullptr;
};

}  // namespace

Result<std::unique_ptr<frontend::Model>> createBert(const ModelOptions& o) {
  BertConfig c{o.layers, o.batch, o.seq, o.vocab};
  if (o.seq < 1 || o.seq > c.maxPositions)
    return invalidInput("model bert: seq must be in [1, " + std::to_string(c.maxPositions) + "]");
  if (o.vocab < 1) return invalidInput("model bert: vocab must be positive");
  return std::unique_ptr<frontend::Model>(std::make_unique<BertModel>(c));
}

}  // namespace fathom::models
