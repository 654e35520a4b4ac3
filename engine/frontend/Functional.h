// The frontend's ops, as free functions (torch / torch.nn.functional). Each one emits exactly
// the ATen ops PyTorch 1.13's make_fx records for the PyTorch call it is named after, so a
// traced model looks like a real exported graph (linear is t + view + addmm + view on 3-d
// input, a 4-d matmul is expand + reshape + bmm + _unsafe_view, reshape is _reshape_alias when a
// view is possible and clone + _unsafe_view otherwise, softmax is _softmax, ...).
//
// Two deliberate differences from make_fx, both what AOTAutograd's functionalized graphs show:
// in-place ops appear as their functional forms, and a Python number operand records the
// .Scalar overload (aten.mul.Scalar(x, 0.5)) where make_fx writes aten.mul.Tensor(x, 0.5) -
// Fathom's schemas take tensors only where ATen's say Tensor.
//
// Every function takes the caller's source location as its last (defaulted) argument and
// records it on the nodes it emits: provenance points at the model's line, not at this file.
#pragma once

#include <optional>
#include <source_location>
#include <vector>

#include "engine/frontend/TensorHandle.h"

namespace fathom::frontend {

using Loc = std::source_location;

// --- elementwise (PointwiseFunctions.cpp) ---------------------------------------------------
Tensor add(const Tensor& a, const Tensor& b, Loc loc = Loc::current());
Tensor add(const Tensor& a, double b, Loc loc = Loc::current());
Tensor sub(const Tensor& a, const Tensor& b, Loc loc = Loc::current());
Tensor sub(const Tensor& a, double b, Loc loc = Loc::current());
Tensor rsub(const Tensor& a, double b, Loc loc = Loc::current());  // b - a
Tensor mul(const Tensor& a, const Tensor& b, Loc loc = Loc::current());
Tensor mul(const Tensor& a, double b, Loc loc = Loc::current());
Tensor div(const Tensor& a, const Tensor& b, Loc loc = Loc::current());
Tensor div(const Tensor& a, double b, Loc loc = Loc::current());
Tensor neg(const Tensor& x, Loc loc = Loc::current());
Tensor pow(const Tensor& x, double exponent, Loc loc = Loc::current());
Tensor exp(const Tensor& x, Loc loc = Loc::current());
Tensor tanh(const Tensor& x, Loc loc = Loc::current());
Tensor sigmoid(const Tensor& x, Loc loc = Loc::current());
Tensor relu(const Tensor& x, Loc loc = Loc::current());
Tensor gelu(const Tensor& x, const char* approximate = "none", Loc loc = Loc::current());
Tensor where(const Tensor& condition, const Tensor& a, const Tensor& b, Loc loc = Loc::current());
Tensor maskedFill(const Tensor& x, const Tensor& mask, double value, Loc loc = Loc::current());
Tensor tril(const Tensor& x, int64_t diagonal = 0, Loc loc = Loc::current());
// x.to(dtype): nothing is recorded when x already has that dtype.
Tensor to(const Tensor& x, DType dtype, Loc loc = Loc::current());

// --- views and shapes (ShapeFunctions.cpp) ---------------------------------------------------
Tensor view(const Tensor& x, const SymValues& sizes, Loc loc = Loc::current());
Tensor unsafeView(const Tensor& x, const SymValues& sizes, Loc loc = Loc::current());
// A view when the layout allows one (_reshape_alias), else a contiguous copy (clone +
// _unsafe_view); -1 is inferred.
Tensor reshape(const Tensor& x, const SymValues& sizes, Loc loc = Loc::current());
Tensor flatten(const Tensor& x, int64_t startDim = 0, int64_t endDim = -1, Loc loc = Loc::current());
Tensor permute(const Tensor& x, const IntList& dims, Loc loc = Loc::current());
Tensor transpose(const Tensor& x, int64_t dim0, int64_t dim1, Loc loc = Loc::current());
Tensor t(const Tensor& x, Loc loc = Loc::current());
Tensor expand(const Tensor& x, const SymValues& sizes, Loc loc = Loc::current());
Tensor unsqueeze(const Tensor& x, int64_t dim, Loc loc = Loc::current());
// x.contiguous(): a clone when x is not contiguous, else x itself (nothing recorded).
Tensor contiguous(const Tensor& x, Loc loc = Loc::current());
Tensor clone(const Tensor& x, Loc loc = Loc::current());  // memory_format=contiguous_format
// x[..., start:end:step, ...] along `dim`; end defaults to "to the end" (INT64_MAX, as FX records).
Tensor slice(const Tensor& x, int64_t dim, const SymValue& start, std::optional<SymValue> end = std::nullopt,
             int64_t step = 1, Loc loc = Loc::current());
Tensor select(const Tensor& x, int64_t dim, int64_t index, Loc loc = Loc::current());
std::vector<Tensor> split(const Tensor& x, int64_t splitSize, int64_t dim = 0, Loc loc = Loc::current());
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim = 0, Loc loc = Loc::current());

