// MetaDiff: the first way a claimed output meta (an inferred rule's, or a declared meta
// function's, on concrete sizes) disagrees with the tensor the kernel really returned, worded
// as the debug interpreter words it: "strides: [3072, 1] claimed, [2880, 1] real". Strides of
// size-1 dims and of empty tensors are not significant (PyTorch's rule), as there.
#pragma once

#include <string>

#include "engine/tensor/Tensor.h"
#include "engine/tensor/TensorMeta.h"

namespace fathom::infer {

// "" when they agree.
std::string metaDisagreement(const TensorMeta& claimed, const Tensor& real);

}  // namespace fathom::infer
