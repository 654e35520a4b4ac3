// The ShapeEnv and the SymNodeImpl it hands out (see ShapeEnv.h).
#include "engine/symbolic/ShapeEnv.h"

#include <tuple>

#include "engine/core/Error.h"

namespace fathom::sym {
namespace {

// A symbolic SymInt's node: an expression of one env, with its hint. Arithmetic builds new
// nodes (or plain ints when the result is constant); decisions go to the env.
class ShapeExprNode final : public SymNodeImpl {
 public:
  ShapeExprNode(std::shared_ptr<ShapeEnv> env, Expr expr, int64_t hint)
      : env_(std::move(env)), expr_(std::move(expr)), hint_(hint) {}

  int64_t hint() const override { return hint_; }
  std::string str() const override { return env_->canonical(expr_).str(); }

  SymInt apply(SymOp op, const SymInt& other, bool selfOnLeft) const override {
    const Expr o = operand(other);
    const int64_t hint = selfOnLeft ? SymInt::combine(op, hint_, other.hint()).hint()
                                    : SymInt::combine(op, other.hint(), hint_).hint();
    const Expr& a = selfOnLeft ? expr_ : o;
    const Expr& b = selfOnLeft ? o : expr_;
    // Max/Min that the value ranges settle never become atoms: Max(1, s0) is s0 for a size.
    if (op == SymOp::Max || op == SymOp::Min) {
      const ValueRange d = env_->rangeOf(a - b);
      if (d.lo >= 0) return op == SymOp::Max ? withExpr(a, hint) : withExpr(b, hint);
      if (d.hi <= 0) return op == SymOp::Max ? withExpr(b, hint) : withExpr(a, hint);
    }
    Expr e = sym::apply(op, a, b);
    if (auto c = e.constant()) return SymInt(*c);
    return SymInt(std::make_shared<ShapeExprNode>(env_, std::move(e), hint));
  }

  bool decide(SymRel rel, const SymInt& other, std::string_view reason) const override {
    return env_->decide(rel, expr_, hint_, operand(other), other.hint(), reason);
  }

  SymInt withExpr(const Expr& e, int64_t hint) const {
    if (auto c = e.constant()) return SymInt(*c);
    return SymInt(std::make_shared<ShapeExprNode>(env_, e, hint));
  }

  const Expr& expr() const { return expr_; }
  const std::shared_ptr<ShapeEnv>& env() const { return env_; }

 private:
  Expr operand(const SymInt& other) const {
    if (!other.isSymbolic()) return Expr(other.hint());
    auto* node = dynamic_cast<const ShapeExprNode*>(other.node().get());
    FATHOM_CHECK(node && node->env_ == env_, "symbolic sizes ", str(), " and ", other.str(),
                 " come from different shape environments");
    return node->expr_;
  }

