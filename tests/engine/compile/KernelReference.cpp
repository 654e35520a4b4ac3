// KernelReference: one point at a time, one instruction at a time (see KernelReference.h).
#include "tests/engine/compile/KernelReference.h"

#include <cmath>
#include <cstring>
#include <functional>

#include "engine/compile/CudaSource.h"

namespace fathom::testing {
namespace {

struct Value {
  double f = 0;   // float kinds
  int64_t i = 0;  // integer kinds and bool
};

Value fit(ScalarKind k, Value v) {
  switch (k) {
    case ScalarKind::F32: v.f = static_cast<float>(v.f); break;
    case ScalarKind::Bool: v.i = v.i != 0; break;
    case ScalarKind::U8: v.i = static_cast<uint8_t>(v.i); break;
    case ScalarKind::I8: v.i = static_cast<int8_t>(v.i); break;
    case ScalarKind::I32: v.i = static_cast<int32_t>(v.i); break;
    default: break;
  }
  return v;
}

Value loadValue(const std::byte* p, ScalarKind k) {
  auto read = [p](auto x) { std::memcpy(&x, p, sizeof x); return x; };
  switch (k) {
    case ScalarKind::F32: return {read(float{}), 0};
    case ScalarKind::F64: return {read(double{}), 0};
    case ScalarKind::Bool: return {0, read(uint8_t{}) != 0};
    case ScalarKind::U8: return {0, read(uint8_t{})};
    case ScalarKind::I8: return {0, read(int8_t{})};
    case ScalarKind::I32: return {0, read(int32_t{})};
    case ScalarKind::I64: return {0, read(int64_t{})};
  }
  return {};
}

void storeValue(std::byte* p, ScalarKind k, Value v) {
  auto write = [p](auto x) { std::memcpy(p, &x, sizeof x); };
  switch (k) {
    case ScalarKind::F32: write(static_cast<float>(v.f)); break;
    case ScalarKind::F64: write(v.f); break;
    case ScalarKind::Bool: write(static_cast<uint8_t>(v.i != 0)); break;
    case ScalarKind::U8: write(static_cast<uint8_t>(v.i)); break;
    case ScalarKind::I8: write(static_cast<int8_t>(v.i)); break;
    case ScalarKind::I32: write(static_cast<int32_t>(v.i)); break;
    case ScalarKind::I64: write(v.i); break;
  }
}

Value cast(ScalarKind from, ScalarKind to, Value v) {
  if (to == ScalarKind::Bool) return {0, isFloatKind(from) ? v.f != 0 : v.i != 0};
  if (isFloatKind(to)) return fit(to, {isFloatKind(from) ? v.f : double(v.i), 0});
  return fit(to, {0, isFloatKind(from) ? int64_t(v.f) : v.i});  // C++: truncation toward zero
}

double unaryFloat(KOp op, double x) {
  switch (op) {
    case KOp::Neg: return -x;
    case KOp::Abs: return std::fabs(x);
    case KOp::Exp: return std::exp(x);
    case KOp::Log: return std::log(x);
    case KOp::Tanh: return std::tanh(x);
    case KOp::Erf: return std::erf(x);
    case KOp::Sqrt: return std::sqrt(x);
    case KOp::Floor: return std::floor(x);
    case KOp::Ceil: return std::ceil(x);
    case KOp::Not: return x == 0;
    default: return x;
  }
}

Value unary(KOp op, ScalarKind t, Value a) {
  if (isFloatKind(t)) return fit(t, {unaryFloat(op, a.f), 0});
  switch (op) {
    case KOp::Neg: return fit(t, {0, -a.i});
    case KOp::Abs: return fit(t, {0, a.i < 0 ? -a.i : a.i});
    case KOp::Not: return fit(t, {0, t == ScalarKind::Bool ? !a.i : ~a.i});
    case KOp::Floor:
    case KOp::Ceil: return a;
    default: return cast(ScalarKind::F64, t, {unaryFloat(op, double(a.i)), 0});  // through double
  }
}

// NaN-propagating max/min (torch.maximum); `a != a` is false for integers.
template <class T>
T maxOf(T a, T b) { return (a > b || a != a) ? a : b; }
template <class T>
T minOf(T a, T b) { return (a < b || a != a) ? a : b; }

template <class T>
std::optional<T> arithmetic(KOp op, T a, T b) {
  switch (op) {
    case KOp::Add: return a + b;
    case KOp::Sub: return a - b;
    case KOp::Mul: return a * b;
    case KOp::Div: return a / b;
    case KOp::Max: return maxOf(a, b);
    case KOp::Min: return minOf(a, b);
    default: return std::nullopt;
  }
}

template <class T>
bool compare(KOp op, T a, T b) {
  switch (op) {
    case KOp::Lt: return a < b;
    case KOp::Le: return a <= b;
    case KOp::Gt: return a > b;
    case KOp::Ge: return a >= b;
    case KOp::Eq: return a == b;
    case KOp::Ne: return a != b;
    case KOp::And: return a && b;
    default: return a || b;  // Or
  }
}

Value binary(KOp op, ScalarKind operand, ScalarKind t, Value a, Value b) {
  bool f = isFloatKind(operand);
  if (auto r = f ? arithmetic(op, a.f, b.f) : std::nullopt) return fit(t, {*r, 0});
  if (auto r = f ? std::nullopt : arithmetic(op, a.i, b.i)) return fit(t, {0, *r});
  if (!f && t != ScalarKind::Bool && (op == KOp::And || op == KOp::Or))  // bitwise on integers
    return fit(t, {0, op == KOp::And ? (a.i & b.i) : (a.i | b.i)});
  return {0, f ? compare(op, a.f, b.f) : compare(op, a.i, b.i)};
}

int64_t extent(const KernelInt& n, const std::vector<int64_t>& params) { return n.isConstant() ? n.constant : params[n.param]; }

class Evaluator {
 public:
  Evaluator(const LoweredKernel& k, const std::vector<Tensor>& buffers, const std::vector<int64_t>& params)
      : k_(k), buffers_(buffers), params_(params) {}

