#include "engine/interp/ValueDiff.h"

#include <algorithm>
#include <cmath>

namespace fathom {
namespace {

// PyTorch's significant strides: a dimension of size 1 (or any dimension of an empty tensor) is
// never stepped over, so its stride says nothing about the layout - [40, 1, 40, 40] and
// [40, 1, 1, 1] are the same [160, 40, 1, 1] tensor. The debug interpreter compares meta the
// same way (DebugInterpreter.h).
bool significantStridesMatch(const Tensor& x, const Tensor& y) {
  const bool empty = y.numel() == 0;
  for (size_t d = 0; d < y.sizes().size(); ++d)
    if (!empty && y.sizes()[d] != 1 && x.strides()[d] != y.strides()[d]) return false;
  return true;
}

}  // namespace

ValueDiff diffValues(const Value& got, const Value& want, double rtol, double atol) {
  ValueDiff d;
  const auto* x = got.tryAs<Tensor>();
  const auto* y = want.tryAs<Tensor>();
  if (!x || !y || !x->defined() || !y->defined()) {
    d.ok = (!x || !x->defined()) && (!y || !y->defined());  // both absent agrees; one absent does not
    return d;
  }
  d.dtypeMatch = x->dtype() == y->dtype();
  d.sizesMatch = x->sizes() == y->sizes();
  if (!d.sizesMatch) {
    d.ok = false;
    return d;
  }
  d.stridesMatch = significantStridesMatch(*x, *y);
  for (int64_t i = 0; i < y->numel(); ++i) d.scale = std::max(d.scale, std::abs(y->atLinear(i)));
  for (int64_t i = 0; i < x->numel(); ++i) {
    const double a = x->atLinear(i), b = y->atLinear(i);
    if (std::isnan(a) && std::isnan(b)) continue;  // NaN in both agrees
    if (a == b) continue;                          // equal infinities agree
    const double diff = std::abs(a - b);
    d.maxAbsDiff = std::isnan(diff) ? diff : std::max(d.maxAbsDiff, diff);
  }
  d.ok = d.maxAbsDiff <= rtol * d.scale + atol;  // false for NaN
  return d;
}

}  // namespace fathom
