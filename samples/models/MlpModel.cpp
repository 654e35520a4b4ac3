// An MLP classifier as nn.Sequential(Linear, ReLU, ..., Linear): 784 inputs, hidden widths 256,
// 128, 64, ... (halving, at least 16), 10 classes. Three linear layers give the `mlp` sample's
// network (samples/Mlp.cpp), with the same module paths (layers.0, layers.1, ...).
#include <algorithm>

#include "engine/frontend/Layers.h"
#include "samples/models/Models.h"

namespace fathom::models {
namespace {

using namespace fathom::frontend;
using frontend::Tensor;  // not fathom::Tensor: model code handles frontend tensors

class Mlp : public Model {
 public:
  Mlp(int64_t linearLayers, int64_t batch) : batch_(batch) {
    int64_t in = 784, hidden = 256;
    for (int64_t i = 0; i < linearLayers; ++i) {
      const bool last = i + 1 == linearLayers;
      const int64_t out = last ? 10 : hidden;
      linears_.push_back(&addModule<Linear>("layers." + std::to_string(2 * i), in, out));
      if (!last) relus_.push_back(&addModule<ReLU>("layers." + std::to_string(2 * i + 1)));
      in = out;
      hidden = std::max<int64_t>(16, hidden / 2);
    }
  }

  std::vector<ExampleInput> inputSpecs() const override { return {inputSpec("x", DType::Float32, {batch_, 784})}; }

  // -> {logits [batch, 10]}
  std::vector<Tensor> forward(const std::vector<Tensor>& inputs) override {
    Tensor h = inputs.at(0);
    for (size_t i = 0; i < linears_.size(); ++i) {
      h = linears_[i]->forward(h);
      if (i < relus_.size()) h = relus_[i]->forward(h);
    }
    return {h};
  }

 private:
  int64_t batch_;
  std::vector<Linear*> linears_;
  std::vector<ReLU*> relus_;
};

}  // namespace

Result<std::unique_ptr<frontend::Model>> createMlp(const ModelOptions& o) {
  return std::unique_ptr<frontend::Model>(std::make_unique<Mlp>(o.layers, o.batch));
}

}  // namespace fathom::models
