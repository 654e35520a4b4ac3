// Canonical-form construction and the simplifying constructors (see Expr.h for the rules).
#include "engine/symbolic/Expr.h"

#include <algorithm>
#include <climits>
#include <numeric>
#include <utility>

#include "engine/core/Error.h"

namespace fathom::sym {
namespace {

int cmp(int64_t a, int64_t b) { return a < b ? -1 : a > b ? 1 : 0; }

// Coefficients never hold INT64_MIN, so every coefficient has a printable, parsable magnitude.
int64_t checked(int64_t v) {
  FATHOM_CHECK(v != INT64_MIN, "integer overflow in a symbolic expression");
  return v;
}
int64_t add64(int64_t a, int64_t b) { return checked(checkedAdd(a, b)); }
int64_t mul64(int64_t a, int64_t b) { return checked(checkedMul(a, b)); }

int compareFactors(const std::vector<Factor>& a, const std::vector<Factor>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i].atom != b[i].atom)
      if (int c = compareAtoms(*a[i].atom, *b[i].atom)) return c;
    if (a[i].power != b[i].power) return cmp(b[i].power, a[i].power);
  }
  return cmp(static_cast<int64_t>(a.size()), static_cast<int64_t>(b.size()));
}

// Canonical term order: higher degree first, then by factors.
int compareMonomials(const Term& a, const Term& b) {
  const int64_t da = a.degree(), db = b.degree();
  if (da != db) return da > db ? -1 : 1;
  return compareFactors(a.factors, b.factors);
}

std::vector<Factor> multiplyFactors(const std::vector<Factor>& a, const std::vector<Factor>& b) {
  std::vector<Factor> out;
  out.reserve(a.size() + b.size());
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    const int c = i == a.size() ? 1 : j == b.size() ? -1
                 : a[i].atom == b[j].atom ? 0 : compareAtoms(*a[i].atom, *b[j].atom);
    if (c < 0) out.push_back(a[i++]);
    else if (c > 0) out.push_back(b[j++]);
    else {
      const int64_t p = static_cast<int64_t>(a[i].power) + b[j].power;
      FATHOM_CHECK(p <= 1024, "symbolic expression power too large");
      out.push_back({a[i].atom, static_cast<int32_t>(p)});
      ++i, ++j;
    }
  }
  return out;
}

// `a` divided by `b` when every factor of b appears in a with at least b's power.
std::optional<std::vector<Factor>> divideFactors(const std::vector<Factor>& a, const std::vector<Factor>& b) {
  std::vector<Factor> out;
  size_t j = 0;
  for (const auto& f : a) {
    if (j < b.size() && (f.atom == b[j].atom || compareAtoms(*f.atom, *b[j].atom) == 0)) {
      if (f.power < b[j].power) return std::nullopt;
      if (f.power > b[j].power) out.push_back({f.atom, f.power - b[j].power});
      ++j;
    } else {
      out.push_back(f);
    }
  }
  if (j != b.size()) return std::nullopt;
  return out;
}

int64_t gcdOf(const Expr& e) {
  int64_t g = e.constantPart() < 0 ? -e.constantPart() : e.constantPart();
  for (const auto& t : e.terms()) g = std::gcd(g, t.coeff < 0 ? -t.coeff : t.coeff);
  return g;
}

// The single atom of `e` when e is exactly `atom` (coefficient 1, power 1, no constant).
const Atom* singleAtom(const Expr& e) {
  if (e.constantPart() != 0 || e.terms().size() != 1) return nullptr;
  const Term& t = e.terms()[0];
  if (t.coeff != 1 || t.factors.size() != 1 || t.factors[0].power != 1) return nullptr;
  return t.factors[0].atom.get();
}

bool isSingleTerm(const Expr& e) { return e.constantPart() == 0 && e.terms().size() == 1; }

}  // namespace

