// Reductions and torch.nn.functional ops. Multi-output ATen ops (native_layer_norm,
// native_batch_norm, max_pool2d_with_indices, native_dropout) record a getitem per output, as
// make_fx does; the function returns the first.
#include "engine/frontend/OpCall.h"
#include "engine/frontend/Functional.h"

namespace fathom::frontend {

Tensor softmax(const Tensor& x, int64_t dim, Loc loc) {
  return callOp1("aten._softmax.default", {x, dim, false}, {}, loc);
}

Tensor mean(const Tensor& x, const IntList& dims, bool keepdim, Loc loc) {
  if (!keepdim) return callOp1("aten.mean.dim", {x, dims}, {}, loc);
  return callOp1("aten.mean.dim", {x, dims, true}, {}, loc);
}

Tensor sum(const Tensor& x, const IntList& dims, bool keepdim, Loc loc) {
  if (!keepdim) return callOp1("aten.sum.dim_IntList", {x, dims}, {}, loc);
  return callOp1("aten.sum.dim_IntList", {x, dims, true}, {}, loc);
}

Tensor layerNorm(const Tensor& x, const SymValues& normalizedShape, const Tensor& weight, const Tensor& bias,
                 double eps, Loc loc) {
  return callOp("aten.native_layer_norm.default", {x, normalizedShape, weight, bias, eps}, {}, loc)[0];
}

Tensor embedding(const Tensor& weight, const Tensor& indices, Loc loc) {
  return callOp1("aten.embedding.default", {weight, indices}, {}, loc);
}

Tensor conv2d(const Tensor& x, const Tensor& weight, const Tensor& bias, const Conv2dOptions& o, Loc loc) {
  const IntList outputPadding{0, 0};
  return callOp1("aten.convolution.default",
                 {x, weight, bias, o.stride, o.padding, o.dilation, false, outputPadding, o.groups}, {}, loc);
}

Tensor batchNorm(const Tensor& x, const Tensor& weight, const Tensor& bias, const Tensor& runningMean,
                 const Tensor& runningVar, bool training, double momentum, double eps, Loc loc) {
  return callOp("aten.native_batch_norm.default",
                {x, weight, bias, runningMean, runningVar, training, momentum, eps}, {}, loc)[0];
}

Tensor maxPool2d(const Tensor& x, const IntList& kernel, const IntList& stride, const IntList& padding, Loc loc) {
  return callOp("aten.max_pool2d_with_indices.default", {x, kernel, stride, padding}, {}, loc)[0];
}

Tensor adaptiveAvgPool2d1x1(const Tensor& x, Loc loc) {
  const IntList lastTwo{-1, -2};
  return mean(x, lastTwo, /*keepdim=*/true, loc);
}

Tensor dropout(const Tensor& x, double p, bool training, Loc loc) {
  if (!training || p == 0) return x;
  return callOp("aten.native_dropout.default", {x, p, true}, {}, loc)[0];
}

}  // namespace fathom::frontend
