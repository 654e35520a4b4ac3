// native_layer_norm and native_layer_norm_backward.
//
// Checks (ATen's _check_layer_norm_inputs): normalized_shape is non-empty, weight and bias (when
// given) have exactly that shape, and the input ends with it. The input splits into M rows (the
// leading dims) of N elements (the normalized dims).
// Layout (1.13's layer_norm_cpu): out is a fresh contiguous tensor of the input's shape; mean
// and rstd have the leading dims followed by a 1 per normalized dim, contiguous; all three take
// the input's dtype. The backward's grad_input is shaped like the input, grad_weight and
// grad_bias like weight and bias (their dtypes), each only when output_mask asks for it (else
// None); with M == 0 the weight and bias grads are zeros.
// Kernels run only when M > 0 (as ATen's), and only for float32, float64 and bfloat16, with
// weight, bias, mean, rstd and grad all of the input's dtype.
//
// Stricter than PyTorch 1.13, which reads out of bounds instead: the backward checks that
// grad_out has the input's shape and mean/rstd have M elements. And where 1.13 fails with
// "tensor does not have a device" (output_mask asks for the grad of an absent weight or bias),
// the message here names the argument (and quotes 1.13's).
#include <array>
#include <optional>

#include "engine/core/Error.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/LayerNormKernel.h"
#include "engine/ops/families/NormalizationFamilies.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

const TensorMeta* optionalMeta(const ValueList& margs, size_t i) {
  return margs.at(i).isNone() ? nullptr : &metaArg(margs, i);
}

bool sameSizes(const SymIntList& a, const SymIntList& b, const char* reason) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!symEq(a[i], b[i], reason)) return false;
  return true;
}

struct LayerNormLayout {
  TensorMeta out, stat;  // stat: mean and rstd
  SymInt m = 1, n = 1;
};

// _check_layer_norm_inputs, then the forward's result layouts.
LayerNormLayout layerNormLayout(const TensorMeta& input, const SymIntList& normalized, const TensorMeta* weight,
                                const TensorMeta* bias) {
  FATHOM_CHECK(!normalized.empty(), "Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
               "least one element, but got normalized_shape = ", sizesStr(normalized));
  FATHOM_CHECK(!weight || sameSizes(weight->sizes, normalized, "layer_norm: weight shape"),
               "Expected weight to be of same shape as normalized_shape, but got weight of shape ",
               sizesStr(weight ? weight->sizes : SymIntList{}), " and normalized_shape = ", sizesStr(normalized));
  FATHOM_CHECK(!bias || sameSizes(bias->sizes, normalized, "layer_norm: bias shape"),
               "Expected bias to be of same shape as normalized_shape, but got bias of shape ",
               sizesStr(bias ? bias->sizes : SymIntList{}), " and normalized_shape = ", sizesStr(normalized));
  const int64_t axis = input.dim() - static_cast<int64_t>(normalized.size());
  const bool fits = axis >= 0 && sameSizes(SymIntList(input.sizes.begin() + axis, input.sizes.end()), normalized,
                                           "layer_norm: input ends with normalized_shape");
  if (!fits) {
    std::string expected = "[*";
    for (const auto& s : normalized) expected += ", " + s.str();
    throwOpError("Given normalized_shape=" + sizesStr(normalized) + ", expected input with shape " + expected +
                 "], but got input of size" + sizesStr(input.sizes));
  }
  LayerNormLayout l;
  SymIntList stat;
  for (int64_t d = 0; d < input.dim(); ++d) {
    if (d < axis) {
      l.m = l.m * input.sizes[d];
      stat.push_back(input.sizes[d]);
    } else {
      l.n = l.n * input.sizes[d];
      stat.push_back(SymInt(1));
    }
  }
  l.out = contiguousOutput(input, input.sizes);
  l.stat = contiguousOutput(input, std::move(stat));
  return l;
}

// native_layer_norm(input, normalized_shape, weight, bias, eps)
LayerNormLayout forwardLayout(const ValueList& margs) {
  return layerNormLayout(metaArg(margs, 0), toSymIntList(margs.at(1)), optionalMeta(margs, 2), optionalMeta(margs, 3));
}

// Tensors a kernel reads, all of `input`'s dtype; PyTorch's data_ptr<T>() check.
void checkKernelDtypes(DType input, std::initializer_list<const Tensor*> others, const char* kernel) {
  FATHOM_CHECK(input == DType::Float32 || input == DType::Float64 || input == DType::BFloat16, "\"", kernel,
               "\" not implemented for '", scalarTypeName(input), "'");
  for (const Tensor* t : others)
    if (t && t->defined())
      FATHOM_CHECK(t->dtype() == input, "expected scalar type ", scalarTypeName(input), " but found ",
                   scalarTypeName(t->dtype()));
}

