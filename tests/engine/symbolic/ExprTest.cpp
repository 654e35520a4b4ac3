// Symbolic expressions: canonical form, printing/parsing round trips, evaluation, and property
// tests of the simplifier over thousands of random expressions.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "engine/core/Error.h"
#include "engine/symbolic/Expr.h"

namespace fathom::sym {
namespace {

Expr s(int32_t i) { return Expr::symbol(i); }

Expr parsed(std::string_view text) {
  auto e = parseExpr(text);
  EXPECT_TRUE(e.ok()) << text << ": " << (e.ok() ? "" : e.error().message);
  return e.ok() ? *e : Expr(0);
}

TEST(SymExpr, CanonicalFormMergesAndOrders) {
  EXPECT_EQ((s(0) + s(1) + s(0)).str(), "2*s0 + s1");
  EXPECT_EQ((s(1) * s(0)).str(), "s0*s1");
  EXPECT_EQ((s(0) * s(1) + s(0) + 1).str(), "s0*s1 + s0 + 1");
  EXPECT_EQ((s(0) - s(0)).str(), "0");
  EXPECT_EQ((s(0) * s(0)).str(), "s0**2");
  EXPECT_EQ((Expr(1) - s(0)).str(), "-s0 + 1");
  EXPECT_EQ(((s(0) + 1) * (s(0) - 1)).str(), "s0**2 - 1");
  EXPECT_EQ(s(0) + s(1), s(1) + s(0));
}

TEST(SymExpr, FloorDivAndModRewrites) {
  EXPECT_EQ(floorDiv(s(0), 2).str(), "(s0//2)");
  EXPECT_EQ(floorDiv(4 * s(0) + 2, 2).str(), "2*s0 + 1");
  EXPECT_EQ(floorDiv(4 * s(0) + 3, 2).str(), "2*s0 + 1");
  EXPECT_EQ(floorDiv(2 * s(0), 4).str(), "(s0//2)");
  EXPECT_EQ(floorDiv(floorDiv(s(0), 2), 3).str(), "(s0//6)");
  EXPECT_EQ(floorDiv(floorDiv(s(0) + 1, 2) + 1, 2).str(), "((s0 + 3)//4)");  // stride-2 convs, twice
  EXPECT_EQ(floorDiv(s(0) * s(1), s(1)).str(), "s0");
  EXPECT_EQ(floorDiv(s(0) * s(1) + s(2), s(1)).str(), "s0 + (s2//s1)");
  EXPECT_EQ(floorDiv(s(0) + 1, 2).str(), "((s0 + 1)//2)");
  EXPECT_EQ(mod(s(0), 2).str(), "Mod(s0, 2)");
  EXPECT_EQ(mod(4 * s(0) + 3, 2).str(), "1");
  EXPECT_EQ(mod(6 * s(0) + 2, 4).str(), "2*Mod(3*s0 + 1, 2)");
  EXPECT_EQ(mod(mod(s(0), 8), 4).str(), "Mod(s0, 4)");
  EXPECT_EQ(mod(s(0) * s(1), s(1)).str(), "0");
}

TEST(SymExpr, MaxMinFoldAndFlatten) {
  EXPECT_EQ(max(1, s(0)).str(), "Max(1, s0)");
  EXPECT_EQ(max(s(0), 1).str(), "Max(1, s0)");
  EXPECT_EQ(max(max(1, s(0)), 3).str(), "Max(3, s0)");
  EXPECT_EQ(max(s(0) + 1, s(0)).str(), "s0 + 1");
  EXPECT_EQ(min(s(0) + 1, s(0)).str(), "s0");
  EXPECT_EQ(max(s(0), s(0)).str(), "s0");
  EXPECT_EQ(min(s(1), s(0)).str(), "Min(s0, s1)");
}

TEST(SymExpr, ParsesPyTorchSyntax) {
  EXPECT_EQ(parsed("s0*s1"), s(0) * s(1));
  EXPECT_EQ(parsed("(s0//2)"), floorDiv(s(0), 2));
  EXPECT_EQ(parsed("s0//2"), floorDiv(s(0), 2));
  EXPECT_EQ(parsed("Max(1, s0)"), max(1, s(0)));
  EXPECT_EQ(parsed("-s0**2 + 3*s1 - 7"), Expr(0) - s(0) * s(0) + 3 * s(1) - 7);
  EXPECT_EQ(parsed("FloorDiv(s0, 4)"), floorDiv(s(0), 4));
  EXPECT_EQ(parsed("s0 % 3"), mod(s(0), 3));
  EXPECT_EQ(parsed("Min(s0, s1, 4)"), min(min(s(0), s(1)), 4));
  auto r = parseRelation("Eq(s0, 128)");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->rel, SymRel::Eq);
  EXPECT_EQ(r->str(), "Eq(s0, 128)");
  for (const char* text : {"Ne(s0, 1)", "s0 < 8", "s0 >= 2", "s0*s1 <= 4096", "Eq((s0//2), s1)"}) {
    auto rel = parseRelation(text);
    ASSERT_TRUE(rel.ok()) << text;
    EXPECT_EQ(rel->str(), text);
  }
}

TEST(SymExpr, BadTextIsAClearError) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (auto [text, message] : {Case{"s0 +", "unexpected end"}, Case{"s0 + *", "expected a term"}, Case{"s0 + x", "unknown name 'x'"},
                               Case{"(s0", "expected ')'"}, Case{"s0 // 0", "division by zero"},
                               Case{"Mod(s0, 0)", "modulo by zero"}, Case{"s0 2", "unexpected '2'"},
                               Case{"99999999999999999999", "out of range"}, Case{"Max(s0)", "at least 2"},
                               Case{"s0**99", "larger than 64"}, Case{"", "unexpected end"}}) {
    auto e = parseExpr(text);
    ASSERT_FALSE(e.ok()) << text;
    EXPECT_NE(e.error().message.find(message), std::string::npos) << e.error().message;
    EXPECT_NE(e.error().message.find(std::string("'") + text + "'"), std::string::npos) << e.error().message;
  }
  EXPECT_FALSE(parseExpr(std::string(5000, '(') + "s0" + std::string(5000, ')')).ok());
  EXPECT_FALSE(parseRelation("s0 + 1").ok());
}