// --- matrix products (MatmulFunctions.cpp) ---------------------------------------------------
Tensor mm(const Tensor& a, const Tensor& b, Loc loc = Loc::current());
Tensor bmm(const Tensor& a, const Tensor& b, Loc loc = Loc::current());
Tensor addmm(const Tensor& bias, const Tensor& a, const Tensor& b, Loc loc = Loc::current());
// torch.matmul for 2-d @ 2-d, n-d @ 2-d (folded into one mm) and batched n-d @ n-d.
Tensor matmul(const Tensor& a, const Tensor& b, Loc loc = Loc::current());
// F.linear: x @ weight.t() + bias (bias may be undefined).
Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias, Loc loc = Loc::current());

// --- reductions and nn (NnFunctions.cpp) -----------------------------------------------------
Tensor softmax(const Tensor& x, int64_t dim, Loc loc = Loc::current());
Tensor mean(const Tensor& x, const IntList& dims, bool keepdim = false, Loc loc = Loc::current());
Tensor sum(const Tensor& x, const IntList& dims, bool keepdim = false, Loc loc = Loc::current());
Tensor layerNorm(const Tensor& x, const SymValues& normalizedShape, const Tensor& weight, const Tensor& bias,
                 double eps, Loc loc = Loc::current());
Tensor embedding(const Tensor& weight, const Tensor& indices, Loc loc = Loc::current());
struct Conv2dOptions {
  IntList stride{1, 1}, padding{0, 0}, dilation{1, 1};
  int64_t groups = 1;
};
Tensor conv2d(const Tensor& x, const Tensor& weight, const Tensor& bias, const Conv2dOptions& options = {},
              Loc loc = Loc::current());
// F.batch_norm: training uses batch statistics and updates the running ones in place.
Tensor batchNorm(const Tensor& x, const Tensor& weight, const Tensor& bias, const Tensor& runningMean,
                 const Tensor& runningVar, bool training, double momentum, double eps, Loc loc = Loc::current());
Tensor maxPool2d(const Tensor& x, const IntList& kernel, const IntList& stride, const IntList& padding,
                 Loc loc = Loc::current());
// F.adaptive_avg_pool2d(x, 1): a mean over the last two dims, kept.
Tensor adaptiveAvgPool2d1x1(const Tensor& x, Loc loc = Loc::current());
// F.dropout: the identity (nothing recorded) unless training and p > 0.
Tensor dropout(const Tensor& x, double p, bool training, Loc loc = Loc::current());

// --- factories (FactoryFunctions.cpp): recorded with dtype, device=cpu, pin_memory=False -------
Tensor full(const SymValues& sizes, double value, DType dtype, Loc loc = Loc::current());
Tensor ones(const SymValues& sizes, DType dtype, Loc loc = Loc::current());
Tensor arange(const SymValue& start, const SymValue& end, DType dtype, Loc loc = Loc::current());

}  // namespace fathom::frontend
