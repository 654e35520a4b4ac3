// The torch.nn layers the sample models are built from. Parameters are drawn in the range
// PyTorch initializes them in (Linear/Conv2d: U(+-1/sqrt(fan_in))), except that weights PyTorch
// sets to exact constants (LayerNorm and BatchNorm's 1 and 0, running statistics) are drawn
// near them, so a wrong operand order still changes the numbers.
//
// forward() takes the caller's source location: the nodes a layer records point at the model
// line that called it, as a user reading a graph of their model expects.
#pragma once

#include <source_location>

#include "engine/frontend/Functional.h"
#include "engine/frontend/Module.h"

namespace fathom::frontend {

class Linear : public Module {
 public:
  Linear(int64_t in, int64_t out, bool bias = true);
  Tensor forward(const Tensor& x, Loc loc = Loc::current());

 private:
  Parameter& weight_;
  Parameter* bias_;
};

class LayerNorm : public Module {
 public:
  explicit LayerNorm(int64_t size, double eps = 1e-5);
  Tensor forward(const Tensor& x, Loc loc = Loc::current());

 private:
  int64_t size_;
  double eps_;
  Parameter& weight_;
  Parameter& bias_;
};

class Embedding : public Module {
 public:
  Embedding(int64_t count, int64_t dim);
  Tensor forward(const Tensor& indices, Loc loc = Loc::current());

 private:
  Parameter& weight_;
};

class Conv2d : public Module {
 public:
  Conv2d(int64_t in, int64_t out, int64_t kernel, int64_t stride = 1, int64_t padding = 0, bool bias = false);
  Tensor forward(const Tensor& x, Loc loc = Loc::current());

 private:
  Conv2dOptions options_;
  Parameter& weight_;
  Parameter* bias_;
};

// Training normalizes with the batch's statistics and updates running_mean / running_var in
// place (num_batches_tracked is not modelled: momentum is always given); eval uses the running ones.
class BatchNorm2d : public Module {
 public:
  explicit BatchNorm2d(int64_t channels, double eps = 1e-5, double momentum = 0.1);
  Tensor forward(const Tensor& x, Loc loc = Loc::current());

 private:
  double eps_, momentum_;
  Parameter& weight_;
  Parameter& bias_;
  Parameter& runningMean_;
  Parameter& runningVar_;
};

class Dropout : public Module {
 public:
  explicit Dropout(double p) : p_(p) {}
  Tensor forward(const Tensor& x, Loc loc = Loc::current());

 private:
  double p_;
};

class GELU : public Module {
 public:
  Tensor forward(const Tensor& x, Loc loc = Loc::current());
};

class ReLU : public Module {
 public:
  Tensor forward(const Tensor& x, Loc loc = Loc::current());
};

class MaxPool2d : public Module {
 public:
  MaxPool2d(int64_t kernel, int64_t stride, int64_t padding) : kernel_(kernel), stride_(stride), padding_(padding) {}
  Tensor forward(const Tensor& x, Loc loc = Loc::current());

 private:
  int64_t kernel_, stride_, padding_;
};

}  // namespace fathom::frontend
