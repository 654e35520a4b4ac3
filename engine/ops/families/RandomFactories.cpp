// Random factories: rand, randn, randperm, rand_like, randn_like. Their values come from Fathom's
// generator (engine/core/Random.h), so they cannot equal PyTorch's; layouts, dtypes, errors and
// distributions do: rand is uniform in [0, 1), randn standard normal (Box-Muller), randperm a
// permutation of 0..n-1 (Fisher-Yates). Results are fresh contiguous tensors (the *_like ones:
// laid out as memory_format says, preserve_format by default), float32 unless a dtype is given
// (randperm: int64). Element i uses the draw's values at i (randn: 2i and 2i + 1), so a seed gives
// the same tensor whatever the thread count.
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include "engine/core/Error.h"
#include "engine/core/Random.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

enum class Distribution { Uniform, Normal };

TensorMeta freshContiguous(SymIntList sizes, DType dtype) {
  TensorMeta like;
  like.dtype = dtype;
  return contiguousOutput(like, std::move(sizes));
}

void checkDistributionDtype(Distribution d, DType dtype) {
  FATHOM_CHECK(isFloating(dtype), d == Distribution::Uniform ? "\"check_uniform_bounds\"" : "\"normal_kernel_cpu\"",
               " not implemented for '", scalarTypeName(dtype), "'");
}

// rand / randn(size, *, dtype, layout, device, pin_memory)
TensorMeta sizedLayout(const ValueList& margs, Distribution d) {
  SymIntList sizes = toSymIntList(margs.at(0));
  for (const auto& s : sizes)
    FATHOM_CHECK(!symLt(s, 0, "factory: negative size"), "Trying to create tensor with negative dimension ", s.str(),
                 ": ", sizesStr(sizes));
  const DType dtype = optionalDTypeArg(margs, 1).value_or(DType::Float32);
  checkDistributionDtype(d, dtype);
  return freshContiguous(std::move(sizes), dtype);
}

// rand_like / randn_like(self, *, dtype, layout, device, pin_memory, memory_format)
TensorMeta likeLayout(const ValueList& margs, Distribution d) {
  const TensorMeta& self = metaArg(margs, 0);
  const DType dtype = optionalDTypeArg(margs, 1).value_or(self.dtype);
  checkDistributionDtype(d, dtype);
  return freshLike(self, dtype, likeStrides(self, optionalMemoryFormatArg(margs, 5)));
}

// The largest value below 1 of a floating type, where a uniform value rounds up to 1.
template <class T> T belowOne() {
  if constexpr (std::is_same_v<T, Half>) return T(1.0f - 1.0f / 2048);
  else if constexpr (std::is_same_v<T, BFloat16>) return T(1.0f - 1.0f / 256);
  else return T(std::nextafter(OpMath<T>(1), OpMath<T>(0)));
}

// Fills `out` (any layout) element by element in row-major order.
void fillRandom(const Tensor& out, Distribution d) {
  const int64_t n = out.numel();
  const RandomDraw draw = defaultGenerator().draw(static_cast<uint64_t>(d == Distribution::Normal ? 2 * n : n));
  Tensor dense = allocateTensor(freshContiguous(out.meta().sizes, out.dtype()));
  dispatchDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>) {
      T* p = dense.dataAs<T>();
      for (int64_t i = 0; i < n; ++i) {
        const auto k = static_cast<uint64_t>(i);
        if (d == Distribution::Uniform) {
          const T v = T(static_cast<OpMath<T>>(draw.uniform(k)));
          p[i] = static_cast<double>(OpMath<T>(v)) < 1.0 ? v : belowOne<T>();
        } else {
          const double u1 = 1.0 - draw.uniform(2 * k), u2 = draw.uniform(2 * k + 1);  // u1 in (0, 1]
          p[i] = T(static_cast<OpMath<T>>(std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2)));
        }
      }
    }
  });
  copyInto(out, dense);
}

// randperm(n, *, dtype=None (int64), layout, device, pin_memory)
TensorMeta randpermLayout(const ValueList& margs) {
  const SymInt n = symIntArg(margs, 0);
  FATHOM_CHECK(!symLt(n, 0, "randperm: n >= 0"), "n must be non-negative, got", n.str());
  return freshContiguous({n}, optionalDTypeArg(margs, 1).value_or(DType::Int64));
}

ValueList randpermKernel(const ValueList& args) {
  Tensor out = allocateTensor(randpermLayout(metaArgs(args)));
  const int64_t n = out.numel();
  std::vector<int64_t> perm(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
  const RandomDraw draw = defaultGenerator().draw(static_cast<uint64_t>(n));
  for (int64_t i = n - 1; i > 0; --i) {
    const auto j = static_cast<int64_t>(draw.uniform(static_cast<uint64_t>(i)) * static_cast<double>(i + 1));
    std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(std::min(j, i))]);
  }
  for (int64_t i = 0; i < n; ++i) out.setLinear(i, static_cast<double>(perm[static_cast<size_t>(i)]));
  return {out};
}

#define FACTORY_OPTIONS "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None"

void addDistribution(OpRegistry& r, const std::string& name, Distribution d) {
  (void)r.add(("aten::" + name + "(int[] size, *, " FACTORY_OPTIONS ") -> Tensor").c_str(),
              [d](const ValueList& a) { return ValueList{sizedLayout(a, d)}; },
              [d](const ValueList& a) {
                Tensor out = allocateTensor(sizedLayout(metaArgs(a), d));
                fillRandom(out, d);
                return ValueList{out};
              });
  (void)r.add(("aten::" + name + "_like(Tensor self, *, " FACTORY_OPTIONS ", MemoryFormat? memory_format=None) -> Tensor")
                  .c_str(),
              [d](const ValueList& a) { return ValueList{likeLayout(a, d)}; },
              [d](const ValueList& a) {
                Tensor out = allocateTensor(likeLayout(metaArgs(a), d));
                fillRandom(out, d);
                return ValueList{out};
              });
}

}  // namespace

void registerRandomFactories(OpRegistry& registry) {
  addDistribution(registry, "rand", Distribution::Uniform);
  addDistribution(registry, "randn", Distribution::Normal);
  // PyTorch's schema writes dtype=4 (the ordinal of Long); None means int64 here.
  (void)registry.add("aten::randperm(int n, *, " FACTORY_OPTIONS ") -> Tensor",
                     [](const ValueList& a) { return ValueList{randpermLayout(a)}; }, randpermKernel);
}

#undef FACTORY_OPTIONS

}  // namespace fathom
