// Masks as PyTorch 1.13's masked_fill and masked_scatter kernels read them: a mask of any dtype
// but bool is read as bytes over its own strides - the first byte of each element, which must be
// 0 or 1 ("Mask tensor can take 0 and 1 values only"). So an int64 mask of 0s and 1s works (and
// 256 reads as 0), uint8 warns in PyTorch (deprecated), and a float mask of 1.0 reads as 0.
#pragma once

#include "engine/tensor/Tensor.h"

namespace fathom {

// A contiguous bool tensor of the mask's sizes holding what 1.13 reads from it.
Tensor maskBytes(const Tensor& mask);

}  // namespace fathom
