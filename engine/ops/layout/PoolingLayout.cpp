// Pooling windows and output sizes (see PoolingLayout.h).
#include "engine/ops/layout/PoolingLayout.h"

#include <limits>

#include "engine/core/Error.h"

namespace fathom {
namespace {

// An int[N] argument: a single int, or a list (its length is checked by the caller).
IntList intsArg(const Value& v) {
  if (v.is<SymInt>()) return {v.as<SymInt>().hint()};
  return toIntList(v);
}

// One entry per pooled dim from a list of one or `spatial` ints, into the last `spatial` slots.
void spread(const IntList& l, int spatial, std::array<int64_t, 3>& out, bool int32) {
  for (int d = 0; d < spatial; ++d) {
    const int64_t v = l.size() == 1 ? l[0] : l[static_cast<size_t>(d)];
    FATHOM_CHECK(!int32 || (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()),
                 "integer out of range");
    out[static_cast<size_t>(3 - spatial + d)] = v;
  }
}

}  // namespace

PoolWindow poolWindowArgs(const ValueList& margs, size_t at, int spatial, const PoolArgRules& rules) {
  const IntList k = intsArg(margs.at(at)), s = intsArg(margs.at(at + 1)), pad = intsArg(margs.at(at + 2));
  const auto fits = [spatial](const IntList& l) { return l.size() == 1 || l.size() == static_cast<size_t>(spatial); };
  FATHOM_CHECK(fits(k), rules.kernel);
  FATHOM_CHECK(s.empty() || fits(s), rules.stride);
  FATHOM_CHECK(fits(pad), rules.padding);
  PoolWindow w;
  w.spatial = spatial;
  spread(k, spatial, w.kernel, rules.int32);
  if (s.empty()) {
    w.stride = w.kernel;
  } else {
    spread(s, spatial, w.stride, rules.int32);
  }
  spread(pad, spatial, w.pad, rules.int32);
  if (!rules.dilation.empty()) {
    const IntList d = intsArg(margs.at(at + 3));
    FATHOM_CHECK(fits(d), rules.dilation);
    spread(d, spatial, w.dilation, rules.int32);
  }
  return w;
}

SymInt pooledSize(const SymInt& in, int64_t k, int64_t pad, int64_t stride, int64_t dilation, bool ceil) {
  FATHOM_CHECK(stride != 0, "stride should not be zero");
  FATHOM_CHECK(pad >= 0, "pad must be non-negative, but got pad: ", pad);
  FATHOM_CHECK(pad <= k / 2, "pad should be at most half of kernel size, but got pad=", pad, " and kernel_size=", k);
  SymInt out = floorDiv(in + SymInt(2 * pad - dilation * (k - 1) - 1 + (ceil ? stride - 1 : 0)), stride) + SymInt(1);
  if (ceil && symGe((out - SymInt(1)) * SymInt(stride), in + SymInt(pad), "pooling: last window starts in the input"))
    out = out - SymInt(1);
  return out;
}

}  // namespace fathom