// Builds Exprs from raw parts: sorts, merges equal monomials, drops zeros.
struct ExprBuilder {
  static Expr make(std::vector<Term> terms, int64_t constant) {
    Expr e;
    // A term whose factors all divided away is a constant.
    for (auto& t : terms)
      if (t.factors.empty()) constant = add64(constant, std::exchange(t.coeff, 0));
    e.constant_ = checked(constant);
    std::sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) { return compareMonomials(a, b) < 0; });
    for (auto& t : terms) {
      if (!e.terms_.empty() && compareMonomials(e.terms_.back(), t) == 0) {
        e.terms_.back().coeff = add64(e.terms_.back().coeff, t.coeff);
      } else {
        e.terms_.push_back(std::move(t));
      }
      if (e.terms_.back().coeff == 0) e.terms_.pop_back();
    }
    return e;
  }
  static Expr atom(AtomKind kind, std::vector<Expr> args) {
    auto a = std::make_shared<Atom>();
    a->kind = kind;
    a->args = std::move(args);
    Expr e;
    e.terms_.push_back({1, {{std::move(a), 1}}});
    return e;
  }
  static Expr scaled(const Expr& e, int64_t c) {
    if (c == 0) return Expr(0);
    Expr out;
    out.constant_ = mul64(e.constant_, c);
    out.terms_ = e.terms_;
    for (auto& t : out.terms_) t.coeff = mul64(t.coeff, c);
    return out;
  }
  // e / c where every coefficient is divisible by c.
  static Expr divided(const Expr& e, int64_t c) {
    Expr out;
    out.constant_ = e.constant_ / c;
    out.terms_ = e.terms_;
    for (auto& t : out.terms_) t.coeff /= c;
    return out;
  }
};

int64_t Term::degree() const {
  int64_t d = 0;
  for (const auto& f : factors) d += f.power;
  return d;
}

Expr Expr::symbol(int32_t index) {
  auto a = std::make_shared<Atom>();
  a->kind = AtomKind::Symbol;
  a->symbol = index;
  Expr e;
  e.terms_.push_back({1, {{std::move(a), 1}}});
  return e;
}

std::optional<int32_t> Expr::asSymbol() const {
  const Atom* a = singleAtom(*this);
  return a && a->kind == AtomKind::Symbol ? std::optional<int32_t>(a->symbol) : std::nullopt;
}

namespace {
void collectSymbols(const Expr& e, std::vector<int32_t>& out) {
  for (const auto& t : e.terms())
    for (const auto& f : t.factors) {
      if (f.atom->kind == AtomKind::Symbol) out.push_back(f.atom->symbol);
      for (const auto& a : f.atom->args) collectSymbols(a, out);
    }
}
}  // namespace

