// The output of an elementwise op, as PyTorch's TensorIterator decides it: the broadcast shape,
// the common dtype (type promotion with wrapped numbers and zero-dim tensors as their own
// categories), and the output strides:
//   1. all inputs the same shape and contiguous          -> contiguous
//   2. ... and all channels-last                         -> channels-last
//   3. ... and all non-overlapping-and-dense, same strides -> those strides
//   4. otherwise: sort dimensions by the inputs' strides (TensorIterator::reorder_dimensions:
//      insertion sort; the first input that orders two dims decides, broadcast (0) strides
//      abstain, equal strides are broken by the sizes) and lay the output out densely in that
//      order (contiguous when the order is plain row-major).
// Inputs whose dtype differs from the common dtype are first copied, as TensorIterator does, into
// temporaries with preserve_format strides; those temporaries are what the rules above see.
// Operands with a fixed dtype (where's condition) are neither promoted nor part of the common
// dtype, and the output dtype may differ from the common one (comparisons give bool).
//
// Written over SymInt: meta functions call it on fake tensors (decisions become guards) and
// kernels call it on their real tensors' metadata, so both agree by construction.
#pragma once

#include <optional>
#include <vector>

#include "engine/tensor/TensorMeta.h"

namespace fathom {

struct ElementwiseOperand {
  TensorMeta meta;
  bool wrappedNumber = false;  // a Python number argument (Scalar), a zero-dim "wrapped" tensor
  bool fixedDtype = false;     // read in its own dtype: no promotion, no part in the common dtype
};

enum class ElementwisePromotion {
  SameDtype,      // unary ops like neg/relu: every input must have one dtype, kept by the output
  Common,         // add, mul, ...: inputs are promoted to torch.result_type
  CommonToFloat,  // div, exp, ...: as Common, then integers and bool promote to float32
};

struct ElementwiseLayout {
  DType commonDtype = DType::Float32;  // what the functor computes in (output.dtype may differ)
  TensorMeta output;
  // The operands the loop reads: an input itself, or its promoted temporary (other dtype and
  // preserve_format strides) when its dtype differs from the common one.
  std::vector<TensorMeta> operands;
};

// `outputDtype` overrides the output's dtype (comparisons and logical_not: bool); by default it
// is the common dtype.
ElementwiseLayout computeElementwiseLayout(const std::vector<ElementwiseOperand>& inputs,
                                           ElementwisePromotion promotion,
                                           std::optional<DType> outputDtype = std::nullopt);

// The result dtype of an elementwise op over these inputs (torch.result_type with the
// promotion rule), without computing a layout.
DType elementwiseResultType(const std::vector<ElementwiseOperand>& inputs, ElementwisePromotion promotion);

// A zero-dim TensorMeta standing for a Python number of this dtype (bool, int64 or float64).
TensorMeta wrappedNumberMeta(DType dtype);

}  // namespace fathom
