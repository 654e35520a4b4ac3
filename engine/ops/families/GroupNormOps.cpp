// native_group_norm and native_group_norm_backward (GroupNorm), as 1.13's CPU kernels.
//
// The input is N samples of C channels of HxW elements; channels split into `group` groups of
// D = C / group, and each (sample, group) is normalized by its own mean and rstd =
// 1 / sqrt(var + eps) (biased variance). Y = (x - mean) * rstd without weight and bias, else
// scale * x + bias with scale = rstd * weight[c] and bias = bias[c] - scale * mean (both fused
// multiply-adds, as ATen's compiled kernels compute them).
// Checks (check_group_norm_inputs, then the kernel's): group > 0 divides C, weight and bias are
// C-vectors, the input holds N * C * HxW elements and is contiguous in its suggested memory
// format. Layouts: Y like the input (channels-last kept); mean and rstd [N, group]; all in the
// input's dtype. The backward's dX is contiguous, dweight and dbias are C-vectors like weight
// (1.13 makes both from weight: asking for either without a weight fails).
// Sums run in double; each result rounds once to the element type, as ATen's float
// accumulators do up to the order of their additions.
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/families/NormalizationFamilies.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/layout/NnLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

struct GroupNormShape {
  int64_t n, c, hw, groups;
};

GroupNormShape shapeArgs(const ValueList& a, size_t first) {
  return {intArg(a, first), intArg(a, first + 1), intArg(a, first + 2), intArg(a, first + 3)};
}

void checkVector(const Value& v, const TensorMeta& input, int64_t c, const char* what) {
  if (v.isNone()) return;
  const TensorMeta& t = v.as<TensorMeta>();
  FATHOM_CHECK(t.dim() == 1 && symEq(t.numel(), c, "group_norm: affine size"), "Expected ", what,
               " to be a vector of size equal to the number of channels in input, but got ", what, " of shape ",
               sizesStr(t.sizes), " and input of shape ", sizesStr(input.sizes));
}

// Is `t` contiguous in its suggested memory format (strides of size-1 dims do not count)?
bool contiguousInSuggested(const TensorMeta& t) {
  const SymIntList want = suggestedFormatStrides(t.sizes, suggestMemoryFormat(t));
  for (size_t d = 0; d < t.sizes.size(); ++d)
    if (!symEq(t.sizes[d], 1, "group_norm: size-1 dim") && !symEq(t.strides[d], want[d], "group_norm: contiguous input"))
      return false;
  return true;
}

struct GroupNormLayout {
  TensorMeta y, stat;
};

GroupNormLayout groupNormLayout(const ValueList& margs) {
  const TensorMeta& x = metaArg(margs, 0);
  const GroupNormShape s = shapeArgs(margs, 3);
  FATHOM_CHECK(s.groups > 0, "Expected num groups to be greater than 0, got ", s.groups);
  FATHOM_CHECK(s.c % s.groups == 0, "Expected number of channels in input to be divisible by num_groups, but got input "
               "of shape ", sizesStr(x.sizes), " and num_groups=", s.groups);
  checkVector(margs.at(1), x, s.c, "weight");
  checkVector(margs.at(2), x, s.c, "bias");
  FATHOM_CHECK(contiguousInSuggested(x), "Expected X.is_contiguous(memory_format) to be true, but got false.");
  FATHOM_CHECK(symEq(x.numel(), s.n * s.c * s.hw, "group_norm: numel"), "Expected X.numel() == N * C * HxW to be true, but got false.");
  return {newTensorMeta(x, x.dtype, x.sizes, suggestMemoryFormat(x)), contiguousOutput(x, {SymInt(s.n), SymInt(s.groups)})};
}

// `t`'s values in row-major order, as doubles (empty for an undefined tensor).
std::vector<double> valuesOf(const Value& v) {
  if (v.isNone()) return {};
  const Tensor& t = v.as<Tensor>();
  TensorMeta m = contiguousOutput(t.meta(), t.meta().sizes);
  m.dtype = DType::Float64;
  const Tensor d = convertedTo(t, m);
  const double* p = d.dataAs<double>();
  return std::vector<double>(p, p + t.numel());
}

// Writes row-major values (already rounded to `out`'s dtype) into `out`, whatever its layout.
void store(const Tensor& out, const std::vector<double>& values) {
  TensorMeta m = contiguousOutput(out.meta(), out.meta().sizes);
  m.dtype = DType::Float64;
  Tensor d = allocateTensor(m);
  std::copy(values.begin(), values.end(), d.dataAs<double>());
  copyInto(out, d);
}

