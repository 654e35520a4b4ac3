// Broadcasting, as ATen's ExpandUtils does it: the broadcast shape of two size lists
// (infer_size) and the geometry of expanding a tensor to a size list (inferExpandGeometry).
// Both are written over SymInt; every decision on a size goes through symEq and so becomes a
// guard with a reason on symbolic sizes ("broadcast: dim 1 of %mask (s1) vs dim 1 of %scores (128)").
#pragma once

#include <string_view>

#include "engine/tensor/TensorMeta.h"

namespace fathom {

// The broadcast of `a` and `b`; throws "The size of tensor a (3) must match the size of tensor
// b (4) at non-singleton dimension 1" when they do not broadcast. `aName`/`bName` name the
// operands in guard reasons; "{arg1}" stands for the op's argument 1, which the shape
// environment replaces with that node's name ("%scores").
SymIntList broadcastShapes(const SymIntList& a, const SymIntList& b, std::string_view aName = "tensor a",
                           std::string_view bName = "tensor b");

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