// An optional tensor argument read contiguous (an undefined tensor for None).
Tensor contiguousOf(const Value& v) { return v.isNone() ? Tensor() : fathom::contiguousOf(v.as<Tensor>()); }

ValueList forwardKernel(const ValueList& args) {
  const LayerNormLayout l = forwardLayout(metaArgs(args));
  Tensor out = allocateTensor(l.out), mean = allocateTensor(l.stat), rstd = allocateTensor(l.stat);
  const int64_t m = l.m.hint(), n = l.n.hint();
  if (m > 0) {
    const Tensor x = contiguousOf(args[0]), weight = contiguousOf(args[2]), bias = contiguousOf(args[3]);
    checkKernelDtypes(x.dtype(), {&weight, &bias}, "LayerNormKernelImpl");
    layerNormForward(x, weight, bias, args.at(4).toDouble(), {m, n}, out, mean, rstd);
  }
  return {out, mean, rstd};
}

struct BackwardLayout {
  LayerNormLayout forward;
  std::array<std::optional<TensorMeta>, 3> grads;  // grad_input, grad_weight, grad_bias
};

// native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask)
BackwardLayout backwardLayout(const ValueList& margs) {
  const TensorMeta& grad = metaArg(margs, 0);
  const TensorMeta& input = metaArg(margs, 1);
  const TensorMeta *weight = optionalMeta(margs, 5), *bias = optionalMeta(margs, 6);
  BackwardLayout b;
  b.forward = layerNormLayout(input, toSymIntList(margs.at(2)), weight, bias);
  FATHOM_CHECK(sameSizes(grad.sizes, input.sizes, "layer_norm backward: grad shape"),
               "native_layer_norm_backward: expected grad_out of the input's size ", sizesStr(input.sizes),
               ", but got ", sizesStr(grad.sizes));
  for (size_t i : {3, 4}) {
    const TensorMeta& stat = metaArg(margs, i);
    FATHOM_CHECK(symEq(stat.numel(), b.forward.m, "layer_norm backward: mean/rstd size"),
                 "native_layer_norm_backward: expected ", i == 3 ? "mean" : "rstd", " with ", b.forward.m.str(),
                 " elements (one per normalized row), but got size ", sizesStr(stat.sizes));
  }
  const ValueList& mask = margs.at(7).as<ValueList>();
  FATHOM_CHECK(mask.size() == 3, "native_layer_norm_backward: output_mask needs 3 entries, got ", mask.size());
  if (mask[0].as<bool>()) b.grads[0] = b.forward.out;
  const TensorMeta* params[] = {weight, bias};
  const char* names[] = {"weight", "bias"};
  for (size_t k = 0; k < 2; ++k) {
    if (!mask[k + 1].as<bool>()) continue;
    FATHOM_CHECK(params[k], "native_layer_norm_backward: output_mask[", k + 1, "] asks for the gradient of ",
                 names[k], ", but ", names[k],
                 " is None (PyTorch 1.13 fails here with: tensor does not have a device)");
    b.grads[k + 1] = contiguousOutput(*params[k], params[k]->sizes);
  }
  return b;
}

ValueList backwardMeta(const ValueList& margs) {
  const BackwardLayout b = backwardLayout(margs);
  ValueList out;
  for (const auto& g : b.grads) out.push_back(g ? Value(*g) : Value(None{}));
  return out;
}

ValueList backwardKernel(const ValueList& args) {
  const BackwardLayout b = backwardLayout(metaArgs(args));
  std::array<Tensor, 3> grads;
  for (size_t k = 0; k < 3; ++k)
    if (b.grads[k]) grads[k] = allocateTensor(*b.grads[k]);  // zero-filled: the M == 0 result
  const int64_t m = b.forward.m.hint(), n = b.forward.n.hint();
  if (m > 0) {
    const Tensor dy = contiguousOf(args[0]), x = contiguousOf(args[1]), mean = contiguousOf(args[3]);
    const Tensor rstd = contiguousOf(args[4]), weight = contiguousOf(args[5]);
    checkKernelDtypes(x.dtype(), {&dy, &mean, &rstd, &weight, &grads[1], &grads[2]}, "LayerNormBackwardKernelImpl");
    layerNormBackward(dy, x, mean, rstd, weight, {m, n}, grads[0], grads[1], grads[2]);
  }
  ValueList out;
  for (const auto& g : grads) out.push_back(g.defined() ? Value(g) : Value(None{}));
  return out;
}

}  // namespace

void registerLayerNormOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> "
      "(Tensor, Tensor, Tensor)",
      [](const ValueList& args) {
        const LayerNormLayout l = forwardLayout(args);
        return ValueList{l.out, l.stat, l.stat};
      },
      forwardKernel);
  (void)registry.add(
      "aten::native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, Tensor mean, "
      "Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask) -> (Tensor, Tensor, Tensor)",
      backwardMeta, backwardKernel);
}

}  // namespace fathom