ValueList groupNormKernel(const ValueList& args) {
  const GroupNormLayout l = groupNormLayout(metaArgs(args));
  Tensor y = allocateTensor(l.y), mean = allocateTensor(l.stat), rstd = allocateTensor(l.stat);
  const GroupNormShape s = shapeArgs(args, 3);
  const double eps = args.at(7).toDouble();
  const std::vector<double> x = valuesOf(args.at(0)), gamma = valuesOf(args.at(1)), beta = valuesOf(args.at(2));
  const bool affine = !gamma.empty() || !beta.empty();
  std::vector<double> out(x.size()), means(static_cast<size_t>(s.n * s.groups)), rstds(means.size());
  const int64_t d = s.c / s.groups, size = d * s.hw;
  dispatchDType(y.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    for (int64_t i = 0; i < s.n * s.groups; ++i) {
      const double* p = x.data() + i * size;
      double sum = 0, squares = 0;
      for (int64_t k = 0; k < size; ++k) sum += p[k];
      const double mu = size > 0 ? sum / static_cast<double>(size) : 0.0;
      for (int64_t k = 0; k < size; ++k) squares += (p[k] - mu) * (p[k] - mu);
      const C m = C(mu), var = C(size > 0 ? squares / static_cast<double>(size) : 0.0);
      const C r = C(1) / std::sqrt(std::max(var, C(0)) + C(eps));
      for (int64_t j = 0; j < d; ++j) {
        const int64_t c = (i % s.groups) * d + j;
        // Fused multiply-adds, as ATen's kernels (vectorized or contracted) compute them.
        const C scale = r * (gamma.empty() ? C(1) : C(gamma[c])), bias = std::fma(-scale, m, beta.empty() ? C(0) : C(beta[c]));
        for (int64_t k = j * s.hw; k < (j + 1) * s.hw; ++k)
          out[i * size + k] = static_cast<double>(OpMath<T>(T(affine ? std::fma(scale, C(p[k]), bias) : (C(p[k]) - m) * r)));
      }
      means[i] = static_cast<double>(OpMath<T>(T(m)));
      rstds[i] = static_cast<double>(OpMath<T>(T(r)));
    }
  });
  store(y, out), store(mean, means), store(rstd, rstds);
  return {y, mean, rstd};
}

// ---- native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group, mask) --

std::array<std::optional<TensorMeta>, 3> backwardLayouts(const ValueList& margs) {
  const TensorMeta &dy = metaArg(margs, 0), &x = metaArg(margs, 1);
  const GroupNormShape s = shapeArgs(margs, 5);
  const std::array<bool, 3> mask = outputMaskArg(margs.at(9));
  const SymInt total = SymInt(s.n * s.c * s.hw), stats = SymInt(s.n * s.groups);
  FATHOM_CHECK(s.groups > 0 && s.c % s.groups == 0, "Expected number of channels in input to be divisible by num_groups");
  FATHOM_CHECK(symEq(dy.numel(), total, "group_norm backward: numel"), "Expected dY.numel() == N * C * HxW to be true, but got false.");
  FATHOM_CHECK(symEq(x.numel(), total, "group_norm backward: numel"), "Expected X.numel() == N * C * HxW to be true, but got false.");
  FATHOM_CHECK(symEq(metaArg(margs, 2).numel(), stats, "group_norm backward: stats"), "Expected mean.numel() == N * group to be true, but got false.");
  FATHOM_CHECK(symEq(metaArg(margs, 3).numel(), stats, "group_norm backward: stats"), "Expected rstd.numel() == N * group to be true, but got false.");
  const bool hasWeight = !margs.at(4).isNone();
  if (hasWeight) checkVector(margs.at(4), x, s.c, "weight");
  FATHOM_CHECK(hasWeight || !(mask[1] || mask[2]), "native_group_norm_backward: output_mask asks for the gradient of weight or "
               "bias, which 1.13 shapes like weight, but weight is None (1.13: tensor does not have a device)");
  std::array<std::optional<TensorMeta>, 3> out;
  if (mask[0]) out[0] = contiguousOutput(x, x.sizes);
  for (size_t k : {1, 2})
    if (mask[k]) out[k] = contiguousOutput(metaArg(margs, 4), metaArg(margs, 4).sizes);
  return out;
}

