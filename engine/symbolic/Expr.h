// Expr: an integer expression over size symbols, always kept in canonical form.
//
// The canonical form is a polynomial with int64 coefficients over *atoms*: a symbol (s0), or a
// function the polynomial cannot absorb - FloorDiv(a, b), Mod(a, b), Max(a, ...), Min(a, ...) -
// whose arguments are canonical Exprs themselves. Terms are sorted (higher degree first), equal
// monomials are merged, zero coefficients dropped, so two equal-by-construction expressions
// compare equal and print the same.
//
// The constructors (add, mul, floorDiv, mod, max, min) simplify as they build, with rewrites that
// only ever shrink an expression or move it towards the canonical order, so simplification
// always terminates; each rewrite keeps the value wherever the original is defined:
//   floor((c*q + r) / c) = q + floor(r / c)         (c a constant or a monomial)
//   floor(r / c)         = floor((r/d) / (c/d))       (d = gcd of r's coefficients and c)
//   floor((floor(x / a) + k) / b) = floor((x + a*k) / (a*b))   (a, b > 0)
//   Mod(c*q + r, c) = Mod(r, c);  Mod(d*r, d*c) = d*Mod(r, c);  Mod(Mod(x, c), c) = Mod(x, c)
//   Max/Min: flattened, constants folded, duplicates and dominated arguments dropped
// Coefficient overflow and division by a constant zero throw OpError naming the expression.
//
// Text is PyTorch's (sympy's) syntax: `2*s0*s1 + s0 - 1`, `(s0//2)`, `Mod(s0, 2)`,
// `Max(1, s0)`, `s0**2`; Relations print as `Eq(s0, 128)`, `Ne(s0, 1)`, `s0 < 8`, `s0 >= 2`.
// parse(e.str()) == e for every Expr.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/Result.h"
#include "engine/core/SymInt.h"

namespace fathom::sym {

class Expr;
struct Atom;
using AtomPtr = std::shared_ptr<const Atom>;

enum class AtomKind : uint8_t { Symbol, FloorDiv, Mod, Max, Min };

struct Factor {
  AtomPtr atom;
  int32_t power = 1;
};

// coeff * factors[0]^p0 * factors[1]^p1 ...; factors sorted by atom order, no atom twice.
struct Term {
  int64_t coeff = 0;
  std::vector<Factor> factors;
  int64_t degree() const;
};

class Expr {
 public:
  Expr(int64_t c = 0) : constant_(c) {}  // NOLINT: constants convert implicitly
  static Expr symbol(int32_t index);

  bool isConstant() const { return terms_.empty(); }
  std::optional<int64_t> constant() const {
    return terms_.empty() ? std::optional<int64_t>(constant_) : std::nullopt;
  }
  int64_t constantPart() const { return constant_; }
  const std::vector<Term>& terms() const { return terms_; }
  // The symbol index when the expression is exactly one symbol.
  std::optional<int32_t> asSymbol() const;
  // Every symbol index the expression mentions, sorted, unique.
  std::vector<int32_t> symbols() const;
  // Number of atoms, terms and arguments: a size measure for tests and limits.
  size_t size() const;

  std::string str() const;

  friend Expr operator+(const Expr& a, const Expr& b);
  friend Expr operator-(const Expr& a, const Expr& b);
  friend Expr operator*(const Expr& a, const Expr& b);
  friend Expr operator-(const Expr& a);
  friend bool operator==(const Expr& a, const Expr& b) { return compare(a, b) == 0; }
  friend bool operator<(const Expr& a, const Expr& b) { return compare(a, b) < 0; }
  static int compare(const Expr& a, const Expr& b);

 private:
  friend struct ExprBuilder;
  std::vector<Term> terms_;
  int64_t constant_ = 0;
};

struct Atom {
  AtomKind kind = AtomKind::Symbol;
  int32_t symbol = -1;      // Symbol
  std::vector<Expr> args;   // FloorDiv, Mod: {a, b}; Max, Min: >= 2, sorted
};
int compareAtoms(const Atom& a, const Atom& b);

Expr floorDiv(const Expr& a, const Expr& b);
Expr mod(const Expr& a, const Expr& b);
Expr max(const Expr& a, const Expr& b);
Expr min(const Expr& a, const Expr& b);
Expr pow(const Expr& base, int32_t exponent);
// Applies a SymOp (the operations SymInt offers).
Expr apply(SymOp op, const Expr& a, const Expr& b);

// `lhs REL rhs`. Kept as written (both sides canonical); compare via difference().
struct Relation {
  SymRel rel = SymRel::Eq;
  Expr lhs, rhs;
  std::string str() const;
  Expr difference() const { return lhs - rhs; }
  Relation negated() const;
  friend bool operator==(const Relation& a, const Relation& b) {
    return a.rel == b.rel && a.lhs == b.lhs && a.rhs == b.rhs;
  }
};
std::string_view relName(SymRel rel);  // "Eq", "Ne", "Lt", ...

// Symbol names are `s<index>`, as PyTorch names them.
std::string symbolName(int32_t index);
std::optional<int32_t> parseSymbolName(std::string_view name);

// Parsing. Errors are InvalidInput: "bad expression 's0 +': expected a term at column 5".
Result<Expr> parseExpr(std::string_view text);
Result<Relation> parseRelation(std::string_view text);

// Evaluation under a binding: value of symbol i, or nullopt when unbound. Errors (unbound
// symbol, division by zero, overflow) are InvalidInput naming the expression.
using Binding = std::function<std::optional<int64_t>(int32_t)>;
Result<int64_t> evaluate(const Expr& e, const Binding& binding);
Result<bool> evaluate(const Relation& r, const Binding& binding);
// Replaces symbols: `replace(i)` gives the new Expr for symbol i, or nullopt to keep it.
using Substitution = std::function<std::optional<Expr>(int32_t)>;
Expr substitute(const Expr& e, const Substitution& replace);

}  // namespace fathom::sym