  // The element of buffer `b` at loop indices `idx`.
  std::byte* element(int32_t b, const std::vector<int64_t>& idx) const {
    const KernelBuffer& buf = k_.buffers[b];
    int64_t offset = 0;
    if (buf.shape.empty()) {
      for (size_t d = 0; d < idx.size(); ++d) offset += idx[d] * extent(buf.strides[d], params_);
    } else {
      int64_t lin = 0;
      for (size_t d = 0; d < idx.size(); ++d) lin = lin * extent(k_.loop[d], params_) + idx[d];
      for (size_t d = buf.shape.size(); d-- > 0;) {
        int64_t n = extent(buf.shape[d], params_);
        offset += (lin % n) * extent(buf.strides[d], params_);
        lin /= n;
      }
    }
    const Tensor& t = buffers_[b];
    return static_cast<std::byte*>(t.data()) + offset * int64_t(elementSize(t.dtype()));
  }

  std::vector<Value> point(const std::vector<int64_t>& idx) const {
    std::vector<Value> v;
    for (const auto& in : k_.body) {
      Value a = in.a >= 0 ? v[in.a] : Value{}, b = in.b >= 0 ? v[in.b] : Value{};
      ScalarKind operand = in.a >= 0 ? k_.body[in.a].type : in.type;
      if (in.op == KOp::Load) v.push_back(loadValue(element(in.buffer, idx), k_.buffers[in.buffer].type));
      else if (in.op == KOp::Const) v.push_back(fit(in.type, {in.fconst, in.iconst}));
      else if (in.op == KOp::Cast) v.push_back(cast(operand, in.type, a));
      else if (in.op == KOp::Select) v.push_back(a.i ? b : v[in.c]);
      else if (in.b >= 0) v.push_back(binary(in.op, operand, in.type, a, b));
      else v.push_back(unary(in.op, in.type, a));
    }
    return v;
  }

  void reduce(const std::vector<int64_t>& outer, const std::vector<std::pair<int64_t, int64_t>>& inner) const;

