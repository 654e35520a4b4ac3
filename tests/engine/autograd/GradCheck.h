// Finite-difference gradient checking (torch.autograd.gradcheck's vector-Jacobian form) for the
// derivative formulas: a case is an op applied to float64 leaves; the check compares
// autograd::grad(outputs, leaves, v) for a random v with the central difference
// (L(x + eps e_i) - L(x - eps e_i)) / 2 eps of L(x) = sum(v * outputs(x)), element by element.
//
// A case names the op whose formula it checks, and the check insists that op recorded the node
// of the case's first output - so a case cannot silently test some other op's formula.
// The cases themselves live in GradCheck*Cases.cpp, one file per derivative family.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/autograd/Autograd.h"
#include "engine/frontend/OpCall.h"
#include "engine/frontend/Functional.h"

namespace fathom::testing {

using frontend::Arg;
using autograd::Tensor;
using autograd::TensorList;

// One leaf of a case: float64 values are differentiated; integer and bool tensors (indices,
// masks, conditions) and leaves marked constant are not.
struct GradInput {
  IntList sizes;
  std::vector<double> values;  // row-major
  DType dtype = DType::Float64;
  bool constant = false;
};

struct GradCase {
  std::string op;     // "aten.mul.Tensor": the op recorded last, whose formula is checked
  std::string label;  // what this case varies ("broadcast other", "transposed self")
  std::vector<GradInput> inputs;
  // The computation on the leaves; its last op is `op`. It may view the leaves first
  // (a transposed input) or compute constants from them (pooling indices).
  std::function<TensorList(const TensorList&)> fn;
  // Which outputs carry a gradient (empty: every floating-point output).
  std::vector<size_t> outputs = {};
};

// Deterministic values: uniform in [lo, hi), or the distinct values lo, lo + step, ... shuffled
// (no ties, for max-like ops whose derivative is undefined at ties).
std::vector<double> uniform(const IntList& sizes, double lo, double hi, uint64_t seed);
std::vector<double> distinct(const IntList& sizes, double lo, double step, uint64_t seed);

// A float64 leaf of `sizes` with values uniform in [lo, hi) (seeded by the sizes and `seed`).
GradInput real(const IntList& sizes, double lo = -2, double hi = 2, uint64_t seed = 0);
// Uniform values with |x| >= gap: away from kinks at 0 (abs, relu) or at lo/hi.
GradInput awayFromZero(const IntList& sizes, double gap = 0.2, uint64_t seed = 0);
GradInput noTies(const IntList& sizes, uint64_t seed = 0);
GradInput ints(const IntList& sizes, const std::vector<double>& values, DType dtype = DType::Int64);
GradInput bools(const IntList& sizes, const std::vector<double>& values);
GradInput constant(GradInput input);

// "" when the analytical and numerical gradients agree, else what differs (per input element).
std::string gradCheck(const GradCase& c);

// The cases of each derivative family.
std::vector<GradCase> pointwiseGradCases();
std::vector<GradCase> mathGradCases();
std::vector<GradCase> backwardGradCases();
std::vector<GradCase> reductionGradCases();
std::vector<GradCase> matmulGradCases();
std::vector<GradCase> shapeGradCases();
std::vector<GradCase> nnGradCases();
std::vector<GradCase> activationGradCases();
std::vector<GradCase> scatterGradCases();

// Shorthands for case functions.
inline Tensor op1(std::string_view op, frontend::Args args, frontend::KwArgs kwargs = {}) {
  return frontend::callOp1(op, std::move(args), std::move(kwargs));
}
inline TensorList one(Tensor t) { return {std::move(t)}; }

}  // namespace fathom::testing