std::vector<int32_t> Expr::symbols() const {
  std::vector<int32_t> out;
  collectSymbols(*this, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

size_t Expr::size() const {
  size_t n = 1;
  for (const auto& t : terms_)
    for (const auto& f : t.factors) {
      ++n;
      for (const auto& a : f.atom->args) n += a.size();
    }
  return n;
}

int compareAtoms(const Atom& a, const Atom& b) {
  if (&a == &b) return 0;
  if (a.kind != b.kind) return cmp(static_cast<int>(a.kind), static_cast<int>(b.kind));
  if (a.kind == AtomKind::Symbol) return cmp(a.symbol, b.symbol);
  if (a.args.size() != b.args.size()) return cmp(static_cast<int64_t>(a.args.size()), static_cast<int64_t>(b.args.size()));
  for (size_t i = 0; i < a.args.size(); ++i)
    if (int c = Expr::compare(a.args[i], b.args[i])) return c;
  return 0;
}

// Fewer terms first (so constants sort before anything symbolic), then term by term.
int Expr::compare(const Expr& a, const Expr& b) {
  if (a.terms_.size() != b.terms_.size())
    return cmp(static_cast<int64_t>(a.terms_.size()), static_cast<int64_t>(b.terms_.size()));
  for (size_t i = 0; i < a.terms_.size(); ++i) {
    if (int c = compareMonomials(a.terms_[i], b.terms_[i])) return c;
    if (int c = cmp(a.terms_[i].coeff, b.terms_[i].coeff)) return c;
  }
  return cmp(a.constant_, b.constant_);
}

Expr operator+(const Expr& a, const Expr& b) {
  if (a.terms_.empty()) {
    Expr out = b;
    out.constant_ = add64(b.constant_, a.constant_);
    return out;
  }
  if (b.terms_.empty()) return b + a;
  std::vector<Term> terms = a.terms_;
  terms.insert(terms.end(), b.terms_.begin(), b.terms_.end());
  return ExprBuilder::make(std::move(terms), add64(a.constant_, b.constant_));
}

Expr operator-(const Expr& a) { return ExprBuilder::scaled(a, -1); }
Expr operator-(const Expr& a, const Expr& b) { return a + (-b); }

Expr operator*(const Expr& a, const Expr& b) {
  if (a.terms_.empty()) return ExprBuilder::scaled(b, a.constant_);
  if (b.terms_.empty()) return ExprBuilder::scaled(a, b.constant_);
  std::vector<Term> terms;
  terms.reserve((a.terms_.size() + 1) * (b.terms_.size() + 1));
  for (const auto& x : a.terms_) {
    for (const auto& y : b.terms_) terms.push_back({mul64(x.coeff, y.coeff), multiplyFactors(x.factors, y.factors)});
    if (b.constant_) terms.push_back({mul64(x.coeff, b.constant_), x.factors});
  }
  if (a.constant_)
    for (const auto& y : b.terms_) terms.push_back({mul64(a.constant_, y.coeff), y.factors});
  return ExprBuilder::make(std::move(terms), mul64(a.constant_, b.constant_));
}

Expr pow(const Expr& base, int32_t exponent) {
  FATHOM_CHECK(exponent >= 0 && exponent <= 64, "symbolic power ", exponent, " out of range [0, 64]");
  Expr out(1);
  for (int32_t i = 0; i < exponent; ++i) out = out * base;
  return out;
}

namespace {

// Splits `a` into q*divisor + r, taking every term that `divisor` (a constant or a single
// term) divides exactly; `constantToo` also splits the constant (floor-division style).
struct Split {
  Expr quotient, remainder;
  bool any = false;
};
Split splitByTerm(const Expr& a, const Term& divisor) {
  std::vector<Term> q, r;
  for (const auto& t : a.terms()) {
    auto f = t.coeff % divisor.coeff == 0 ? divideFactors(t.factors, divisor.factors) : std::nullopt;
    if (f) q.push_back({t.coeff / divisor.coeff, std::move(*f)});
    else r.push_back(t);
  }
  Split s;
  s.any = !q.empty();
  s.quotient = ExprBuilder::make(std::move(q), 0);
  s.remainder = ExprBuilder::make(std::move(r), a.constantPart());
  return s;
}

Split splitByConstant(const Expr& a, int64_t c) {
  std::vector<Term> q, r;
  for (const auto& t : a.terms()) (t.coeff % c == 0 ? q : r).push_back(t);
  for (auto& t : q) t.coeff /= c;
  Split s;
  s.any = !q.empty();
  s.quotient = ExprBuilder::make(std::move(q), floorDivInt(a.constantPart(), c));
  s.remainder = ExprBuilder::make(std::move(r), modInt(a.constantPart(), c));
  return s;
}

std::string divisionText(const Expr& a, const char* op, const Expr& b) {
  return "(" + a.str() + op + b.str() + ")";
}

Expr floorDivByConstant(const Expr& a, int64_t c) {
  if (c == 1) return a;
  if (c == -1) return -a;
  Split s = splitByConstant(a, c);
  Expr r = s.remainder;
  if (r.isConstant()) return s.quotient;  // 0 <= r < |c| (or |c| < r <= 0): floor(r/c) == 0
  if (int64_t d = std::gcd(gcdOf(r), c < 0 ? -c : c); d > 1) {
    r = ExprBuilder::divided(r, d);
    c /= d;
    if (c == 1) return s.quotient + r;
    if (c == -1) return s.quotient - r;
  }
  // floor((floor(x/a) + k) / c) = floor((x + a*k) / (a*c)) for a, c > 0: conv output sizes
  // (((s + 1)//2 + 1)//2) collapse to (s + 3)//4.
  if (const Atom* inner = singleAtom(r - Expr(r.constantPart())); inner && inner->kind == AtomKind::FloorDiv && c > 0) {
    auto a = inner->args[1].constant();
    if (a && *a > 0)
      return s.quotient + floorDivByConstant(inner->args[0] + Expr(mul64(*a, r.constantPart())), mul64(*a, c));
  }
  return s.quotient + ExprBuilder::atom(AtomKind::FloorDiv, {r, Expr(c)});
}

Expr modByConstant(const Expr& a, int64_t c) {
  if (c == 1 || c == -1) return Expr(0);
  Expr r = splitByConstant(a, c).remainder;
  if (r.isConstant()) return r;
  if (int64_t d = std::gcd(gcdOf(r), c < 0 ? -c : c); d > 1)
    return ExprBuilder::scaled(modByConstant(ExprBuilder::divided(r, d), c / d), d);
  if (const Atom* inner = singleAtom(r); inner && inner->kind == AtomKind::Mod && c > 0) {
    auto c2 = inner->args[1].constant();
    if (c2 && *c2 > 0 && *c2 % c == 0) return *c2 == c ? r : modByConstant(inner->args[0], c);
  }
  return ExprBuilder::atom(AtomKind::Mod, {r, Expr(c)});
}

}  // namespace

Expr floorDiv(const Expr& a, const Expr& b) {
  if (auto c = b.constant()) {
    FATHOM_CHECK(*c != 0, "division by zero in ", divisionText(a, "//", b));
    if (auto x = a.constant()) return Expr(checked(floorDivInt(*x, *c)));
    return floorDivByConstant(a, *c);
  }
  if (a.constant() == 0) return Expr(0);
  if (a == b) return Expr(1);
  if (isSingleTerm(b)) {
    Split s = splitByTerm(a, b.terms()[0]);
    if (s.any) return s.quotient + floorDiv(s.remainder, b);
  }
  return ExprBuilder::atom(AtomKind::FloorDiv, {a, b});
}

Expr mod(const Expr& a, const Expr& b) {
  if (auto c = b.constant()) {
    FATHOM_CHECK(*c != 0, "modulo by zero in Mod(", a.str(), ", ", b.str(), ")");
    if (auto x = a.constant()) return Expr(modInt(*x, *c));
    return modByConstant(a, *c);
  }
  if (a.constant() == 0 || a == b) return Expr(0);
  if (isSingleTerm(b)) {
    Split s = splitByTerm(a, b.terms()[0]);
    if (s.any) return s.remainder.constant() == 0 ? Expr(0) : mod(s.remainder, b);
  }
  return ExprBuilder::atom(AtomKind::Mod, {a, b});
}

namespace {

Expr extremum(AtomKind kind, const Expr& a, const Expr& b) {
  const bool isMax = kind == AtomKind::Max;
  std::vector<Expr> args;
  for (const Expr* e : {&a, &b}) {
    const Atom* atom = singleAtom(*e);
    if (atom && atom->kind == kind) args.insert(args.end(), atom->args.begin(), atom->args.end());
    else args.push_back(*e);
  }
  std::sort(args.begin(), args.end());
  args.erase(std::unique(args.begin(), args.end()), args.end());
  // Drop every argument another one dominates by a constant (s0 + 1 beats s0 in Max).
  std::vector<bool> dropped(args.size(), false);
  for (size_t i = 0; i < args.size(); ++i)
    for (size_t j = 0; j < args.size(); ++j) {
      if (i == j || dropped[i] || dropped[j]) continue;
      auto d = (args[i] - args[j]).constant();
      if (d && (isMax ? *d < 0 : *d > 0)) dropped[i] = true;
    }
  std::vector<Expr> kept;
  for (size_t i = 0; i < args.size(); ++i)
    if (!dropped[i]) kept.push_back(std::move(args[i]));
  if (kept.size() == 1) return kept[0];
  return ExprBuilder::atom(kind, std::move(kept));
}

}  // namespace

Expr max(const Expr& a, const Expr& b) { return extremum(AtomKind::Max, a, b); }
Expr min(const Expr& a, const Expr& b) { return extremum(AtomKind::Min, a, b); }

Expr apply(SymOp op, const Expr& a, const Expr& b) {
  switch (op) {
    case SymOp::Add: return a + b;
    case SymOp::Sub: return a - b;
    case SymOp::Mul: return a * b;
    case SymOp::FloorDiv: return floorDiv(a, b);
    case SymOp::Mod: return mod(a, b);
    case SymOp::Max: return max(a, b);
    case SymOp::Min: return min(a, b);
  }
  return a;
}

// ---- relations --------------------------------------------------------------------------

std::string_view relName(SymRel rel) {
  switch (rel) {
    case SymRel::Eq: return "Eq";
    case SymRel::Ne: return "Ne";
    case SymRel::Lt: return "Lt";
    case SymRel::Le: return "Le";
    case SymRel::Gt: return "Gt";
    case SymRel::Ge: return "Ge";
  }
  return "?";
}

Relation Relation::negated() const {
  static constexpr SymRel kNot[] = {SymRel::Ne, SymRel::Eq, SymRel::Ge, SymRel::Gt, SymRel::Le, SymRel::Lt};
  return {kNot[static_cast<int>(rel)], lhs, rhs};
}

std::string Relation::str() const {
  switch (rel) {
    case SymRel::Eq: return "Eq(" + lhs.str() + ", " + rhs.str() + ")";
    case SymRel::Ne: return "Ne(" + lhs.str() + ", " + rhs.str() + ")";
    case SymRel::Lt: return lhs.str() + " < " + rhs.str();
    case SymRel::Le: return lhs.str() + " <= " + rhs.str();
    case SymRel::Gt: return lhs.str() + " > " + rhs.str();
    case SymRel::Ge: return lhs.str() + " >= " + rhs.str();
  }
  return {};
}

}  // namespace fathom::sym