  std::shared_ptr<ShapeEnv> env_;
  Expr expr_;
  int64_t hint_;
};

const ShapeExprNode* nodeOf(const SymInt& s) {
  return s.isSymbolic() ? dynamic_cast<const ShapeExprNode*>(s.node().get()) : nullptr;
}

// c*s in `d` with c = +-1, s a symbol that appears nowhere else in d: d == 0 can be solved for s.
std::optional<std::pair<int32_t, int64_t>> solvableSymbol(const Expr& d) {
  std::optional<std::pair<int32_t, int64_t>> best;
  for (size_t i = 0; i < d.terms().size(); ++i) {
    const Term& t = d.terms()[i];
    if ((t.coeff != 1 && t.coeff != -1) || t.factors.size() != 1 || t.factors[0].power != 1 ||
        t.factors[0].atom->kind != AtomKind::Symbol)
      continue;
    const int32_t s = t.factors[0].atom->symbol;
    bool elsewhere = false;
    for (size_t j = 0; j < d.terms().size() && !elsewhere; ++j) {
      if (j == i) continue;
      for (const auto& f : d.terms()[j].factors) {
        if (f.atom->kind == AtomKind::Symbol && f.atom->symbol == s) elsewhere = true;
        for (const auto& a : f.atom->args)
          for (int32_t x : a.symbols()) elsewhere |= x == s;
      }
    }
    if (!elsewhere && (!best || s > best->first)) best = std::pair{s, t.coeff};
  }
  return best;
}

// INT64_MAX / INT64_MIN stand for "no bound" (slice's default end): no size reaches them, so
// `x REL bound` needs no guard.
std::optional<bool> againstNoBound(SymRel rel, const Expr& l, const Expr& r) {
  if (auto c = l.constant(); c && (*c == INT64_MAX || *c == INT64_MIN)) return againstNoBound(mirrored(rel), r, l);
  auto c = r.constant();
  if (!c || (*c != INT64_MAX && *c != INT64_MIN)) return std::nullopt;
  if (rel == SymRel::Ne) return true;
  return *c == INT64_MAX ? (rel == SymRel::Lt || rel == SymRel::Le) : (rel == SymRel::Gt || rel == SymRel::Ge);
}

}  // namespace

// The reason a guard keeps: "{argN}" in the op's words becomes the argument's node ("%mask");
// a reason that does not name its operands gets the two sides appended: "... (s0 vs 64)".
std::string ShapeEnv::describe(std::string_view reason, const Expr& l, const Expr& r) const {
  if (reason.find("{arg") == std::string_view::npos) return std::string(reason) + " (" + l.str() + " vs " + r.str() + ")";
  std::string out;
  for (size_t at = 0; at < reason.size();) {
    const size_t open = reason.find("{arg", at);
    const size_t close = open == std::string_view::npos ? open : reason.find('}', open);
    if (close == std::string_view::npos) {
      out += reason.substr(at);
      break;
    }
    out += reason.substr(at, open - at);
    size_t index = 0;
    for (size_t k = open + 4; k < close; ++k) index = index * 10 + static_cast<size_t>(reason[k] - '0');
    out += index < context_.argNames.size() ? "%" + context_.argNames[index] : "input " + std::to_string(index);
    at = close + 1;
  }
  return out;
}

std::shared_ptr<ShapeEnv> ShapeEnv::create(ShapeEnvOptions options) {
  return std::shared_ptr<ShapeEnv>(new ShapeEnv(options));
}

SymInt ShapeEnv::wrap(Expr e, int64_t hint) {
  if (auto c = e.constant()) return SymInt(*c);
  return SymInt(std::make_shared<ShapeExprNode>(shared_from_this(), std::move(e), hint));
}

SymInt ShapeEnv::createSize(int64_t hint, const std::string& source) {
  FATHOM_CHECK(hint >= 0, "size ", hint, " of ", source, " is negative");
  if (options_.specializeZeroOne && (hint == 0 || hint == 1)) {
    specializations_.push_back({"", Expr(hint), "zero-one", source, context_,
                                source + " is " + std::to_string(hint) + ": sizes 0 and 1 are specialized"});
    notify(Event::Specialized, specializations_.size() - 1);
    return SymInt(hint);
  }
  if (options_.duckSizing) {
    if (auto it = symbolByHint_.find(hint); it != symbolByHint_.end()) {
      symbols_[static_cast<size_t>(it->second)].sources.push_back(source);
      return wrap(canonical(Expr::symbol(it->second)), hint);
    }
  }
  const auto index = static_cast<int32_t>(symbols_.size());
  symbols_.push_back({symbolName(index), hint, ValueRange::atLeast(options_.specializeZeroOne ? 2 : 0), {source}});
  symbolByHint_.emplace(hint, index);
  notify(Event::SymbolCreated, symbols_.size() - 1);
  return wrap(Expr::symbol(index), hint);
}

SymInt ShapeEnv::fromExpr(const Expr& e) {
  for (int32_t s : e.symbols())
    FATHOM_CHECK(s < static_cast<int32_t>(symbols_.size()), "unknown symbol ", symbolName(s), " in ", e.str());
  return wrap(e, hintOf(e));
}

void ShapeEnv::addSymbol(SymbolInfo info) {
  const auto index = static_cast<int32_t>(symbols_.size());
  symbolByHint_.emplace(info.hint, index);
  symbols_.push_back(std::move(info));
}

void ShapeEnv::addReplacement(int32_t symbol, Expr value) {
  replacements_[symbol] = std::move(value);
  ++generation_;
}

std::optional<int32_t> ShapeEnv::symbolIndex(std::string_view name) const {
  auto i = parseSymbolName(name);
  if (!i || *i >= static_cast<int32_t>(symbols_.size())) return std::nullopt;
  return i;
}

Expr ShapeEnv::canonical(const Expr& e) const {
  if (replacements_.empty()) return e;
  bool touched = false;
  for (int32_t s : e.symbols()) touched |= replacements_.count(s) > 0;
  if (!touched) return e;
  return substitute(e, [&](int32_t s) -> std::optional<Expr> {
    auto it = replacements_.find(s);
    return it == replacements_.end() ? std::nullopt : std::optional<Expr>(it->second);
  });
}

int64_t ShapeEnv::hintOf(const Expr& e) const {
  auto v = evaluate(e, [&](int32_t s) -> std::optional<int64_t> {
    if (s < 0 || s >= static_cast<int32_t>(symbols_.size())) return std::nullopt;
    return symbols_[static_cast<size_t>(s)].hint;
  });
  FATHOM_CHECK(v.ok(), v.ok() ? "" : v.error().message);
  return *v;
}

ValueRange ShapeEnv::rangeOf(const Expr& e) const {
  return sym::rangeOf(e, [&](int32_t s) {
    return s >= 0 && s < static_cast<int32_t>(symbols_.size()) ? symbols_[static_cast<size_t>(s)].range : ValueRange{};
  });
}

bool ShapeEnv::decide(SymRel rel, const Expr& lhs, int64_t lhsHint, const Expr& rhs, int64_t rhsHint,
                      std::string_view reason) {
  const Expr l = canonical(lhs), r = canonical(rhs);
  const Expr d = l - r;
  if (auto c = d.constant()) return compareInts(rel, *c, 0);
  if (auto settled = decideAgainstZero(rel, rangeOf(d))) return *settled;
  if (auto settled = againstNoBound(rel, l, r)) return *settled;

  const bool answer = compareInts(rel, lhsHint, rhsHint);
  const Relation asked{rel, l, r};
  const Relation holds = answer ? asked : asked.negated();
  std::string text = holds.str();
  if (auto it = guardIndex_.find(text); it != guardIndex_.end()) {
    ++guards_[it->second].count;
    notify(Event::GuardRepeated, it->second);
    return answer;
  }
  std::string why = describe(reason, l, r);
  guardIndex_.emplace(std::move(text), guards_.size());
  const Relation raw{rel, lhs, rhs};
  guards_.push_back({holds, context_, why, 1, answer ? raw : raw.negated()});
  notify(Event::GuardAdded, guards_.size() - 1);
  if (holds.rel == SymRel::Eq) maybeReplace(holds, why);
  return answer;
}

// An equality that holds lets one symbol go: the newest symbol in it is replaced by the rest,
// which unifies it with older symbols or pins it to a constant.
void ShapeEnv::maybeReplace(const Relation& holds, const std::string& reason) {
  const Expr d = holds.difference();
  auto solvable = solvableSymbol(d);
  if (!solvable) return;
  const int32_t symbol = solvable->first;  // not a structured binding: clang 14 cannot capture one
  const int64_t coeff = solvable->second;
  const Expr rest = d - Expr(coeff) * Expr::symbol(symbol);
  const Expr value = Expr(-coeff) * rest;  // coeff is +-1, so 1/coeff == coeff
  for (auto& [s, v] : replacements_)
    v = substitute(v, [&](int32_t x) { return x == symbol ? std::optional<Expr>(value) : std::nullopt; });
  replacements_[symbol] = value;
  ++generation_;
  const std::string kind = value.isConstant() ? "constant" : value.asSymbol() ? "unified" : "expression";
  specializations_.push_back({symbolName(symbol), value, kind, {}, context_, reason});
  notify(Event::Specialized, specializations_.size() - 1);
}

std::shared_ptr<ShapeEnv> shapeEnvOf(const SymInt& s) {
  const ShapeExprNode* n = nodeOf(s);
  return n ? n->env() : nullptr;
}

Expr exprOf(const SymInt& s, bool canonical) {
  if (!s.isSymbolic()) return Expr(s.hint());
  const ShapeExprNode* n = nodeOf(s);
  FATHOM_CHECK(n != nullptr, "symbolic size ", s.str(), " does not come from a shape environment");
  return canonical ? n->env()->canonical(n->expr()) : n->expr();
}

}  // namespace fathom::sym
