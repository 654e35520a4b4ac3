// Each fusable ATen op as kernel instructions: the formula the eager kernel computes, in the same
// order of operations and the same compute type, so a fused kernel rounds as eager does wherever
// the math has no transcendental (exp, tanh, erf and log are polynomials in the generated code).
#include <cmath>
#include <functional>
#include <string>
#include <unordered_map>

#include "engine/compile/KernelBuilder.h"
#include "engine/ops/cpu/GeluConstants.h"

namespace fathom {
namespace {

using gelu::kKappa;
using gelu::kSqrt1_2;
using gelu::kSqrt2;
using gelu::kTwoOverSqrtPi;

struct Ctx {
  KernelBuilder& b;
  const std::vector<PointwiseArg>& args;
  ScalarKind result;

  // Argument i in type t: a tensor cast to it, or a scalar converted to it.
  Result<int32_t> arg(size_t i, ScalarKind t) const {
    if (i >= args.size()) return invalidInput("missing argument " + std::to_string(i));
    if (args[i].isTensor()) return b.cast(args[i].value, t);
    if (!args[i].constant.isNumber()) return invalidInput("argument " + std::to_string(i) + " is not a number");
    return b.constant(t, args[i].constant.toDouble());
  }
  Result<int32_t> in(size_t i) const { return arg(i, result); }
  int32_t k(double v) const { return b.constant(result, v); }
  int32_t bin(KOp op, int32_t x, int32_t y) const { return b.binary(op, x, y); }
  int32_t un(KOp op, int32_t x) const { return b.unary(op, x); }
  std::optional<double> number(size_t i) const {
    if (i < args.size() && !args[i].isTensor() && args[i].constant.isNumber()) return args[i].constant.toDouble();
    return std::nullopt;
  }
  std::string text(size_t i) const {
    const std::string* s = i < args.size() ? args[i].constant.tryAs<std::string>() : nullptr;
    return s ? *s : "";
  }
};

using Formula = std::function<Result<int32_t>(const Ctx&)>;

// x + alpha * y, alpha negated for sub; alpha 1 is plain x + y (and -1 plain x - y), as ATen's
// a + alpha * b rounds to the same.
Result<int32_t> addScaled(const Ctx& c, size_t x, size_t y, double sign) {
  auto a = c.in(x), b = c.in(y);
  FATHOM_TRY(a);
  FATHOM_TRY(b);
  const double alpha = sign * c.number(2).value_or(1.0);
  if (alpha == 1) return c.bin(KOp::Add, *a, *b);
  if (alpha == -1) return c.bin(KOp::Sub, *a, *b);
  return c.bin(KOp::Add, *a, c.bin(KOp::Mul, c.k(alpha), *b));
}

Formula binaryOp(KOp op) {
  return [op](const Ctx& c) -> Result<int32_t> {
    auto a = c.in(0), b = c.in(1);
    FATHOM_TRY(a);
    FATHOM_TRY(b);
    return c.bin(op, *a, *b);
  };
}

Formula unaryOp(std::function<int32_t(const Ctx&, int32_t)> f) {
  return [f](const Ctx& c) -> Result<int32_t> {
    auto x = c.in(0);
    FATHOM_TRY(x);
    return f(c, *x);
  };
}

// Comparisons compute in the operands' common type: the tensor's for a Python scalar (when that
// keeps the kind), the shared one for two tensors; other mixes stay eager.
Formula compareOp(KOp op) {
  return [op](const Ctx& c) -> Result<int32_t> {
    if (c.args.size() < 2 || !c.args[0].isTensor()) return invalidInput("comparison without a tensor first");
    const ScalarKind t = c.b.typeOf(c.args[0].value);
    if (c.args[1].isTensor() && c.b.typeOf(c.args[1].value) != t) return invalidInput("comparison of two dtypes");
    if (!c.args[1].isTensor() && (t == ScalarKind::Bool || (!isFloatKind(t) && c.args[1].constant.is<double>())))
      return invalidInput("comparison promotes its scalar");
    auto a = c.arg(0, t), b = c.arg(1, t);
    FATHOM_TRY(a);
    FATHOM_TRY(b);
    return c.bin(op, *a, *b);
  };
}

int32_t gelu(const Ctx& c, int32_t x, bool tanhForm) {
  if (tanhForm) {
    const int32_t cube = c.bin(KOp::Mul, c.bin(KOp::Mul, x, x), x);
    const int32_t inner = c.bin(KOp::Mul, c.k(kSqrt2 * kTwoOverSqrtPi * 0.5), c.bin(KOp::Add, x, c.bin(KOp::Mul, c.k(kKappa), cube)));
    return c.bin(KOp::Mul, c.bin(KOp::Mul, c.k(0.5), x), c.bin(KOp::Add, c.k(1), c.un(KOp::Tanh, inner)));
  }
  const int32_t erf = c.un(KOp::Erf, c.bin(KOp::Mul, x, c.k(kSqrt1_2)));
  return c.bin(KOp::Mul, c.bin(KOp::Mul, x, c.k(0.5)), c.bin(KOp::Add, c.k(1), erf));
}

int32_t geluBackward(const Ctx& c, int32_t dy, int32_t x, bool tanhForm) {
  if (tanhForm) {
    const int32_t beta = c.k(kSqrt2 * kTwoOverSqrtPi * 0.5), kk = c.k(kKappa);
    const int32_t xSq = c.bin(KOp::Mul, x, x), xCube = c.bin(KOp::Mul, xSq, x);
    const int32_t t = c.un(KOp::Tanh, c.bin(KOp::Mul, beta, c.bin(KOp::Add, x, c.bin(KOp::Mul, kk, xCube))));
    const int32_t left = c.bin(KOp::Mul, c.k(0.5), x), right = c.bin(KOp::Add, c.k(1), t);
    const int32_t leftD = c.bin(KOp::Mul, c.k(0.5), right);
    const int32_t tanhD = c.bin(KOp::Sub, c.k(1), c.bin(KOp::Mul, t, t));
    const int32_t innerD = c.bin(KOp::Mul, beta, c.bin(KOp::Add, c.k(1), c.bin(KOp::Mul, c.bin(KOp::Mul, c.k(3), kk), xSq)));
    return c.bin(KOp::Mul, dy, c.bin(KOp::Add, leftD, c.bin(KOp::Mul, c.bin(KOp::Mul, left, tanhD), innerD)));
  }
  const int32_t cdf = c.bin(KOp::Mul, c.k(0.5), c.bin(KOp::Add, c.k(1), c.un(KOp::Erf, c.bin(KOp::Mul, x, c.k(kSqrt1_2)))));
  const int32_t pdf = c.bin(KOp::Mul, c.k(kTwoOverSqrtPi * kSqrt1_2 * 0.5),
                            c.un(KOp::Exp, c.bin(KOp::Mul, c.bin(KOp::Mul, x, x), c.k(-0.5))));
  return c.bin(KOp::Mul, dy, c.bin(KOp::Add, cdf, c.bin(KOp::Mul, x, pdf)));
}

// pow(x, e) for the exponents ATen computes without pow(); others stay eager.
Result<int32_t> power(const Ctx& c) {
  auto x = c.in(0);
  FATHOM_TRY(x);
  auto e = c.number(1);
  if (!e || !isFloatKind(c.result)) return invalidInput("pow with this exponent");
  auto recip = [&](int32_t v) { return c.bin(KOp::Div, c.k(1), v); };
  if (*e == 0.5) return c.un(KOp::Sqrt, *x);
  if (*e == -0.5) return recip(c.un(KOp::Sqrt, *x));
  if (*e == -1) return recip(*x);
  if (*e == 2) return c.bin(KOp::Mul, *x, *x);
  if (*e == 3) return c.bin(KOp::Mul, c.bin(KOp::Mul, *x, *x), *x);
  if (*e == -2) return recip(c.bin(KOp::Mul, *x, *x));
  return invalidInput("pow with exponent " + std::to_string(*e));
}

// NaN when either is NaN, else std::max / std::min (ATen's maximum, minimum).
int32_t extremum(const Ctx& c, int32_t a, int32_t b, bool isMax) { return c.bin(isMax ? KOp::Max : KOp::Min, a, b); }

using Table = std::unordered_map<std::string, Formula>;

void addArithmetic(Table& f) {
  f["aten.add.Tensor"] = f["aten.add.Scalar"] = [](const Ctx& c) { return addScaled(c, 0, 1, 1); };
  f["aten.sub.Tensor"] = f["aten.sub.Scalar"] = [](const Ctx& c) { return addScaled(c, 0, 1, -1); };
  f["aten.rsub.Tensor"] = f["aten.rsub.Scalar"] = [](const Ctx& c) { return addScaled(c, 1, 0, -1); };
  f["aten.mul.Tensor"] = f["aten.mul.Scalar"] = binaryOp(KOp::Mul);
  f["aten.div.Tensor"] = f["aten.div.Scalar"] = [](const Ctx& c) -> Result<int32_t> {
    if (!isFloatKind(c.result)) return invalidInput("integer division");
    return binaryOp(KOp::Div)(c);
  };
  f["aten.maximum.default"] = [](const Ctx& c) -> Result<int32_t> {
    auto a = c.in(0), b = c.in(1);
    FATHOM_TRY(a);
    FATHOM_TRY(b);
    return extremum(c, *a, *b, true);
  };
  f["aten.minimum.default"] = [](const Ctx& c) -> Result<int32_t> {
    auto a = c.in(0), b = c.in(1);
    FATHOM_TRY(a);
    FATHOM_TRY(b);
    return extremum(c, *a, *b, false);
  };
}

void addMath(Table& f) {
  f["aten.neg.default"] = unaryOp([](const Ctx& c, int32_t x) { return c.un(KOp::Neg, x); });
  f["aten.abs.default"] = unaryOp([](const Ctx& c, int32_t x) { return c.un(KOp::Abs, x); });
  f["aten.relu.default"] = unaryOp([](const Ctx& c, int32_t x) { return c.b.select(c.bin(KOp::Lt, x, c.k(0)), c.k(0), x); });
  for (auto [name, op] : {std::pair{"exp", KOp::Exp}, {"log", KOp::Log}, {"tanh", KOp::Tanh}, {"erf", KOp::Erf},
                          {"sqrt", KOp::Sqrt}, {"floor", KOp::Floor}, {"ceil", KOp::Ceil}})
    f["aten." + std::string(name) + ".default"] = [op](const Ctx& c) -> Result<int32_t> {
      if (!isFloatKind(c.result)) return invalidInput("integer math");
      auto x = c.in(0);
      FATHOM_TRY(x);
      return c.un(op, *x);
    };
  f["aten.rsqrt.default"] = unaryOp([](const Ctx& c, int32_t x) { return c.bin(KOp::Div, c.k(1), c.un(KOp::Sqrt, x)); });
  f["aten.reciprocal.default"] = unaryOp([](const Ctx& c, int32_t x) { return c.bin(KOp::Div, c.k(1), x); });
  f["aten.sigmoid.default"] = unaryOp([](const Ctx& c, int32_t x) {
    return c.bin(KOp::Div, c.k(1), c.bin(KOp::Add, c.k(1), c.un(KOp::Exp, c.un(KOp::Neg, x))));
  });
}

void addActivations(Table& f) {
  f["aten.gelu.default"] = unaryOp([](const Ctx& c, int32_t x) { return gelu(c, x, c.text(1) == "tanh"); });
  f["aten.gelu_backward.default"] = [](const Ctx& c) -> Result<int32_t> {
    auto dy = c.in(0), x = c.in(1);
    FATHOM_TRY(dy);
    FATHOM_TRY(x);
    return geluBackward(c, *dy, *x, c.text(2) == "tanh");
  };
  f["aten.tanh_backward.default"] = [](const Ctx& c) -> Result<int32_t> {
    auto g = c.in(0), y = c.in(1);
    FATHOM_TRY(g);
    FATHOM_TRY(y);
    return c.bin(KOp::Mul, *g, c.bin(KOp::Sub, c.k(1), c.bin(KOp::Mul, *y, *y)));
  };
  f["aten.sigmoid_backward.default"] = [](const Ctx& c) -> Result<int32_t> {
    auto g = c.in(0), y = c.in(1);
    FATHOM_TRY(g);
    FATHOM_TRY(y);
    return c.bin(KOp::Mul, c.bin(KOp::Mul, *g, c.bin(KOp::Sub, c.k(1), *y)), *y);
  };
}

void addSelections(Table& f) {
  f["aten.threshold_backward.default"] = [](const Ctx& c) -> Result<int32_t> {
    auto g = c.in(0), self = c.in(1), t = c.in(2);
    FATHOM_TRY(g);
    FATHOM_TRY(self);
    FATHOM_TRY(t);
    return c.b.select(c.bin(KOp::Le, *self, *t), c.k(0), *g);
  };
  f["aten.where.self"] = [](const Ctx& c) -> Result<int32_t> {
    auto cond = c.arg(0, ScalarKind::Bool), a = c.in(1), b = c.in(2);
    FATHOM_TRY(cond);
    FATHOM_TRY(a);
    FATHOM_TRY(b);
    return c.b.select(*cond, *a, *b);
  };
  f["aten.masked_fill.Scalar"] = [](const Ctx& c) -> Result<int32_t> {
    // PyTorch 1.13 reads a mask of another dtype its own way (a float mask fills nothing).
    if (c.args.size() < 2 || !c.args[1].isTensor() || c.b.typeOf(c.args[1].value) != ScalarKind::Bool)
      return invalidInput("masked_fill with a mask that is not bool");
    auto self = c.in(0), mask = c.arg(1, ScalarKind::Bool), v = c.in(2);
    FATHOM_TRY(self);
    FATHOM_TRY(mask);
    FATHOM_TRY(v);
    return c.b.select(*mask, *v, *self);
  };
  f["aten.clone.default"] = f["aten._to_copy.default"] = f["aten.alias.default"] = [](const Ctx& c) { return c.in(0); };
  f["aten.pow.Tensor_Scalar"] = power;
  f["aten.logical_not.default"] = [](const Ctx& c) -> Result<int32_t> {
    auto x = c.arg(0, ScalarKind::Bool);
    FATHOM_TRY(x);
    return c.b.cast(c.un(KOp::Not, *x), c.result);
  };
  for (auto [name, op] : {std::pair{"eq", KOp::Eq}, {"ne", KOp::Ne}, {"lt", KOp::Lt}, {"le", KOp::Le},
                          {"gt", KOp::Gt}, {"ge", KOp::Ge}}) {
    f["aten." + std::string(name) + ".Tensor"] = f["aten." + std::string(name) + ".Scalar"] = compareOp(op);
  }
}

const Table& formulas() {
  static const Table table = [] {
    Table f;
    addArithmetic(f);
    addMath(f);
    addActivations(f);
    addSelections(f);
    return f;
  }();
  return table;
}

}  // namespace

Result<int32_t> lowerPointwiseOp(KernelBuilder& b, const Node& node, const std::vector<PointwiseArg>& args,
                                 ScalarKind result) {
  const auto& table = formulas();
  auto it = table.find(node.target);
  if (it == table.end()) return invalidInput("no kernel formula for " + node.target);
  auto v = it->second(Ctx{b, args, result});
  FATHOM_TRY(v);
  return b.cast(*v, result);
}

}  // namespace fathom
