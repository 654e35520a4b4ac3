// Integer arithmetic that wraps around as PyTorch's does (two's complement), without C++'s
// signed-overflow undefined behaviour; bool adds as `or` and multiplies as `and`; floating types
// compute plainly. Used over OpMath values by the elementwise kernels and reductions.
#pragma once

#include <type_traits>

namespace fathom {

template <class C> C wrapAdd(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) return a || b;
  else if constexpr (std::is_integral_v<C>) {
    using U = std::make_unsigned_t<decltype(a + b)>;
    return static_cast<C>(static_cast<U>(a) + static_cast<U>(b));
  } else return a + b;
}

template <class C> C wrapMul(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) return a && b;
  else if constexpr (std::is_integral_v<C>) {
    using U = std::make_unsigned_t<decltype(a * b)>;
    return static_cast<C>(static_cast<U>(a) * static_cast<U>(b));
  } else return a * b;
}

template <class C> C wrapNeg(C a) {
  if constexpr (std::is_integral_v<C>) {
    using U = std::make_unsigned_t<decltype(+a)>;
    return static_cast<C>(U{0} - static_cast<U>(a));
  } else return -a;
}

// base^exponent by squaring with wrapping products, for exponent >= 0 (ATen's powi_impl).
template <class C> C wrapPow(C base, C exponent) {
  C result = 1;
  while (exponent) {
    if (exponent & 1) result = wrapMul(result, base);
    exponent /= 2;
    base = wrapMul(base, base);
  }
  return result;
}

}  // namespace fathom
