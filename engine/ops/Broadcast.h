// Broadcasting, as ATen's ExpandUtils does it: the broadcast shape of two size lists
// (infer_size) and the geometry of expanding a tensor to a size list (inferExpandGeometry).
// Both are written over SymInt; every decision on a size goes through symEq and so becomes a
// guard with a reason ("broadcast of dim 1") on symbolic sizes.
#pragma once

#include "engine/tensor/TensorMeta.h"

namespace fathom {

// The broadcast of `a` and `b`; throws "The size of tensor a (3) must match the size of tensor
// b (4) at non-singleton dimension 1" when they do not broadcast.
SymIntList broadcastShapes(const SymIntList& a, const SymIntList& b);

struct Geometry {
  SymIntList sizes;
  SymIntList strides;
};

// Sizes and strides of `t` expanded to `sizes` (-1 keeps a dim); new and broadcast dims get
// stride 0. Throws like Tensor.expand on a mismatch.
Geometry expandGeometry(const TensorMeta& t, const SymIntList& sizes);

// "[2, 3]": a size list as PyTorch prints it in messages.
std::string sizesStr(const SymIntList& sizes);

}  // namespace fathom
