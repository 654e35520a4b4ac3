// Element types, named as PyTorch names them (float32, bfloat16, ...), and PyTorch's type
// promotion. 16-bit floats are stored as 16 bits and computed in float32.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace fathom {

enum class DType : uint8_t {
  Bool, UInt8, Int8, Int16, Int32, Int64, Float16, BFloat16, Float32, Float64,
};
inline constexpr int kNumDTypes = 10;

size_t elementSize(DType t);
bool isFloating(DType t);                 // float16, bfloat16, float32, float64
bool isIntegral(DType t, bool includeBool);
std::string_view dtypeName(DType t);      // "float32"
std::optional<DType> parseDType(std::string_view name);  // "float32" or "torch.float32"
// Short name used in printed graphs: f32, bf16, i64, b8 ...
std::string_view dtypeShortName(DType t);

// torch.promote_types: the smallest type both can be represented in.
DType promoteTypes(DType a, DType b);

// The inputs of an op, by PyTorch's promotion categories: tensors with dims > 0 win over
// zero-dim tensors, which win over Python scalars ("wrapped numbers") - unless a lower category
// is floating and the higher one is not (torch.result_type).
class ResultTypeState {
 public:
  void addTensor(DType t, int64_t dim);
  void addScalar(DType t);  // a Python number: float counts as the default dtype (float32)
  DType result() const;

 private:
  std::optional<DType> dim_, zeroDim_, wrapped_;
};

}  // namespace fathom