TEST(SymExpr, EvaluateReportsUnboundZeroAndOverflow) {
  auto bind = [](int32_t i) -> std::optional<int64_t> { return i == 0 ? std::optional<int64_t>(5) : std::nullopt; };
  EXPECT_EQ(*evaluate(parsed("2*s0 + (s0//2)"), bind), 12);
  auto unbound = evaluate(s(0) + s(1), bind);
  ASSERT_FALSE(unbound.ok());
  EXPECT_NE(unbound.error().message.find("s1 is not bound"), std::string::npos);
  EXPECT_NE(unbound.error().message.find("'s0 + s1'"), std::string::npos);
  auto zero = evaluate(floorDiv(s(1), s(0)), [](int32_t i) { return std::optional<int64_t>(i == 0 ? 0 : 3); });
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.error().message.find("division by zero"), std::string::npos);
  auto big = evaluate(s(0) * s(0), [](int32_t) { return std::optional<int64_t>(INT64_C(1) << 40); });
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().message.find("overflow"), std::string::npos);
}

TEST(SymExpr, SubstituteResimplifies) {
  Expr e = floorDiv(s(0) * s(1), 4);
  Expr r = substitute(e, [](int32_t i) { return i == 1 ? std::optional<Expr>(Expr(8)) : std::nullopt; });
  EXPECT_EQ(r.str(), "2*s0");
}

// ---- properties over random expressions ----------------------------------------------------

// A random expression as an unsimplified tree, so it can be evaluated independently.
struct Tree {
  enum Kind { Const, Sym, Add, Sub, Mul, Div, Mod, Max, Min } kind;
  int64_t value = 0;
  std::vector<Tree> kids;
};