ValueList groupNormBackwardMeta(const ValueList& margs) {
  ValueList out;
  for (const auto& m : backwardLayouts(margs)) out.push_back(m ? Value(*m) : Value(None{}));
  return out;
}

// ATen's GroupNormBackwardKernelImplInternal: per (n, c) ds = sum dY * x and db = sum dY; per
// (n, g) c2 = (db_g * mean - ds_g) * rstd^3 / (D * HxW) and c3 = -c2 * mean - db_g * rstd /
// (D * HxW), with ds_g, db_g summed over the group weighted by gamma; dX = rstd * gamma * dY +
// c2 * x + c3; dgamma = sum_n (ds - db * mean) * rstd; dbeta = sum_n db.
struct GroupNormGrads {
  std::vector<double> dx, dgamma, dbeta;
};

GroupNormGrads groupNormGrads(const ValueList& args, const GroupNormShape& s) {
  const std::vector<double> dy = valuesOf(args.at(0)), x = valuesOf(args.at(1)), mean = valuesOf(args.at(2)),
                            rstd = valuesOf(args.at(3)), gamma = valuesOf(args.at(4));
  const int64_t d = s.c / s.groups;
  std::vector<double> ds(static_cast<size_t>(s.n * s.c)), db(ds.size());
  for (int64_t nc = 0; nc < s.n * s.c; ++nc)
    for (int64_t k = nc * s.hw; k < (nc + 1) * s.hw; ++k) ds[nc] += dy[k] * x[k], db[nc] += dy[k];
  GroupNormGrads g{std::vector<double>(x.size()), std::vector<double>(static_cast<size_t>(s.c)), std::vector<double>(static_cast<size_t>(s.c))};
  const double scale = 1.0 / static_cast<double>(d * s.hw);
  for (int64_t i = 0; i < s.n * s.groups; ++i) {
    const int64_t n = i / s.groups, group = i % s.groups;
    double dsg = 0, dbg = 0;
    for (int64_t c = group * d; c < (group + 1) * d; ++c) {
      const double w = gamma.empty() ? 1.0 : gamma[c];
      dsg += ds[n * s.c + c] * w, dbg += db[n * s.c + c] * w;
    }
    const double c2 = (dbg * mean[i] - dsg) * rstd[i] * rstd[i] * rstd[i] * scale, c3 = -c2 * mean[i] - dbg * rstd[i] * scale;
    for (int64_t c = group * d; c < (group + 1) * d; ++c) {
      const double c1 = rstd[i] * (gamma.empty() ? 1.0 : gamma[c]);
      for (int64_t k = (n * s.c + c) * s.hw; k < (n * s.c + c + 1) * s.hw; ++k) g.dx[k] = c1 * dy[k] + c2 * x[k] + c3;
      g.dgamma[c] += (ds[n * s.c + c] - db[n * s.c + c] * mean[i]) * rstd[i];
      g.dbeta[c] += db[n * s.c + c];
    }
  }
  return g;
}

ValueList groupNormBackwardKernel(const ValueList& args) {
  const auto layouts = backwardLayouts(metaArgs(args));
  const GroupNormGrads g = groupNormGrads(args, shapeArgs(args, 5));
  ValueList out;
  for (size_t k = 0; k < 3; ++k) {
    if (!layouts[k]) {
      out.push_back(None{});
      continue;
    }
    Tensor t = allocateTensor(*layouts[k]);
    store(t, k == 0 ? g.dx : k == 1 ? g.dgamma : g.dbeta);
    out.push_back(t);
  }
  return out;
}

}  // namespace

void registerGroupNormOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt HxW, int group, "
      "float eps) -> (Tensor, Tensor, Tensor)",
      [](const ValueList& args) {
        const GroupNormLayout l = groupNormLayout(args);
        return ValueList{l.y, l.stat, l.stat};
      },
      groupNormKernel);
  (void)registry.add(
      "aten::native_group_norm_backward(Tensor grad_out, Tensor input, Tensor mean, Tensor rstd, Tensor? weight, "
      "SymInt N, SymInt C, SymInt HxW, int group, bool[3] output_mask) -> (Tensor, Tensor, Tensor)",
      groupNormBackwardMeta, groupNormBackwardKernel);
}

}  // namespace fathom
