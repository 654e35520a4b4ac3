// Typed access to an op's bound arguments (one Value per schema argument, see OpRegistry.h),
// shared by every op family. Meta functions see tensors as TensorMeta, kernels as Tensor;
// metaArgs() turns a kernel's arguments into a meta function's, so a kernel can run the same
// layout helpers its op's meta path runs (without calling the registered meta function).
#pragma once

#include <optional>

#include "engine/core/Error.h"
#include "engine/ops/Value.h"

namespace fathom {

// A Python number argument (Scalar): its dtype as a wrapped number (bool, int64 or float64)
// and its value both as double and, for ints, exactly.
struct ScalarArg {
  DType dtype = DType::Int64;
  double real = 0;
  int64_t integer = 0;
  bool isFloating() const { return dtype == DType::Float64; }
  bool isBool() const { return dtype == DType::Bool; }
  // The value converted to element type T (static_cast semantics, as Scalar::to<T>()).
  template <class T> T to() const;
};

ScalarArg scalarArg(const Value& v);
const TensorMeta& metaArg(const ValueList& args, size_t i);
const Tensor& tensorArg(const ValueList& args, size_t i);
SymInt symIntArg(const ValueList& args, size_t i);
int64_t intArg(const ValueList& args, size_t i);  // must be concrete
bool boolArg(const ValueList& args, size_t i);
std::optional<SymInt> optionalSymIntArg(const ValueList& args, size_t i);
std::optional<DType> optionalDTypeArg(const ValueList& args, size_t i);
std::optional<MemoryFormat> optionalMemoryFormatArg(const ValueList& args, size_t i);
// int[1]? dims: nullopt for None.
std::optional<IntList> optionalIntListArg(const ValueList& args, size_t i);

// `args` with every Tensor replaced by its TensorMeta (lists included).
ValueList metaArgs(const ValueList& args);

// PyTorch's name of a dtype in messages about dtypes ("Float", "Long", "Bool").
const char* scalarTypeName(DType t);

template <class T>
T ScalarArg::to() const {
  if constexpr (std::is_integral_v<T>) {
    if (!isFloating()) return static_cast<T>(integer);
  }
  return static_cast<T>(real);
}

}  // namespace fathom
