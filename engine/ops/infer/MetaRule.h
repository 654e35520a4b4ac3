// MetaRule: what meta inference fits for one output of an op that has a kernel and no meta
// function - each output dim as a simple expression of the input dims, and the output's layout -
// printable ("out0 = [in0.d0, in0.d1 + in1.d1], contiguous") and evaluable on SymInt sizes, so
// the same rule serves concrete checks and symbolic traces.
//
// Inputs are the op's tensor arguments in schema order, a Tensor[] argument's items one by one:
// `in0`, `in1`, ... (`TensorSlot` says where each sits in the argument list).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/tensor/TensorMeta.h"

namespace fathom::infer {

// Where input `i` sits in the bound arguments: args[arg], or args[arg][item] for a Tensor[].
struct TensorSlot {
  size_t arg = 0;
  std::optional<size_t> item;
};

// One input dimension: inI.dK.
struct DimRef {
  int input = 0;
  int dim = 0;
  bool operator==(const DimRef&) const = default;
};

// An output dimension as an expression of input dims. The kinds are the shapes the fitter tries,
// simplest first:
//   Linear    constant + sum of terms        (a constant, an input dim, a dim + pad, a cat's sum)
//   Product   terms[0] * terms[1]            (a flatten)
//   FloorDiv  terms[0] // divisor            (a stride-2 downsample)
struct DimRule {
  enum class Kind { Linear, Product, FloorDiv };
  Kind kind = Kind::Linear;
  std::vector<DimRef> terms;
  int64_t constant = 0;  // Linear only
  int64_t divisor = 1;   // FloorDiv only

  int64_t eval(const std::vector<std::vector<int64_t>>& inputSizes) const;
  SymInt eval(const std::vector<TensorMeta>& inputs) const;
  std::string str() const;  // "in0.d1 + in1.d1", "in0.d0 * in0.d1", "in0.d2 // 2", "3"
};

// How the output is laid out:
//   Contiguous  row-major, offset 0
//   DenseLike   dense, its dims ordered as input `input`'s dims `dimMap[d]` are (the elementwise
//               rule; dimMap[d] = -1 for an output dim no input dim stands for)
//   SuggestedFormat  row-major or channels-last as input `input` suggests (c10's
//               suggest_memory_format: what NN ops such as pooling allocate)
//   ViewOf      a view of input `input`: stride[d] = input stride[dimMap[d]], the input's offset
struct LayoutRule {
  enum class Kind { Contiguous, DenseLike, SuggestedFormat, ViewOf };
  Kind kind = Kind::Contiguous;
  int input = 0;
  std::vector<int> dimMap;

  // "contiguous", "dense like in0", "dense like in0 dims [1, 0]", "memory format of in0", ...
  std::string str() const;
};

// An output's dtype: input `likeInput`'s, or `fixed` when no input has the output's dtype.
struct DTypeRule {
  int likeInput = -1;
  DType fixed = DType::Float32;
};

struct OutputRule {
  std::vector<DimRule> dims;
  LayoutRule layout;
  DTypeRule dtype;

  // "[in0.d0, in0.d1 + in1.d1], contiguous"
  std::string str() const;
  // The output's meta from the inputs' metas (sizes may be symbolic). Stride order decisions on
  // symbolic strides become guards, as in PyTorch's own elementwise meta.
  TensorMeta apply(const std::vector<TensorMeta>& inputs) const;
};

}  // namespace fathom::infer
