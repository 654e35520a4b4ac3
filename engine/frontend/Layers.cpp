#include "engine/frontend/Layers.h"

#include <cmath>

namespace fathom::frontend {
namespace {

Init fanInUniform(int64_t fanIn) {
  const double bound = 1.0 / std::sqrt(static_cast<double>(fanIn));
  return Init::uniform(-bound, bound);
}

Init nearOne() { return Init::uniform(0.9, 1.1); }
Init nearZero() { return Init::uniform(-0.1, 0.1); }

}  // namespace

Linear::Linear(int64_t in, int64_t out, bool bias)
    : weight_(addParameter("weight", {out, in}, fanInUniform(in))),
      bias_(bias ? &addParameter("bias", {out}, fanInUniform(in)) : nullptr) {}

Tensor Linear::forward(const Tensor& x, Loc loc) {
  auto scope = enter();
  return linear(x, weight_.tensor(loc), bias_ ? bias_->tensor(loc) : Tensor(), loc);
}

LayerNorm::LayerNorm(int64_t size, double eps)
    : size_(size), eps_(eps), weight_(addParameter("weight", {size}, nearOne())),
      bias_(addParameter("bias", {size}, nearZero())) {}

Tensor LayerNorm::forward(const Tensor& x, Loc loc) {
  auto scope = enter();
  return layerNorm(x, {size_}, weight_.tensor(loc), bias_.tensor(loc), eps_, loc);
}

// Drawn uniformly with N(0, 1)'s spread: as good as normal for an embedding table, and much
// cheaper to draw for a 30k-50k row vocabulary.
Embedding::Embedding(int64_t count, int64_t dim)
    : weight_(addParameter("weight", {count, dim}, Init::uniform(-1.7, 1.7))) {}

Tensor Embedding::forward(const Tensor& indices, Loc loc) {
  auto scope = enter();
  return embedding(weight_.tensor(loc), indices, loc);
}

Conv2d::Conv2d(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t padding, bool bias)
    : options_{{stride, stride}, {padding, padding}, {1, 1}, 1},
      weight_(addParameter("weight", {out, in, kernel, kernel}, fanInUniform(in * kernel * kernel))),
      bias_(bias ? &addParameter("bias", {out}, fanInUniform(in * kernel * kernel)) : nullptr) {}

Tensor Conv2d::forward(const Tensor& x, Loc loc) {
  auto scope = enter();
  return conv2d(x, weight_.tensor(loc), bias_ ? bias_->tensor(loc) : Tensor(), options_, loc);
}

BatchNorm2d::BatchNorm2d(int64_t channels, double eps, double momentum)
    : eps_(eps), momentum_(momentum), weight_(addParameter("weight", {channels}, nearOne())),
      bias_(addParameter("bias", {channels}, nearZero())),
      runningMean_(addBuffer("running_mean", {channels}, nearZero())),
      runningVar_(addBuffer("running_var", {channels}, nearOne())) {}

Tensor BatchNorm2d::forward(const Tensor& x, Loc loc) {
  auto scope = enter();
  return batchNorm(x, weight_.tensor(loc), bias_.tensor(loc), runningMean_.tensor(loc), runningVar_.tensor(loc),
                   training(), momentum_, eps_, loc);
}

Tensor Dropout::forward(const Tensor& x, Loc loc) {
  auto scope = enter();
  return dropout(x, p_, training(), loc);
}

Tensor GELU::forward(const Tensor& x, Loc loc) {
  auto scope = enter();
  return gelu(x, "none", loc);
}

Tensor ReLU::forward(const Tensor& x, Loc loc) {
  auto scope = enter();
  return relu(x, loc);
}

Tensor MaxPool2d::forward(const Tensor& x, Loc loc) {
  auto scope = enter();
  return maxPool2d(x, {kernel_, kernel_}, {stride_, stride_}, {padding_, padding_}, loc);
}

}  // namespace fathom::frontend
