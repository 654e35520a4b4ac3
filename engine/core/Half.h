// 16-bit floating types as storage: float16 (IEEE binary16) and bfloat16. Arithmetic happens in
// float32 through the implicit conversions, as PyTorch's CPU kernels do; conversion back rounds
// to nearest even.
#pragma once

#include <cstdint>
#include <cstring>

namespace fathom {

inline uint32_t floatBits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float bitsFloat(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

struct BFloat16 {
  uint16_t bits = 0;
  BFloat16() = default;
  BFloat16(float f) {  // NOLINT: implicit like c10::BFloat16
    uint32_t u = floatBits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) { bits = 0x7fc0; return; }  // NaN stays NaN
    u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
    bits = static_cast<uint16_t>(u >> 16);
  }
  operator float() const { return bitsFloat(static_cast<uint32_t>(bits) << 16); }
};

struct Half {
  uint16_t bits = 0;
  Half() = default;
  Half(float f) { bits = fromFloat(f); }  // NOLINT: implicit like c10::Half
  operator float() const { return toFloat(bits); }

  static float toFloat(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    if (exp == 0x1f) return bitsFloat(sign | 0x7f800000u | (mant << 13));  // inf / nan
    if (exp == 0) {
      if (mant == 0) return bitsFloat(sign);
      // Subnormal: value = mant * 2^-24.
      float v = static_cast<float>(mant) * 5.9604644775390625e-8f;
      return sign ? -v : v;
    }
    return bitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
  }

  static uint16_t fromFloat(float f) {
    uint32_t u = floatBits(f);
    const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
    u &= 0x7fffffffu;
    if (u > 0x7f800000u) return sign | 0x7e00u;                // nan
    if (u >= 0x477ff000u) return sign | 0x7c00u;               // overflow to inf (>= 65520)
    if (u < 0x38800000u) {                                     // subnormal or zero in half
      // Scale into half's subnormal range and round to nearest even via float addition.
      float scaled = bitsFloat(u) * 16777216.0f;  // value / 2^-24
      uint32_t m = static_cast<uint32_t>(scaled);
      float frac = scaled - static_cast<float>(m);
      if (frac > 0.5f || (frac == 0.5f && (m & 1u))) ++m;
      return sign | static_cast<uint16_t>(m);
    }
    uint32_t mant = u & 0x7fffffu;
    uint32_t exp = (u >> 23) - 112;
    uint32_t h = (exp << 10) | (mant >> 13);
    uint32_t rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // may carry into the exponent: fine
    return sign | static_cast<uint16_t>(h);
  }
};

}  // namespace fathom
