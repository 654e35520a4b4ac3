// Converting a Python number argument to a tensor's element type the way ATen's
// Scalar::to<T>() does (c10::checked_convert): a value outside T's range is an error,
// "value cannot be converted to type int8_t without overflow". Infinities and NaN pass for
// floating types; negative integers wrap into unsigned types (uint8 -1 is 255); bool takes any
// value.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include "engine/core/Error.h"
#include "engine/ops/OpArgs.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {

// C++ type names as c10 prints them in the overflow message.
template <class T> constexpr const char* cTypeName() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
  else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
  else if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
  else if constexpr (std::is_same_v<T, int32_t>) return "int";
  else if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
  else if constexpr (std::is_same_v<T, Half>) return "at::Half";
  else if constexpr (std::is_same_v<T, BFloat16>) return "at::BFloat16";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else return "double";
}

// The lowest finite value of a floating type T (its largest is the negation).
template <class T> double lowestOf() {
  if constexpr (std::is_same_v<T, Half>) return -65504.0;
  else if constexpr (std::is_same_v<T, BFloat16>) return -3.3895313892515355e38;
  else return static_cast<double>(std::numeric_limits<T>::lowest());
}

// c10::overflows<T>(value) for a Python number.
template <class T>
bool scalarOverflows(const ScalarArg& s) {
  if constexpr (std::is_same_v<T, bool>) {
    return false;
  } else if (s.isBool()) {
    return false;
  } else if (s.isFloating()) {
    constexpr bool floating = !std::is_integral_v<T>;
    if (floating && std::isinf(s.real)) return false;
    if (std::isnan(s.real)) return !floating;
    if constexpr (std::is_integral_v<T>) {
      return s.real < static_cast<double>(std::numeric_limits<T>::lowest()) ||
             s.real > static_cast<double>(std::numeric_limits<T>::max());
    } else {
      return s.real < lowestOf<T>() || s.real > -lowestOf<T>();
    }
  } else if constexpr (std::is_integral_v<T>) {
    const int64_t v = s.integer;
    if constexpr (std::is_unsigned_v<T>) {  // negative values wrap (two's complement)
      if (v < 0) return 0 - static_cast<uint64_t>(v) > std::numeric_limits<T>::max();
      return static_cast<uint64_t>(v) > std::numeric_limits<T>::max();
    } else {
      return v < std::numeric_limits<T>::lowest() || v > std::numeric_limits<T>::max();
    }
  } else {
    const double v = static_cast<double>(s.integer);
    return v < lowestOf<T>() || v > -lowestOf<T>();
  }
}

// The number as element type T, or an OpError when it does not fit.
template <class T>
T checkedScalarTo(const ScalarArg& s) {
  FATHOM_CHECK(!scalarOverflows<T>(s), "value cannot be converted to type ", cTypeName<T>(), " without overflow");
  if (s.isFloating()) return convertValue<T>(s.real);
  return convertValue<T>(s.integer);
}

// The same check for a runtime dtype.
inline void checkScalarFits(const ScalarArg& s, DType dtype) {
  dispatchDType(dtype, [&](auto tag) { (void)checkedScalarTo<typename decltype(tag)::type>(s); });
}

}  // namespace fathom
