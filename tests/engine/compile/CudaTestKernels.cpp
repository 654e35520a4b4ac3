// CudaTestKernels: the cases, one small function each. Buffer and instruction numbers follow the
// order they are added in (inputs before outputs, as KernelIR.h requires).
#include "tests/engine/compile/CudaTestKernels.h"

#include <cmath>
#include <cstring>
#include <functional>

namespace fathom::testing {
namespace {

using S = ScalarKind;
KernelInt C(int64_t v) { return KernelInt::of(v); }
KernelInt P(int32_t slot) { return KernelInt::slot(slot); }

class Builder {
 public:
  Builder(const std::string& name, std::vector<KernelInt> loop, int32_t reduceDims = 0) {
    k.name = name;
    k.nodes = {name};
    k.loop = std::move(loop);
    k.reduceDims = reduceDims;
  }
  int32_t buffer(const std::string& value, S t, std::vector<KernelInt> strides, bool output = false,
                 std::vector<KernelInt> shape = {}) {
    k.buffers.push_back({value, t, output, std::move(shape), std::move(strides)});
    return int32_t(k.buffers.size() - 1);
  }
  int32_t output(const std::string& value, S t, std::vector<KernelInt> strides) { return buffer(value, t, std::move(strides), true); }
  int32_t add(KernelInstr in) {
    k.body.push_back(in);
    return int32_t(k.body.size() - 1);
  }
  int32_t load(int32_t b) { return add({KOp::Load, k.buffers[b].type, -1, -1, -1, b}); }
  int32_t op(KOp op, S t, int32_t a, int32_t b = -1, int32_t c = -1) { return add({op, t, a, b, c}); }
  int32_t f(S t, double v) { return add({KOp::Const, t, -1, -1, -1, -1, v}); }
  int32_t i(S t, int64_t v) { return add({KOp::Const, t, -1, -1, -1, -1, 0, v}); }
  void store(int32_t v, int32_t b) { k.stores.push_back({v, b}); }
  void reduce(ReduceOp op, int32_t v, int32_t b) { k.reductions.push_back({op, k.body[v].type, v, b}); }
  // The host's expressions do not matter to a generator: only the slots do.
  void params(int n) { k.params.assign(n, SymInt(0)); }
  LoweredKernel k;
};

Tensor filled(const IntList& sizes, DType dtype, const std::function<double(int64_t)>& value) {
  Tensor t = *Tensor::empty(sizes, dtype);
  for (int64_t i = 0; i < t.numel(); ++i) t.setLinear(i, value(i));
  return t;
}
Tensor zeros(const IntList& sizes, DType dtype) { return *Tensor::empty(sizes, dtype); }
double wave(int64_t i) { return 2.0 * std::sin(0.7 * double(i) + 0.3); }

// out[i, j] = x[i, j] + y[j]: y broadcast over rows (stride 0).
KernelCase broadcastAdd() {
  Builder b("pointwise_add", {C(4), C(8)});
  int x = b.buffer("x", S::F32, {C(8), C(1)}), y = b.buffer("y", S::F32, {C(0), C(1)});
  int out = b.output("add", S::F32, {C(8), C(1)});
  b.store(b.op(KOp::Add, S::F32, b.load(x), b.load(y)), out);
  return {b.k, {filled({4, 8}, DType::Float32, wave), filled({8}, DType::Float32, [](int64_t i) { return i * 0.5; }),
                zeros({4, 8}, DType::Float32)}, {}, 0, 4};
}

// exp, tanh, erf, a comparison, select and casts to i32 and bool (x holds an exact zero).
KernelCase unaryChain() {
  Builder b("pointwise.chain-2", {C(3), C(5)});
  int x = b.buffer("x", S::F32, {C(5), C(1)});
  int out = b.output("where", S::F32, {C(5), C(1)}), asInt = b.output("to_i32", S::I32, {C(5), C(1)});
  int asBool = b.output("to_bool", S::Bool, {C(5), C(1)});
  int v = b.load(x), e = b.op(KOp::Exp, S::F32, v), th = b.op(KOp::Tanh, S::F32, e), erf = b.op(KOp::Erf, S::F32, v);
  int positive = b.op(KOp::Gt, S::Bool, v, b.f(S::F32, 0.0));
  int chosen = b.op(KOp::Select, S::F32, positive, th, erf);
  b.store(chosen, out);
  b.store(b.op(KOp::Cast, S::I32, b.op(KOp::Mul, S::F32, v, b.f(S::F32, 10.0))), asInt);
  b.store(b.op(KOp::Cast, S::Bool, v), asBool);
  auto x0 = [](int64_t i) { return i == 7 ? 0.0 : wave(i); };
  return {b.k, {filled({3, 5}, DType::Float32, x0), zeros({3, 5}, DType::Float32), zeros({3, 5}, DType::Int32),
                zeros({3, 5}, DType::Bool)}, {}, 0, 3};
}

// log, sqrt, abs, floor, ceil, neg, sub, div, NaN-propagating max/min, comparisons, not/and/or.
KernelCase mathOps() {
  Builder b("math_ops", {C(16)});
  int x = b.buffer("x", S::F32, {C(1)}), y = b.buffer("y", S::F32, {C(1)});
  int mx = b.output("max", S::F32, {C(1)}), mn = b.output("min", S::F32, {C(1)});
  int mix = b.output("mix", S::F32, {C(1)}), logic = b.output("logic", S::Bool, {C(1)});
  int vx = b.load(x), vy = b.load(y);
  b.store(b.op(KOp::Max, S::F32, vx, vy), mx);
  b.store(b.op(KOp::Min, S::F32, vx, vy), mn);
  int ax = b.op(KOp::Abs, S::F32, vx), root = b.op(KOp::Sqrt, S::F32, ax);
  int lg = b.op(KOp::Log, S::F32, b.op(KOp::Add, S::F32, ax, b.f(S::F32, 1.0)));
  int fc = b.op(KOp::Mul, S::F32, b.op(KOp::Floor, S::F32, vx), b.op(KOp::Ceil, S::F32, vy));
  int quotient = b.op(KOp::Div, S::F32, fc, b.f(S::F32, 3.0));
  b.store(b.op(KOp::Sub, S::F32, b.op(KOp::Add, S::F32, root, lg), b.op(KOp::Neg, S::F32, quotient)), mix);
  int le = b.op(KOp::Le, S::Bool, vx, vy), eq = b.op(KOp::Eq, S::Bool, vx, vy), ne = b.op(KOp::Ne, S::Bool, vx, vy);
  int lt = b.op(KOp::Lt, S::Bool, vx, vy), ge = b.op(KOp::Ge, S::Bool, vx, vy);
  int notEq = b.op(KOp::Not, S::Bool, eq);
  b.store(b.op(KOp::Or, S::Bool, b.op(KOp::And, S::Bool, le, notEq), b.op(KOp::And, S::Bool, ne, b.op(KOp::Or, S::Bool, lt, ge))),
          logic);
  auto xs = [](int64_t i) { return i == 3 ? NAN : i == 5 ? 1.0 : wave(i) * 3; };
  auto ys = [](int64_t i) { return i == 9 ? NAN : i == 5 ? 1.0 : wave(i + 4) * 3; };
  return {b.k, {filled({16}, DType::Float32, xs), filled({16}, DType::Float32, ys), zeros({16}, DType::Float32),
                zeros({16}, DType::Float32), zeros({16}, DType::Float32), zeros({16}, DType::Bool)}, {}, 0, 16};
}

// Sizes p0 x p1 from runtime parameters, run over rows [1, 3) only.
KernelCase symbolicSizes() {
  Builder b("symbolic_rows", {P(0), P(1)});
  b.params(2);
  int x = b.buffer("x", S::F32, {P(1), C(1)}), out = b.output("y", S::F32, {P(1), C(1)});
  b.store(b.op(KOp::Add, S::F32, b.op(KOp::Mul, S::F32, b.load(x), b.f(S::F32, 2.0)), b.f(S::F32, 0.1)), out);
  return {b.k, {filled({4, 5}, DType::Float32, wave), zeros({4, 5}, DType::Float32)}, {4, 5}, 1, 3};
}

// out[i, j] = x[j, i] + 1: a transposed read (strides [1, 4] over a contiguous [6, 4]).
KernelCase transposedInput() {
  Builder b("transposed", {C(4), C(6)});
  int x = b.buffer("x", S::F32, {C(1), C(4)}), out = b.output("t", S::F32, {C(6), C(1)});
  b.store(b.op(KOp::Add, S::F32, b.load(x), b.f(S::F32, 1.0)), out);
  return {b.k, {filled({6, 4}, DType::Float32, wave), zeros({4, 6}, DType::Float32)}, {}, 0, 4};
}

// A [6, 4] view (strides [1, 6], storage offset 2) reshaped to the [3, 8] loop: the loop's linear
// index is decomposed in the buffer's own shape.
KernelCase shapedBuffer() {
  Builder b("reshaped", {C(3), C(8)});
  int x = b.buffer("x", S::F32, {C(1), C(6)}, false, {C(6), C(4)}), out = b.output("r", S::F32, {C(8), C(1)});
  b.store(b.op(KOp::Neg, S::F32, b.load(x)), out);
  Tensor base = filled({26}, DType::Float32, wave);
  return {b.k, {*base.asStrided({6, 4}, {1, 6}, 2), zeros({3, 8}, DType::Float32)}, {}, 0, 3};
}

// out[i] = sum_j x[i, j]^2.
KernelCase sumRows() {
  Builder b("sum_rows", {C(5), C(7)}, 1);
  int x = b.buffer("x", S::F32, {C(7), C(1)}), out = b.output("sum", S::F32, {C(1), C(0)});
  int squares = b.output("squares", S::F32, {C(7), C(1)});  // read elsewhere: stored at each point
  int v = b.load(x);
  int sq = b.op(KOp::Mul, S::F32, v, v);
  b.store(sq, squares);
  b.reduce(ReduceOp::Sum, sq, out);
  return {b.k, {filled({5, 7}, DType::Float32, wave), zeros({5}, DType::Float32), zeros({5, 7}, DType::Float32)}, {}, 0, 5};
}

// A bias gradient: the sum over rows of [6, 40] (the kept dim is the unit-stride one), with the
// summed value also stored - the LLVM generator sweeps rows through a block of accumulators.
KernelCase sumColumns() {
  Builder b("sum_columns", {C(40), C(6)}, 1);
  int x = b.buffer("x", S::F32, {C(1), C(40)}), out = b.output("bias_grad", S::F32, {C(1), C(0)});
  int relu = b.output("relu", S::F32, {C(1), C(40)});
  int v = b.load(x);
  int r = b.op(KOp::Select, S::F32, b.op(KOp::Lt, S::Bool, v, b.f(S::F32, 0)), b.f(S::F32, 0), v);
  b.store(r, relu);
  b.reduce(ReduceOp::Sum, r, out);
  return {b.k, {filled({6, 40}, DType::Float32, wave), zeros({40}, DType::Float32), zeros({6, 40}, DType::Float32)}, {}, 0, 40};
}

// Mean, max and min over an inner dim of runtime size p0; one row holds a NaN.
KernelCase meanMaxMin() {
  Builder b("mean_inner", {C(2), C(3), P(0)}, 1);
  b.params(1);
  int x = b.buffer("x", S::F32, {C(12), C(4), C(1)});
  int mean = b.output("mean", S::F32, {C(3), C(1), C(0)}), mx = b.output("amax", S::F32, {C(3), C(1), C(0)});
  int mn = b.output("amin", S::F32, {C(3), C(1), C(0)});
  int v = b.load(x);
  b.reduce(ReduceOp::Mean, v, mean);
  b.reduce(ReduceOp::Max, v, mx);
  b.reduce(ReduceOp::Min, v, mn);
  auto xs = [](int64_t i) { return i == 13 ? NAN : wave(i); };
  return {b.k, {filled({2, 3, 4}, DType::Float32, xs), zeros({2, 3}, DType::Float32), zeros({2, 3}, DType::Float32),
                zeros({2, 3}, DType::Float32)}, {4}, 0, 2};
}

// f64 throughout: exp(x) / (1 + tanh(x)) + erf(x).
KernelCase doubles() {
  Builder b("f64_math", {C(10)});
  int x = b.buffer("x", S::F64, {C(1)}), out = b.output("y", S::F64, {C(1)});
  int v = b.load(x);
  int den = b.op(KOp::Add, S::F64, b.f(S::F64, 1.0), b.op(KOp::Tanh, S::F64, v));
  int q = b.op(KOp::Div, S::F64, b.op(KOp::Exp, S::F64, v), den);
  b.store(b.op(KOp::Add, S::F64, q, b.op(KOp::Erf, S::F64, v)), out);
  return {b.k, {filled({10}, DType::Float64, wave), zeros({10}, DType::Float64)}, {}, 0, 10};
}

// i64: a broadcast product, max with a constant, bitwise not, a cast to f32; the product's
// row sums and maxima.
KernelCase integers() {
  Builder b("i64_ops", {C(4), C(5)});
  int x = b.buffer("x", S::I64, {C(5), C(1)}), y = b.buffer("y", S::I64, {C(0), C(1)});
  int big = b.output("big", S::I64, {C(5), C(1)}), inv = b.output("inv", S::I64, {C(5), C(1)});
  int asFloat = b.output("f", S::F32, {C(5), C(1)});
  int p = b.op(KOp::Mul, S::I64, b.load(x), b.load(y));
  b.store(b.op(KOp::Max, S::I64, p, b.i(S::I64, 7)), big);
  b.store(b.op(KOp::Not, S::I64, p), inv);
  b.store(b.op(KOp::Cast, S::F32, b.op(KOp::Sub, S::I64, p, b.i(S::I64, 3000000000LL))), asFloat);
  auto xs = [](int64_t i) { return double(i * 7 % 11) - 5; };
  return {b.k, {filled({4, 5}, DType::Int64, xs), filled({5}, DType::Int64, [](int64_t i) { return double(i) - 2; }),
                zeros({4, 5}, DType::Int64), zeros({4, 5}, DType::Int64), zeros({4, 5}, DType::Float32)}, {}, 0, 4};
}

KernelCase integerSums() {
  Builder b("i64_sum", {C(4), C(5)}, 1);
  int x = b.buffer("x", S::I64, {C(5), C(1)});
  int sum = b.output("sum", S::I64, {C(1), C(0)}), mx = b.output("amax", S::I64, {C(1), C(0)});
  int v = b.load(x);
  b.reduce(ReduceOp::Sum, b.op(KOp::Mul, S::I64, v, b.i(S::I64, 1000000007LL)), sum);
  b.reduce(ReduceOp::Max, v, mx);
  auto xs = [](int64_t i) { return double(i * 7 % 11) - 5; };
  return {b.k, {filled({4, 5}, DType::Int64, xs), zeros({4}, DType::Int64), zeros({4}, DType::Int64)}, {}, 0, 4};
}

// Every loop reduced: one thread sums the whole of x into a scalar.
KernelCase fullSum() {
  Builder b("full_sum", {C(300)}, 1);
  int x = b.buffer("x", S::F64, {C(1)}), out = b.output("total", S::F64, {C(0)});
  b.reduce(ReduceOp::Sum, b.load(x), out);
  return {b.k, {filled({300}, DType::Float64, wave), zeros({}, DType::Float64)}, {}, 0, 300};
}

// No loops: the one point writes a constant.
KernelCase scalarConstant() {
  Builder b("scalar_fill", {});
  int out = b.output("fill", S::F32, {});
  b.store(b.f(S::F32, 0.1), out);
  return {b.k, {zeros({}, DType::Float32)}, {}, 0, 1};
}

}  // namespace

std::vector<KernelCase> cudaTestCases() {
  return {broadcastAdd(), unaryChain(), mathOps(), symbolicSizes(), transposedInput(), shapedBuffer(),
          sumRows(),      sumColumns(), meanMaxMin(), doubles(), integers(),      integerSums(),     fullSum(), scalarConstant()};
}

std::vector<Tensor> cloneBuffers(const std::vector<Tensor>& buffers) {
  std::vector<Tensor> out;
  for (const Tensor& t : buffers) {
    size_t bytes = t.storage()->nbytes(), element = elementSize(t.dtype());
    Tensor copy = *Tensor::empty({int64_t(bytes / element)}, t.dtype());
    std::memcpy(copy.storage()->data(), t.storage()->data(), bytes);
    out.push_back(*copy.asStrided(t.sizes(), t.strides(), t.storageOffset()));
  }
  return out;
}

}  // namespace fathom::testing
