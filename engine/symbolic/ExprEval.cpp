// Evaluating an Expr under a binding, and substituting symbols.
#include <algorithm>

#include "engine/core/Error.h"
#include "engine/symbolic/Expr.h"

namespace fathom::sym {
namespace {

int64_t power(int64_t base, int32_t exponent) {
  int64_t out = 1;
  for (int32_t i = 0; i < exponent; ++i) out = checkedMul(out, base);
  return out;
}

int64_t eval(const Expr& e, const Binding& binding);

int64_t evalAtom(const Atom& a, const Binding& binding) {
  switch (a.kind) {
    case AtomKind::Symbol: {
      auto v = binding(a.symbol);
      FATHOM_CHECK(v.has_value(), "symbol ", symbolName(a.symbol), " is not bound");
      return *v;
    }
    case AtomKind::FloorDiv: return floorDivInt(eval(a.args[0], binding), eval(a.args[1], binding));
    case AtomKind::Mod: return modInt(eval(a.args[0], binding), eval(a.args[1], binding));
    case AtomKind::Max:
    case AtomKind::Min: {
      int64_t v = eval(a.args[0], binding);
      for (size_t i = 1; i < a.args.size(); ++i) {
        const int64_t x = eval(a.args[i], binding);
        v = a.kind == AtomKind::Max ? std::max(v, x) : std::min(v, x);
      }
      return v;
    }
  }
  return 0;
}

int64_t eval(const Expr& e, const Binding& binding) {
  int64_t sum = e.constantPart();
  for (const auto& t : e.terms()) {
    int64_t product = t.coeff;
    for (const auto& f : t.factors) product = checkedMul(product, power(evalAtom(*f.atom, binding), f.power));
    sum = checkedAdd(sum, product);
  }
  return sum;
}

}  // namespace

Result<int64_t> evaluate(const Expr& e, const Binding& binding) {
  try {
    return eval(e, binding);
  } catch (const OpError& err) {
    return invalidInput("evaluating '" + e.str() + "': " + err.what());
  }
}

Result<bool> evaluate(const Relation& r, const Binding& binding) {
  try {
    return compareInts(r.rel, eval(r.lhs, binding), eval(r.rhs, binding));
  } catch (const OpError& err) {
    return invalidInput("evaluating '" + r.str() + "': " + err.what());
  }
}

namespace {
Expr substituteAtom(const Atom& a, const Substitution& replace) {
  if (a.kind == AtomKind::Symbol) {
    if (auto r = replace(a.symbol)) return *r;
    return Expr::symbol(a.symbol);
  }
  std::vector<Expr> args;
  for (const auto& x : a.args) args.push_back(substitute(x, replace));
  switch (a.kind) {
    case AtomKind::FloorDiv: return floorDiv(args[0], args[1]);
    case AtomKind::Mod: return mod(args[0], args[1]);
    default: {
      Expr e = args[0];
      for (size_t i = 1; i < args.size(); ++i) e = a.kind == AtomKind::Max ? max(e, args[i]) : min(e, args[i]);
      return e;
    }
  }
}
}  // namespace

Expr substitute(const Expr& e, const Substitution& replace) {
  Expr out(e.constantPart());
  for (const auto& t : e.terms()) {
    Expr term(t.coeff);
    for (const auto& f : t.factors) term = term * pow(substituteAtom(*f.atom, replace), f.power);
    out = out + term;
  }
  return out;
}

}  // namespace fathom::sym
