// ResNet-18 as torchvision writes it: a 7x7 stride-2 stem with batch norm, ReLU and 3x3 max
// pooling, four stages of two BasicBlocks (64, 128, 256, 512 channels; the first block of
// stages 2-4 strides by 2 and projects its shortcut with a 1x1 conv + batch norm), global
// average pooling, flatten and a 1000-way Linear. torchvision's in-place ReLU and `out +=
// identity` are recorded in their functional form, as AOTAutograd's graphs show them.
#include "engine/frontend/Layers.h"
#include "samples/models/Models.h"

namespace fathom::models {
namespace {

using namespace fathom::frontend;
using frontend::Tensor;  // not fathom::Tensor: model code handles frontend tensors

class Downsample : public Module {
 public:
  Downsample(int64_t in, int64_t out, int64_t stride)
      : conv_(addModule<Conv2d>("0", in, out, 1, stride, 0)), bn_(addModule<BatchNorm2d>("1", out)) {}

  Tensor forward(const Tensor& x) {
    auto scope = enter();
    return bn_.forward(conv_.forward(x));
  }

 private:
  Conv2d& conv_;
  BatchNorm2d& bn_;
};

class BasicBlock : public Module {
 public:
  BasicBlock(int64_t in, int64_t out, int64_t stride)
      : conv1_(addModule<Conv2d>("conv1", in, out, 3, stride, 1)), bn1_(addModule<BatchNorm2d>("bn1", out)),
        relu_(addModule<ReLU>("relu")), conv2_(addModule<Conv2d>("conv2", out, out, 3, 1, 1)),
        bn2_(addModule<BatchNorm2d>("bn2", out)),
        downsample_(stride != 1 || in != out ? &addModule<Downsample>("downsample", in, out, stride) : nullptr) {}

  Tensor forward(const Tensor& x) {
    auto scope = enter();
    Tensor out = relu_.forward(bn1_.forward(conv1_.forward(x)));
    out = bn2_.forward(conv2_.forward(out));
    const Tensor identity = downsample_ ? downsample_->forward(x) : x;
    return relu_.forward(add(out, identity));
  }

 private:
  Conv2d& conv1_;
  BatchNorm2d& bn1_;
  ReLU& relu_;
  Conv2d& conv2_;
  BatchNorm2d& bn2_;
  Downsample* downsample_;
};

class ResNet18 : public Model {
 public:
  ResNet18(int64_t batch, int64_t image)
      : batch_(batch), image_(image), conv1_(addModule<Conv2d>("conv1", 3, 64, 7, 2, 3)),
        bn1_(addModule<BatchNorm2d>("bn1", 64)), relu_(addModule<ReLU>("relu")),
        maxpool_(addModule<MaxPool2d>("maxpool", 3, 2, 1)) {
    const int64_t widths[] = {64, 128, 256, 512};
    int64_t in = 64;
    for (int64_t stage = 0; stage < 4; ++stage) {
      const std::string name = "layer" + std::to_string(stage + 1);
      blocks_.push_back(&addModule<BasicBlock>(name + ".0", in, widths[stage], stage == 0 ? 1 : 2));
      blocks_.push_back(&addModule<BasicBlock>(name + ".1", widths[stage], widths[stage], 1));
      in = widths[stage];
    }
    fc_ = &addModule<Linear>("fc", 512, 1000);
  }

  std::vector<ExampleInput> inputSpecs() const override {
    return {inputSpec("x", DType::Float32, {batch_, 3, image_, image_})};
  }

  // -> {logits [batch, 1000]}
  std::vector<Tensor> forward(const std::vector<Tensor>& inputs) override {
    Tensor x = relu_.forward(bn1_.forward(conv1_.forward(inputs.at(0))));
    x = maxpool_.forward(x);
    for (BasicBlock* block : blocks_) x = block->forward(x);
    x = adaptiveAvgPool2d1x1(x);  // avgpool: AdaptiveAvgPool2d((1, 1))
    x = flatten(x, 1);
    return {fc_->forward(x)};
  }

 private:
  int64_t batch_, image_;
  Conv2d& conv1_;
  BatchNorm2d& bn1_;
  ReLU& relu_;
  MaxPool2d& maxpool_;
  std::vector<BasicBlock*> blocks_;
  Linear* fc_ = nullptr;
};

}  // namespace

Result<std::unique_ptr<frontend::Model>> createResNet18(const ModelOptions& o) {
  if (o.layers != 18) return invalidInput("model resnet18: layers is fixed at 18");
  if (o.seq < 32) return invalidInput("model resnet18: the image size (seq) must be at least 32");
  return std::unique_ptr<frontend::Model>(std::make_unique<ResNet18>(o.batch, o.seq));
}

}  // namespace fathom::models
