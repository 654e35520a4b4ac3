// Dtype dispatch: turns a runtime DType into a compile-time element type, so kernels are written
// once as templates. `OpMath<T>` is the type arithmetic happens in: 16-bit floats compute in
// float32 (as PyTorch's CPU kernels do) and are rounded once when stored.
#pragma once

#include <cstdint>
#include <type_traits>

#include "engine/core/DType.h"
#include "engine/core/Half.h"

namespace fathom {

template <class T>
struct TypeTag {
  using type = T;
};

// Calls f(TypeTag<T>{}) with T the storage type of `dtype`; returns what f returns.
template <class F>
decltype(auto) dispatchDType(DType dtype, F&& f) {
  switch (dtype) {
    case DType::Bool: return f(TypeTag<bool>{});
    case DType::UInt8: return f(TypeTag<uint8_t>{});
    case DType::Int8: return f(TypeTag<int8_t>{});
    case DType::Int16: return f(TypeTag<int16_t>{});
    case DType::Int32: return f(TypeTag<int32_t>{});
    case DType::Int64: return f(TypeTag<int64_t>{});
    case DType::Float16: return f(TypeTag<Half>{});
    case DType::BFloat16: return f(TypeTag<BFloat16>{});
    case DType::Float32: return f(TypeTag<float>{});
    case DType::Float64: return f(TypeTag<double>{});
  }
  return f(TypeTag<float>{});  // unreachable: every enumerator is handled above
}

template <class T> struct OpMathT { using type = T; };
template <> struct OpMathT<Half> { using type = float; };
template <> struct OpMathT<BFloat16> { using type = float; };
template <class T> using OpMath = typename OpMathT<T>::type;

template <class T>
inline constexpr bool kIsReducedFloat = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// static_cast between element types, through float for the 16-bit ones (which only convert
// to and from float).
template <class To, class From>
inline To convertValue(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (kIsReducedFloat<From>) {
    return convertValue<To>(static_cast<float>(v));
  } else if constexpr (kIsReducedFloat<To>) {
    return To(static_cast<float>(v));
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace fathom
