// Printing and parsing Exprs and Relations in PyTorch's (sympy's) syntax.
#include <cctype>
#include <charconv>

#include "engine/core/Error.h"
#include "engine/symbolic/Expr.h"

namespace fathom::sym {

std::string symbolName(int32_t index) { return "s" + std::to_string(index); }

std::optional<int32_t> parseSymbolName(std::string_view name) {
  if (name.size() < 2 || name[0] != 's') return std::nullopt;
  int32_t v = 0;
  auto [p, ec] = std::from_chars(name.data() + 1, name.data() + name.size(), v);
  if (ec != std::errc() || p != name.data() + name.size() || v < 0) return std::nullopt;
  if (name.size() > 2 && name[1] == '0') return std::nullopt;  // "s01" is not a symbol name
  return v;
}

namespace {

std::string atomStr(const Atom& a);

// A division operand needs parentheses unless it is a constant or one plain factor.
std::string operandStr(const Expr& e) {
  if (e.isConstant()) return e.str();
  const auto& t = e.terms();
  const bool plain = e.constantPart() == 0 && t.size() == 1 && t[0].coeff == 1 && t[0].factors.size() == 1 &&
                     t[0].factors[0].power == 1;
  return plain ? e.str() : "(" + e.str() + ")";
}

std::string argsStr(const char* fn, const std::vector<Expr>& args) {
  std::string out = fn;
  out += "(";
  for (size_t i = 0; i < args.size(); ++i) out += (i ? ", " : "") + args[i].str();
  return out + ")";
}

std::string atomStr(const Atom& a) {
  switch (a.kind) {
    case AtomKind::Symbol: return symbolName(a.symbol);
    case AtomKind::FloorDiv: return "(" + operandStr(a.args[0]) + "//" + operandStr(a.args[1]) + ")";
    case AtomKind::Mod: return argsStr("Mod", a.args);
    case AtomKind::Max: return argsStr("Max", a.args);
    case AtomKind::Min: return argsStr("Min", a.args);
  }
  return "?";
}

std::string monomialStr(const std::vector<Factor>& factors) {
  std::string out;
  for (size_t i = 0; i < factors.size(); ++i) {
    if (i) out += "*";
    out += atomStr(*factors[i].atom);
    if (factors[i].power != 1) out += "**" + std::to_string(factors[i].power);
  }
  return out;
}

}  // namespace

std::string Expr::str() const {
  if (terms_.empty()) return std::to_string(constant_);
  std::string out;
  for (size_t i = 0; i < terms_.size(); ++i) {
    const Term& t = terms_[i];
    const int64_t magnitude = t.coeff < 0 ? -t.coeff : t.coeff;  // never INT64_MIN
    if (i == 0) out += t.coeff < 0 ? "-" : "";
    else out += t.coeff < 0 ? " - " : " + ";
    if (magnitude != 1) out += std::to_string(magnitude) + "*";
    out += monomialStr(t.factors);
  }
  if (constant_ != 0) out += (constant_ < 0 ? " - " : " + ") + std::to_string(constant_ < 0 ? -constant_ : constant_);
  return out;
}

// ---- parsing ------------------------------------------------------------------------------

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Expr expression() {
    enter();
    Expr e = term();
    for (;;) {
      skipSpace();
      if (accept("+")) e = e + term();
      else if (peekMinus()) { ++pos_; e = e - term(); }
      else break;
    }
    --depth_;
    return e;
  }

  Relation relation() {
    skipSpace();
    static constexpr std::pair<const char*, SymRel> kFunctions[] = {
        {"Eq", SymRel::Eq}, {"Ne", SymRel::Ne}, {"Lt", SymRel::Lt},
        {"Le", SymRel::Le}, {"Gt", SymRel::Gt}, {"Ge", SymRel::Ge}};
    for (auto [name, rel] : kFunctions) {
      if (atCall(name)) {
        Relation r{rel, expression(), 0};
        expect(",");
        r.rhs = expression();
        expect(")");
        return r;
      }
    }
    Expr lhs = expression();
    skipSpace();
    static constexpr std::pair<const char*, SymRel> kOperators[] = {
        {"==", SymRel::Eq}, {"!=", SymRel::Ne}, {"<=", SymRel::Le},
        {">=", SymRel::Ge}, {"<", SymRel::Lt}, {">", SymRel::Gt}};
    for (auto [op, rel] : kOperators)
      if (accept(op)) return {rel, lhs, expression()};
    fail("expected a comparison (Eq(a, b), Ne(a, b), <, <=, >, >=, ==, !=)");
  }

  void finish() {
    skipSpace();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw OpError("bad expression '" + std::string(text_) + "': " + what + " at column " + std::to_string(pos_ + 1));
  }

