// _softmax, _log_softmax and their backward (_softmax_backward_data,
// _log_softmax_backward_data), and torch 2.x's _safe_softmax.
//
// Layout (1.13's structured metas): a fresh contiguous tensor of the input's (or grad's) shape,
// whatever the input's strides. Dtype: the input's; half_to_float would give float32 but has no
// CPU kernel. The backward's result takes the grad's dtype, except that a float32 grad with
// input_dtype float16 asks for a float16 result, which the CPU kernel then rejects.
// Kernels (ATen's softmax_cpu_out): an empty input gives an empty result before any dtype check;
// otherwise the input is made contiguous and only float32, float64 and bfloat16 run.
//
// A 1.13 quirk kept on purpose: softmax_backward_cpu_out hands its kernel `output` itself, not
// the contiguous copy it made, so the kernel reads a permuted output (dense but not contiguous)
// in memory order, as if it were contiguous. Fathom reads such an output the same way. For
// outputs with gaps or overlaps 1.13 reads memory outside the view; there we use the values.
// (log_softmax's backward passes the copy and has no such quirk.) Real graphs always pass the
// contiguous result of _softmax, where both readings agree.
#include <limits>

#include "engine/core/Error.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/families/NormalizationFamilies.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/cpu/SoftmaxKernel.h"

namespace fathom {
namespace {

bool hasSoftmaxKernel(DType t) { return t == DType::Float32 || t == DType::Float64 || t == DType::BFloat16; }

// The output tensor as 1.13's softmax backward kernel reads it (see the quirk above).
Tensor backwardOutputAsRead(const Tensor& output, bool log) {
  if (log || output.isContiguous() || !isDenseLayout(output.meta())) return contiguousOf(output);
  auto raw = output.asStrided(output.sizes(), contiguousStrides(output.sizes()), output.storageOffset());
  if (!raw.ok()) throw OpError(raw.error().message, raw.error().code);
  return std::move(*raw);
}

const char* opName(bool log) { return log ? "log_softmax" : "softmax"; }

// _softmax / _log_softmax(self, dim, half_to_float)
TensorMeta softmaxLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  (void)wrapDim(intArg(margs, 1), self.dim());
  TensorMeta out;
  out.dtype = boolArg(margs, 2) ? DType::Float32 : self.dtype;
  out.device = self.device;
  out.sizes = self.sizes;
  out.strides = contiguousStrides(self.sizes);
  return out;
}

Tensor softmaxKernel(const ValueList& args, bool log) {
  const Tensor& self = tensorArg(args, 0);
  Tensor out = allocateTensor(softmaxLayout(metaArgs(args)));
  FATHOM_CHECK(!boolArg(args, 2), opName(log), " with half to float conversion is not supported on CPU");
  if (self.numel() == 0) return out;
  const int64_t dim = wrapDim(intArg(args, 1), self.dim());
  const bool lastDim = self.dim() == 0 || dim == self.dim() - 1;
  FATHOM_CHECK(hasSoftmaxKernel(self.dtype()), "\"", opName(log), lastDim ? "_lastdim" : "",
               "_kernel_impl\" not implemented for '", scalarTypeName(self.dtype()), "'");
  softmaxForward(contiguousOf(self), out, softmaxShape(self.sizes(), dim), log);
  return out;
}

// _softmax_backward_data / _log_softmax_backward_data(grad_output, output, dim, input_dtype)
TensorMeta softmaxBackwardLayout(const ValueList& margs, bool log) {
  const TensorMeta& grad = metaArg(margs, 0);
  const TensorMeta& output = metaArg(margs, 1);
  bool same = grad.dim() == output.dim();
  for (int64_t d = 0; same && d < grad.dim(); ++d)
    same = symEq(grad.sizes[d], output.sizes[d], "softmax backward: grad and output shapes");
  FATHOM_CHECK(same,
               "Expected tensor for argument #1 'grad' to have same size as tensor for argument #2 'output'; but ",
               sizesStr(grad.sizes), " does not equal ", sizesStr(output.sizes), " (while checking arguments for ",
               opName(log), "_backward)");
  (void)wrapDim(intArg(margs, 2), grad.dim());
  const auto inputDtype = margs.at(3).is<DType>() ? margs[3].as<DType>() : grad.dtype;
  TensorMeta out;
  out.dtype = grad.dtype == DType::Float32 && inputDtype == DType::Float16 ? DType::Float16 : grad.dtype;
  out.device = grad.device;
  out.sizes = grad.sizes;
  out.strides = contiguousStrides(grad.sizes);
  return out;
}

Tensor softmaxBackwardKernel(const ValueList& args, bool log) {
  const Tensor& grad = tensorArg(args, 0);
  const Tensor& output = tensorArg(args, 1);
  Tensor gradInput = allocateTensor(softmaxBackwardLayout(metaArgs(args), log));
  if (output.numel() == 0) return gradInput;
  const DType t = grad.dtype();
  for (DType other : {gradInput.dtype(), output.dtype()})
    FATHOM_CHECK(other == t, "expected scalar type ", scalarTypeName(t), " but found ", scalarTypeName(other));
  const int64_t dim = wrapDim(intArg(args, 2), grad.dim());
  const bool lastDim = grad.dim() == 0 || dim == grad.dim() - 1;
  FATHOM_CHECK(hasSoftmaxKernel(t), "\"", opName(log), "_backward", lastDim ? "_lastdim" : "",
               "_kernel_impl\" not implemented for '", scalarTypeName(t), "'");
  softmaxBackward(contiguousOf(grad), backwardOutputAsRead(output, log), gradInput, softmaxShape(grad.sizes(), dim),
                  log);
  return gradInput;
}

// torch 2.x's _safe_softmax(self, dim, dtype=None), which its attention decomposition uses:
// softmax(self.to(dtype)), with 0 for every row that is all -inf (where softmax gives NaN).
// The result is where(masked_rows, 0, out): contiguous like out.
TensorMeta safeSoftmaxLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  (void)wrapDim(intArg(margs, 1), self.dim());
  TensorMeta out;
  out.dtype = optionalDTypeArg(margs, 2).value_or(self.dtype);
  out.device = self.device;
  out.sizes = self.sizes;
  out.strides = contiguousStrides(self.sizes);
  return out;
}