Tree randomTree(std::mt19937& rng, int depth) {
  std::uniform_int_distribution<int> pick(0, depth <= 0 ? 1 : 8);
  Tree t{static_cast<Tree::Kind>(pick(rng)), 0, {}};
  if (t.kind == Tree::Const) t.value = std::uniform_int_distribution<int64_t>(-6, 12)(rng);
  else if (t.kind == Tree::Sym) t.value = std::uniform_int_distribution<int64_t>(0, 3)(rng);
  else {
    t.kids.push_back(randomTree(rng, depth - 1));
    if ((t.kind == Tree::Div || t.kind == Tree::Mod) && pick(rng) % 2 == 0) {
      t.kids.push_back({Tree::Const, std::uniform_int_distribution<int64_t>(1, 8)(rng), {}});  // constant divisors are common
    } else {
      t.kids.push_back(randomTree(rng, depth - 1));
    }
  }
  return t;
}

std::optional<int64_t> evalTree(const Tree& t, const std::vector<int64_t>& v) {
  if (t.kind == Tree::Const) return t.value;
  if (t.kind == Tree::Sym) return v[static_cast<size_t>(t.value)];
  auto a = evalTree(t.kids[0], v), b = evalTree(t.kids[1], v);
  if (!a || !b) return std::nullopt;
  try {
    switch (t.kind) {
      case Tree::Add: return checkedAdd(*a, *b);
      case Tree::Sub: return checkedAdd(*a, -*b);
      case Tree::Mul: return checkedMul(*a, *b);
      case Tree::Div: return floorDivInt(*a, *b);
      case Tree::Mod: return modInt(*a, *b);
      case Tree::Max: return std::max(*a, *b);
      case Tree::Min: return std::min(*a, *b);
      default: return std::nullopt;
    }
  } catch (const OpError&) {
    return std::nullopt;
  }
}

std::optional<Expr> build(const Tree& t) {
  if (t.kind == Tree::Const) return Expr(t.value);
  if (t.kind == Tree::Sym) return Expr::symbol(static_cast<int32_t>(t.value));
  auto a = build(t.kids[0]), b = build(t.kids[1]);
  if (!a || !b) return std::nullopt;
  try {
    switch (t.kind) {
      case Tree::Add: return *a + *b;
      case Tree::Sub: return *a - *b;
      case Tree::Mul: return *a * *b;
      case Tree::Div: return floorDiv(*a, *b);
      case Tree::Mod: return mod(*a, *b);
      case Tree::Max: return max(*a, *b);
      case Tree::Min: return min(*a, *b);
      default: return std::nullopt;
    }
  } catch (const OpError&) {
    return std::nullopt;  // a constant zero divisor: an error at construction, as it should be
  }
}

TEST(SymExprProperty, SimplifierPreservesValuesIsIdempotentAndTerminates) {
  std::mt19937 rng(20261121);
  int checked = 0;
  for (int i = 0; i < 5000; ++i) {
    const Tree tree = randomTree(rng, 4);
    const auto start = std::chrono::steady_clock::now();
    auto e = build(tree);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    // A termination watchdog, not a speed check: simplifying one of these takes microseconds, so
    // only a rewrite loop or a blow-up gets near a second, even under sanitizers on a busy machine.
    EXPECT_LT(elapsed, std::chrono::seconds(2)) << "expression " << i << " did not finish simplifying";
    if (e) {
      EXPECT_LE(e->size(), 2000u) << "expression " << i << " blew up: " << e->str();
    }
    if (!e) continue;
    // Idempotent and round-trips through text.
    auto again = parseExpr(e->str());
    ASSERT_TRUE(again.ok()) << e->str() << ": " << again.error().message;
    ASSERT_EQ(again->str(), e->str());
    ASSERT_EQ(*again, *e) << e->str();
    for (int b = 0; b < 8; ++b) {
      std::vector<int64_t> values(4);
      for (auto& v : values) v = std::uniform_int_distribution<int64_t>(-20, 40)(rng);
      auto expected = evalTree(tree, values);
      if (!expected) continue;  // undefined for this binding (division by zero)
      auto got = evaluate(*e, [&](int32_t s) { return std::optional<int64_t>(values[static_cast<size_t>(s)]); });
      ASSERT_TRUE(got.ok()) << e->str() << ": " << got.error().message;
      ASSERT_EQ(*got, *expected) << e->str() << " at s0..s3 = " << values[0] << "," << values[1] << ","
                                 << values[2] << "," << values[3];
      ++checked;
    }
  }
  EXPECT_GT(checked, 20000);
}

}  // namespace
}  // namespace fathom::sym