  const LoweredKernel& k_;
  const std::vector<Tensor>& buffers_;
  const std::vector<int64_t>& params_;
};

// Calls fn for every index vector in the ranges, the last fastest.
void forEach(const std::vector<std::pair<int64_t, int64_t>>& ranges, std::vector<int64_t>& idx, size_t d,
             const std::function<void(std::vector<int64_t>&)>& fn) {
  if (d == ranges.size()) return fn(idx);
  for (int64_t i = ranges[d].first; i < ranges[d].second; ++i) {
    idx.push_back(i);
    forEach(ranges, idx, d + 1, fn);
    idx.pop_back();
  }
}

void Evaluator::reduce(const std::vector<int64_t>& outer, const std::vector<std::pair<int64_t, int64_t>>& inner) const {
  std::vector<Value> acc;
  for (const auto& r : k_.reductions) {
    bool isSum = r.op == ReduceOp::Sum || r.op == ReduceOp::Mean, isMax = r.op == ReduceOp::Max;
    if (isFloatKind(r.type)) acc.push_back(fit(r.type, {isSum ? 0.0 : isMax ? -INFINITY : INFINITY, 0}));
    else acc.push_back(cast(ScalarKind::I64, r.type, {0, isSum ? 0 : isMax ? INT64_MIN : INT64_MAX}));
  }
  std::vector<int64_t> idx = outer;
  forEach(inner, idx, 0, [&](std::vector<int64_t>& at) {
    std::vector<Value> v = point(at);
    for (const auto& st : k_.stores) storeValue(element(st.buffer, at), k_.buffers[st.buffer].type, v[st.value]);
    for (size_t r = 0; r < acc.size(); ++r) {
      const auto& red = k_.reductions[r];
      KOp op = red.op == ReduceOp::Max ? KOp::Max : red.op == ReduceOp::Min ? KOp::Min : KOp::Add;
      acc[r] = binary(op, red.type, red.type, acc[r], v[red.value]);
    }
  });
  int64_t count = 1;
  for (size_t d = outer.size(); d < k_.loop.size(); ++d) count *= extent(k_.loop[d], params_);
  std::vector<int64_t> at = outer;
  at.resize(k_.loop.size(), 0);  // the output element: reduced indices at 0
  for (size_t r = 0; r < acc.size(); ++r) {
    const auto& red = k_.reductions[r];
    Value a = acc[r];
    if (red.op == ReduceOp::Mean) a = binary(KOp::Div, red.type, red.type, a, cast(ScalarKind::I64, red.type, {0, count}));
    storeValue(element(red.buffer, at), k_.buffers[red.buffer].type, a);
  }
}

}  // namespace

Status referenceRun(const LoweredKernel& k, const std::vector<Tensor>& buffers, const std::vector<int64_t>& params,
                    int64_t begin, int64_t end) {
  FATHOM_TRY(checkKernelForCuda(k));
  if (buffers.size() != k.buffers.size() || params.size() < k.params.size())
    return invalidInput("wrong number of buffers or parameters", k.name);
  Evaluator e(k, buffers, params);
  int outer = int(k.loop.size()) - k.reduceDims;
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (size_t d = 0; d < k.loop.size(); ++d)
    ranges.push_back(d == 0 && outer > 0 ? std::pair{begin, end} : std::pair{int64_t{0}, extent(k.loop[d], params)});
  if (k.loop.empty() && begin >= end) return {};
  std::vector<std::pair<int64_t, int64_t>> outerRanges(ranges.begin(), ranges.begin() + outer);
  std::vector<std::pair<int64_t, int64_t>> innerRanges(ranges.begin() + outer, ranges.end());
  std::vector<int64_t> idx;
  if (outer == 0 && begin >= end) return {};
  forEach(outerRanges, idx, 0, [&](std::vector<int64_t>& at) {
    if (k.reduceDims > 0) return e.reduce(at, innerRanges);
    std::vector<Value> v = e.point(at);
    for (const auto& st : k.stores) storeValue(e.element(st.buffer, at), k.buffers[st.buffer].type, v[st.value]);
  });
  return {};
}

}  // namespace fathom::testing
