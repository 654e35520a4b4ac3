#include "tests/engine/autograd/GradCheck.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "engine/autograd/GradMode.h"

namespace fathom::testing {
namespace {

constexpr double kEps = 1e-6;
constexpr double kRtol = 1e-5, kAtol = 1e-7;

uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

double unit(uint64_t seed, uint64_t i) { return static_cast<double>(splitmix(seed * 1000003 + i) >> 11) * 0x1p-53; }

int64_t numel(const IntList& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

uint64_t seedOf(const IntList& sizes, uint64_t seed) {
  uint64_t h = seed + 17;
  for (int64_t s : sizes) h = splitmix(h ^ static_cast<uint64_t>(s));
  return h;
}

Tensor eagerTensor(const IntList& sizes, const std::vector<double>& values, DType dtype) {
  auto t = fathom::Tensor::empty(sizes, dtype);
  if (!t.ok()) throw OpError(t.error().message, ErrorCode::Internal);
  for (size_t i = 0; i < values.size(); ++i) t->setLinear(static_cast<int64_t>(i), values[i]);
  return Tensor::eager(*t);
}

bool differentiable(const GradInput& in) { return in.dtype == DType::Float64 && !in.constant; }

// The case's leaves with `values` (one list per input); differentiable ones require grad when `track`.
TensorList leaves(const GradCase& c, const std::vector<std::vector<double>>& values, bool track) {
  TensorList out;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    Tensor t = eagerTensor(c.inputs[i].sizes, values[i], c.inputs[i].dtype);
    if (track && differentiable(c.inputs[i])) autograd::setRequiresGrad(t, true, "input" + std::to_string(i));
    out.push_back(t);
  }
  return out;
}

std::vector<size_t> gradOutputs(const GradCase& c, const TensorList& outs) {
  if (!c.outputs.empty()) return c.outputs;
  std::vector<size_t> out;
  for (size_t i = 0; i < outs.size(); ++i)
    if (outs[i].defined() && isFloating(outs[i].dtype())) out.push_back(i);
  return out;
}

// sum(v * outputs) for the selected outputs.
double objective(const TensorList& outs, const std::vector<size_t>& selected, const TensorList& v) {
  double total = 0;
  for (size_t k = 0; k < selected.size(); ++k) {
    const auto& o = outs.at(selected[k]).real();
    for (int64_t j = 0; j < o.numel(); ++j) total += o.atLinear(j) * v[k].real().atLinear(j);
  }
  return total;
}

std::string check(const GradCase& c) {
  std::vector<std::vector<double>> values;
  for (const auto& in : c.inputs) values.push_back(in.values);
  const TensorList xs = leaves(c, values, true);
  const TensorList outs = c.fn(xs);
  auto node = outs.empty() ? nullptr : autograd::gradFn(outs[0]);
  if (!node || node->site.op != c.op)
    return "the case's first output was made by " + (node ? node->site.op : std::string("no recorded op")) +
           ", not " + c.op;
  const std::vector<size_t> selected = gradOutputs(c, outs);
  TensorList picked, v, wrt;
  for (size_t k = 0; k < selected.size(); ++k) {
    const Tensor& o = outs.at(selected[k]);
    const IntList sizes = o.real().sizes();
    picked.push_back(o);
    v.push_back(eagerTensor(sizes, uniform(sizes, -1, 1, 1000 + k), o.dtype()));
  }
  std::vector<size_t> diff;
  for (size_t i = 0; i < c.inputs.size(); ++i)
    if (differentiable(c.inputs[i])) diff.push_back(i), wrt.push_back(xs[i]);
  const TensorList grads = autograd::grad(picked, wrt, v, {.allowUnused = true});

  std::ostringstream why;
  autograd::NoGradGuard noGrad;
  for (size_t k = 0; k < diff.size(); ++k) {
    const size_t i = diff[k];
    const Tensor& g = grads.at(k);
    if (g.defined() && g.real().sizes() != c.inputs[i].sizes) {
      why << "input " << i << ": gradient sizes differ from the input's; ";
      continue;
    }
    int shown = 0;
    for (size_t j = 0; j < values[i].size(); ++j) {
      auto at = [&](double delta) {
        auto moved = values;
        moved[i][j] += delta;
        return objective(c.fn(leaves(c, moved, false)), selected, v);
      };
      const double numerical = (at(kEps) - at(-kEps)) / (2 * kEps);
      const double analytical = g.defined() ? g.real().atLinear(static_cast<int64_t>(j)) : 0.0;
      if (std::fabs(analytical - numerical) > kAtol + kRtol * std::fabs(numerical) && shown++ < 4)
        why << "input " << i << "[" << j << "]: analytical " << analytical << ", numerical " << numerical << "; ";
    }
  }
  return why.str();
}

}  // namespace

std::vector<double> uniform(const IntList& sizes, double lo, double hi, uint64_t seed) {
  const uint64_t s = seedOf(sizes, seed);
  std::vector<double> out(static_cast<size_t>(numel(sizes)));
  for (size_t i = 0; i < out.size(); ++i) out[i] = lo + (hi - lo) * unit(s, i);
  return out;
}

std::vector<double> distinct(const IntList& sizes, double lo, double step, uint64_t seed) {
  const uint64_t s = seedOf(sizes, seed);
  std::vector<double> out(static_cast<size_t>(numel(sizes)));
  for (size_t i = 0; i < out.size(); ++i) out[i] = lo + step * static_cast<double>(i);
  for (size_t i = out.size(); i > 1; --i) std::swap(out[i - 1], out[splitmix(s + i) % i]);
  return out;
}

GradInput real(const IntList& sizes, double lo, double hi, uint64_t seed) {
  return {sizes, uniform(sizes, lo, hi, seed)};
}

GradInput awayFromZero(const IntList& sizes, double gap, uint64_t seed) {
  GradInput in = real(sizes, gap, 2, seed);
  const auto signs = uniform(sizes, -1, 1, seed + 99);
  for (size_t i = 0; i < in.values.size(); ++i)
    if (signs[i] < 0) in.values[i] = -in.values[i];
  return in;
}

GradInput noTies(const IntList& sizes, uint64_t seed) { return {sizes, distinct(sizes, -1.5, 0.125, seed)}; }

GradInput ints(const IntList& sizes, const std::vector<double>& values, DType dtype) {
  return {sizes, values, dtype, true};
}

GradInput bools(const IntList& sizes, const std::vector<double>& values) { return {sizes, values, DType::Bool, true}; }

GradInput constant(GradInput input) {
  input.constant = true;
  return input;
}

std::string gradCheck(const GradCase& c) {
  auto r = frontend::catchErrors([&] { return check(c); });
  return r.ok() ? *r : "failed: " + r.error().message;
}

}  // namespace fathom::testing
