// Interval arithmetic over canonical Exprs. Infinite ends saturate; anything an interval cannot
// describe (an unbounded divisor, a product of infinities with mixed signs) widens to
// [-inf, inf], which only ever makes the ShapeEnv ask for a guard instead of deciding.
#include "engine/symbolic/ValueRange.h"

#include <algorithm>
#include <array>

#include "engine/symbolic/Expr.h"

namespace fathom::sym {
namespace {

using R = ValueRange;
constexpr R kAll{};

bool isInf(int64_t v) { return v == R::kNegInf || v == R::kPosInf; }

// Saturating arithmetic on interval ends: a finite result that overflows becomes infinite, and
// a low end with -inf (a high end with +inf) in it stays there.
int64_t satAdd(int64_t a, int64_t b, int64_t towards) {
  if (a == towards || b == towards) return towards;
  if (isInf(a)) return a;
  if (isInf(b)) return b;
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return a > 0 ? R::kPosInf : R::kNegInf;
  return r;
}
int64_t satMul(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  const bool negative = (a < 0) != (b < 0);
  if (isInf(a) || isInf(b)) return negative ? R::kNegInf : R::kPosInf;
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r) || r == INT64_MIN) return negative ? R::kNegInf : R::kPosInf;
  return r;
}

R add(R a, R b) { return {satAdd(a.lo, b.lo, R::kNegInf), satAdd(a.hi, b.hi, R::kPosInf)}; }

R mul(R a, R b) {
  const std::array<int64_t, 4> c = {satMul(a.lo, b.lo), satMul(a.lo, b.hi), satMul(a.hi, b.lo), satMul(a.hi, b.hi)};
  return {*std::min_element(c.begin(), c.end()), *std::max_element(c.begin(), c.end())};
}

R power(R a, int32_t p) {
  R out = R::exactly(1);
  for (int32_t i = 0; i < p; ++i) out = mul(out, a);
  if (p % 2 == 0 && out.lo < 0) out.lo = 0;  // even powers are never negative
  return out;
}

int64_t floorDivEnd(int64_t a, int64_t c) {  // c > 0
  if (isInf(a)) return a;
  return a / c - ((a % c != 0 && a < 0) ? 1 : 0);
}

R atomRange(const Atom& a, const std::function<R(int32_t)>& symbolRange) {
  switch (a.kind) {
    case AtomKind::Symbol: return symbolRange(a.symbol);
    case AtomKind::FloorDiv: {
      auto c = a.args[1].constant();
      if (!c || *c <= 0) return kAll;
      R x = rangeOf(a.args[0], symbolRange);
      return {floorDivEnd(x.lo, *c), floorDivEnd(x.hi, *c)};
    }
    case AtomKind::Mod: {
      auto c = a.args[1].constant();
      if (!c || *c <= 0) return kAll;
      R x = rangeOf(a.args[0], symbolRange);
      if (x.lo >= 0 && x.hi < *c) return x;
      return {0, *c - 1};
    }
    case AtomKind::Max:
    case AtomKind::Min: {
      R out = rangeOf(a.args[0], symbolRange);
      for (size_t i = 1; i < a.args.size(); ++i) {
        R x = rangeOf(a.args[i], symbolRange);
        out = a.kind == AtomKind::Max ? R{std::max(out.lo, x.lo), std::max(out.hi, x.hi)}
                                      : R{std::min(out.lo, x.lo), std::min(out.hi, x.hi)};
      }
      return out;
    }
  }
  return kAll;
}

}  // namespace

std::string ValueRange::str() const {
  auto end = [](int64_t v) { return v == kNegInf ? std::string("-inf") : v == kPosInf ? std::string("inf") : std::to_string(v); };
  return "[" + end(lo) + ", " + end(hi) + "]";
}

// The monomial every term of `e` shares (s1 in 768*s0*s1 - 768*s1), or 1.
Expr commonMonomial(const Expr& e) {
  if (e.constantPart() != 0 || e.terms().size() < 2) return Expr(1);
  std::vector<Factor> common = e.terms()[0].factors;
  for (size_t i = 1; i < e.terms().size() && !common.empty(); ++i) {
    std::vector<Factor> next;
    for (const auto& c : common)
      for (const auto& f : e.terms()[i].factors)
        if (f.atom == c.atom || compareAtoms(*f.atom, *c.atom) == 0) next.push_back({c.atom, std::min(c.power, f.power)});
    common = std::move(next);
  }
  Expr m(1);
  for (const auto& c : common) {
    if (c.atom->kind != AtomKind::Symbol) return Expr(1);  // keep it simple: symbols only
    m = m * pow(Expr::symbol(c.atom->symbol), c.power);
  }
  return m;
}

ValueRange rangeOf(const Expr& e, const std::function<ValueRange(int32_t)>& symbolRange) {
  // Intervals lose the correlation between terms (s0*s1 - s1 looks unbounded); factoring out
  // the shared monomial first keeps it: s1*(s0 - 1) is positive for sizes.
  if (Expr m = commonMonomial(e); !m.isConstant()) {
    const Expr q = floorDiv(e, m);  // exact: m divides every term
    return mul(rangeOf(m, symbolRange), rangeOf(q, symbolRange));
  }
  R out = R::exactly(e.constantPart());
  for (const auto& t : e.terms()) {
    R term = R::exactly(t.coeff);
    for (const auto& f : t.factors) term = mul(term, power(atomRange(*f.atom, symbolRange), f.power));
    out = add(out, term);
  }
  return out;
}

std::optional<bool> decideAgainstZero(SymRel rel, const ValueRange& a) {
  switch (rel) {
    case SymRel::Eq:
      if (a.lo == 0 && a.hi == 0) return true;
      if (a.lo > 0 || a.hi < 0) return false;
      return std::nullopt;
    case SymRel::Ne: {
      auto eq = decideAgainstZero(SymRel::Eq, a);
      return eq ? std::optional<bool>(!*eq) : std::nullopt;
    }
    case SymRel::Lt:
      if (a.hi < 0) return true;
      if (a.lo >= 0) return false;
      return std::nullopt;
    case SymRel::Le:
      if (a.hi <= 0) return true;
      if (a.lo > 0) return false;
      return std::nullopt;
    case SymRel::Gt: {
      auto le = decideAgainstZero(SymRel::Le, a);
      return le ? std::optional<bool>(!*le) : std::nullopt;
    }
    case SymRel::Ge: {
      auto lt = decideAgainstZero(SymRel::Lt, a);
      return lt ? std::optional<bool>(!*lt) : std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace fathom::sym