Tensor safeSoftmaxKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  Tensor out = allocateTensor(safeSoftmaxLayout(metaArgs(args)));
  if (self.numel() == 0) return out;
  Tensor in = allocateTensor(safeSoftmaxLayout(metaArgs(args)));
  copyInto(in, self);  // contiguous, in the result's dtype
  const int64_t dim = wrapDim(intArg(args, 1), self.dim());
  FATHOM_CHECK(hasSoftmaxKernel(in.dtype()), "\"softmax_kernel_impl\" not implemented for '", scalarTypeName(in.dtype()), "'");
  const SoftmaxShape shape = softmaxShape(self.sizes(), dim);
  softmaxForward(in, out, shape, false);
  for (int64_t o = 0; o < shape.outer; ++o)
    for (int64_t i = 0; i < shape.inner; ++i) {
      bool allMasked = true;
      for (int64_t k = 0; k < shape.size && allMasked; ++k)
        allMasked = in.atLinear((o * shape.size + k) * shape.inner + i) == -std::numeric_limits<double>::infinity();
      for (int64_t k = 0; allMasked && k < shape.size; ++k) out.setLinear((o * shape.size + k) * shape.inner + i, 0.0);
    }
  return out;
}

}  // namespace

void registerSoftmaxOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::_safe_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
      [](const ValueList& args) { return ValueList{safeSoftmaxLayout(args)}; },
      [](const ValueList& args) { return ValueList{safeSoftmaxKernel(args)}; });
  for (bool log : {false, true}) {
    const std::string name = log ? "_log_softmax" : "_softmax";
    (void)registry.add(
        "aten::" + name + "(Tensor self, int dim, bool half_to_float) -> Tensor",
        [](const ValueList& args) { return ValueList{softmaxLayout(args)}; },
        [log](const ValueList& args) { return ValueList{softmaxKernel(args, log)}; });
    (void)registry.add(
        "aten::" + name +
            "_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor",
        [log](const ValueList& args) { return ValueList{softmaxBackwardLayout(args, log)}; },
        [log](const ValueList& args) { return ValueList{softmaxBackwardKernel(args, log)}; });
  }
}

}  // namespace fathom