 private:
  void enter() {
    if (++depth_ > 200) fail("nested too deeply");
  }
  void skipSpace() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }
  bool accept(std::string_view token) {
    skipSpace();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  void expect(std::string_view token) {
    if (!accept(token)) fail("expected '" + std::string(token) + "'");
  }
  // `name` followed by '(' (spaces between allowed); consumes both when so.
  bool atCall(std::string_view name) {
    const size_t paren = text_.find_first_not_of(' ', pos_ + name.size());
    if (text_.substr(pos_, name.size()) != name || paren == std::string_view::npos || text_[paren] != '(') return false;
    pos_ = paren + 1;
    return true;
  }
  bool peekMinus() const { return pos_ < text_.size() && text_[pos_] == '-'; }

  // term := unary (('*' | '//' | '%') unary)*
  Expr term() {
    Expr e = unary();
    for (;;) {
      skipSpace();
      if (text_.substr(pos_, 2) == "**") break;  // handled by power()
      if (accept("//")) {
        const size_t at = pos_;
        Expr d = unary();
        e = checkedOp([&] { return floorDiv(e, d); }, at);
      } else if (accept("*")) {
        e = e * unary();
      } else if (accept("%")) {
        const size_t at = pos_;
        Expr d = unary();
        e = checkedOp([&] { return mod(e, d); }, at);
      } else {
        break;
      }
    }
    return e;
  }

  template <class F>
  Expr checkedOp(F f, size_t at) {
    try {
      return f();
    } catch (const OpError& e) {
      pos_ = at;
      fail(e.what());
    }
  }

  // unary := '-' unary | '+' unary | power      (as in Python, -s0**2 is -(s0**2))
  Expr unary() {
    skipSpace();
    enter();
    Expr e = accept("-") ? -unary() : accept("+") ? unary() : power();
    --depth_;
    return e;
  }

  // power := primary ('**' integer)?
  Expr power() {
    Expr base = primary();
    if (!accept("**")) return base;
    skipSpace();
    const size_t at = pos_;
    const int64_t exponent = integer();
    if (exponent > 64) {
      pos_ = at;
      fail("exponent " + std::to_string(exponent) + " is larger than 64");
    }
    return pow(base, static_cast<int32_t>(exponent));
  }

  int64_t integer() {
    int64_t v = 0;
    auto [p, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), v);
    if (ec == std::errc::result_out_of_range) fail("integer out of range");
    if (ec != std::errc()) fail("expected an integer");
    pos_ = static_cast<size_t>(p - text_.data());
    return v;
  }

  // primary := integer | symbol | Fn '(' expr (',' expr)* ')' | '(' expr ')'
  Expr primary() {
    skipSpace();
    if (pos_ >= text_.size()) fail("unexpected end");
    const char c = text_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c))) return Expr(integer());
    if (accept("(")) {
      Expr e = expression();
      expect(")");
      return e;
    }
    if (!std::isalpha(static_cast<unsigned char>(c)) && c != '_') fail("expected a term");
    const size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    const std::string_view name = text_.substr(start, pos_ - start);
    if (auto index = parseSymbolName(name)) return Expr::symbol(*index);
    if (name == "Max" || name == "Min" || name == "Mod" || name == "FloorDiv") return call(name, start);
    pos_ = start;
    fail("unknown name '" + std::string(name) + "' (symbols are s0, s1, ...)");
  }

  Expr call(std::string_view name, size_t start) {
    expect("(");
    std::vector<Expr> args{expression()};
    while (accept(",")) args.push_back(expression());
    expect(")");
    const bool binary = name == "Mod" || name == "FloorDiv";
    if (binary ? args.size() != 2 : args.size() < 2) {
      pos_ = start;
      fail(std::string(name) + " takes " + (binary ? "2 arguments" : "at least 2 arguments"));
    }
    return checkedOp([&] {
      if (name == "Mod") return mod(args[0], args[1]);
      if (name == "FloorDiv") return floorDiv(args[0], args[1]);
      Expr e = args[0];
      for (size_t i = 1; i < args.size(); ++i) e = name == "Max" ? max(e, args[i]) : min(e, args[i]);
      return e;
    }, start);
  }

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
};

template <class T, class F>
Result<T> parseWith(std::string_view text, F f) {
  try {
    Parser p(text);
    T out = f(p);
    p.finish();
    return out;
  } catch (const OpError& e) {
    const std::string what = e.what();
    return invalidInput(what.starts_with("bad expression") ? what : "bad expression '" + std::string(text) + "': " + what);
  }
}

}  // namespace

Result<Expr> parseExpr(std::string_view text) {
  return parseWith<Expr>(text, [](Parser& p) { return p.expression(); });
}

Result<Relation> parseRelation(std::string_view text) {
  return parseWith<Relation>(text, [](Parser& p) { return p.relation(); });
}

}  // namespace fathom::sym
