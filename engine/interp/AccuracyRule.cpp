#include "engine/interp/AccuracyRule.h"

#include <cmath>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/tensor/TensorMeta.h"

namespace fathom {
namespace {

bool allclose(const Tensor& got, const Tensor& reference, double tol) {
  for (int64_t i = 0; i < got.numel(); ++i) {
    const double a = got.atLinear(i), b = reference.atLinear(i);
    if (std::isnan(a) && std::isnan(b)) continue;
    if (a == b) continue;  // equal infinities
    if (!(std::abs(a - b) <= tol + tol * std::abs(b))) return false;
  }
  return true;
}

// `same`'s multiplier: small tensors and 1x1 spatial maps have noisy errors.
double multiplierFor(const Tensor& t) {
  const auto& s = t.sizes();
  const bool spatial1x1 = s.size() == 4 && s[2] == 1 && s[3] == 1;
  return t.numel() < 1000 || spatial1x1 ? 3.0 : 2.0;
}

}  // namespace

double rmse(const Tensor& a, const Tensor& b) {
  double sum = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    const double d = a.atLinear(i) - b.atLinear(i);
    sum += d * d;
  }
  return a.numel() ? std::sqrt(sum / static_cast<double>(a.numel())) : 0.0;
}

AccuracyJudgement judgeAccuracy(const Tensor& got, const Tensor& reference, const Tensor& fp64, double tol) {
  AccuracyJudgement j;
  j.error = rmse(got, fp64);
  j.referenceError = rmse(reference, fp64);
  j.allowed = multiplierFor(reference) * j.referenceError + tol / 10;
  if (allclose(got, reference, tol)) {
    j.allclose = j.ok = true;
  } else {
    j.ok = std::isnan(j.referenceError) || j.error <= j.allowed;
  }
  return j;
}

Result<ValueList> widenedToFloat64(const ValueList& values) {
  ValueList out;
  out.reserve(values.size());
  for (const auto& v : values) {
    const auto* t = v.tryAs<Tensor>();
    if (!t || !t->defined() || !isFloating(t->dtype())) {
      out.push_back(v);
      continue;
    }
    TensorMeta wide = t->meta();
    wide.dtype = DType::Float64;
    wide.strides = contiguousStrides(wide.sizes);
    wide.storageOffset = 0;
    try {
      out.push_back(Value(convertedTo(*t, wide)));
    } catch (const OpError& e) {  // the memory limit refused the copy
      return invalidInput(e.what());
    }
  }
  return out;
}

namespace {

void widenDtype(Value& v) {
  if (auto* t = std::get_if<DType>(&v.v); t && isFloating(*t)) *t = DType::Float64;
}

}  // namespace

Graph withFloat64DtypeArgs(Graph graph) {
  for (Node& n : graph.mutableNodes()) {
    if (n.kind != NodeKind::Call) continue;
    for (Value& a : n.args) widenDtype(a);
    for (auto& [name, v] : n.kwargs) widenDtype(v);
  }
  return graph;
}

}  // namespace fathom
