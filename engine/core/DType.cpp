#include "engine/core/DType.h"

#include <array>
#include <cassert>

namespace fathom {
namespace {

struct DTypeInfo {
  std::string_view name;
  std::string_view shortName;
  size_t size;
};

constexpr std::array<DTypeInfo, kNumDTypes> kInfo = {{
    {"bool", "b8", 1},
    {"uint8", "u8", 1},
    {"int8", "i8", 1},
    {"int16", "i16", 2},
    {"int32", "i32", 4},
    {"int64", "i64", 8},
    {"float16", "f16", 2},
    {"bfloat16", "bf16", 2},
    {"float32", "f32", 4},
    {"float64", "f64", 8},
}};

const DTypeInfo& info(DType t) { return kInfo[static_cast<size_t>(t)]; }

}  // namespace

size_t elementSize(DType t) { return info(t).size; }

bool isFloating(DType t) {
  return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 || t == DType::Float64;
}

bool isIntegral(DType t, bool includeBool) {
  if (t == DType::Bool) return includeBool;
  return !isFloating(t);
}

std::string_view dtypeName(DType t) { return info(t).name; }
std::string_view dtypeShortName(DType t) { return info(t).shortName; }

std::optional<DType> parseDType(std::string_view name) {
  if (name.starts_with("torch.")) name.remove_prefix(6);
  for (int i = 0; i < kNumDTypes; ++i)
    if (kInfo[i].name == name) return static_cast<DType>(i);
  // PyTorch's aliases.
  if (name == "float" ) return DType::Float32;
  if (name == "double") return DType::Float64;
  if (name == "half") return DType::Float16;
  if (name == "long") return DType::Int64;
  if (name == "int") return DType::Int32;
  if (name == "short") return DType::Int16;
  return std::nullopt;
}

DType promoteTypes(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::Bool) return b;
  if (b == DType::Bool) return a;
  const bool fa = isFloating(a), fb = isFloating(b);
  if (fa != fb) return fa ? a : b;  // float wins over integers, whatever the widths
  if (fa) {
    // float16 with bfloat16 has no common 16-bit type: float32.
    if (elementSize(a) == elementSize(b)) return DType::Float32;
    return elementSize(a) > elementSize(b) ? a : b;
  }
  // Integers. uint8 with int8 needs int16; uint8 with a wider signed type is that type.
  if (a == DType::UInt8 || b == DType::UInt8) {
    DType other = a == DType::UInt8 ? b : a;
    return other == DType::Int8 ? DType::Int16 : other;
  }
  return elementSize(a) > elementSize(b) ? a : b;
}

namespace {
void promoteInto(std::optional<DType>& slot, DType t) { slot = slot ? promoteTypes(*slot, t) : t; }

// at::native::combine_categories: a higher category wins unless it is not floating and the
// lower one is (then they promote), or unless the higher one is bool.
std::optional<DType> combine(std::optional<DType> higher, std::optional<DType> lower) {
  if (higher && isFloating(*higher)) return higher;
  if (!higher) return lower;
  if (*higher == DType::Bool || (lower && isFloating(*lower)))
    return lower ? promoteTypes(*higher, *lower) : *higher;
  return higher;
}
}  // namespace

void ResultTypeState::addTensor(DType t, int64_t dim) {
  promoteInto(dim > 0 ? dim_ : zeroDim_, t);
}

void ResultTypeState::addScalar(DType t) {
  promoteInto(wrapped_, isFloating(t) ? DType::Float32 : t);
}

DType ResultTypeState::result() const {
  auto r = combine(dim_, combine(zeroDim_, wrapped_));
  return r ? *r : DType::Float32;
}

}  // namespace fathom
