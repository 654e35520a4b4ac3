// GuardSet: guards compiled to a small stack program over int64 (see GuardSet.h).
#include "engine/symbolic/GuardSet.h"

#include <array>

#include "engine/core/Error.h"

namespace fathom::sym {

struct GuardSet::Program {
  enum class Op : uint8_t { Const, Sym, Dim, Add, Mul, Pow, FloorDiv, Mod, Max, Min };
  struct Instr {
    Op op;
    int32_t a = 0;  // Sym: slot; Dim: input; Pow: exponent; Max/Min: argument count
    int64_t v = 0;  // Const: value; Dim: dimension
  };
  struct Check {
    SymRel rel;
    uint32_t begin, split, end;  // lhs code [begin, split), rhs code [split, end)
    GuardFailure info;
    std::vector<int32_t> symbols;  // shown in `actual`
    int32_t input = -1, dim = -1;  // the input dimension a dim check reads
    bool fast = false;             // also in dimChecks: check() skips it here
  };
  // The bulk of a set (every parameter's static sizes, duck-sized dims) as plain comparisons:
  // sizes[input][dim] == (slot >= 0 ? the symbol's value : value).
  struct DimCheck {
    int32_t input, dim, slot;
    int64_t value;
  };
  std::vector<DimCheck> duckDims;
  std::vector<uint32_t> slowChecks;  // checks[] that need the program: ranges, guards, expressions
  // Every input's sizes back to back: the static value, or -1 where the size is symbolic.
  std::vector<int64_t> expected;
  struct Source {
    int32_t input = -1, dim = -1;
  };

  std::vector<std::string> inputNames;
  std::vector<size_t> ranks;
  std::vector<Source> slots;  // symbol index -> the input dimension that binds it
  std::vector<std::string> slotNames;
  std::vector<Instr> code;
  std::vector<Check> checks;

  // ---- compiling --------------------------------------------------------------------------
  void emitAtom(const Atom& atom) {
    switch (atom.kind) {
      case AtomKind::Symbol: code.push_back({Op::Sym, atom.symbol}); return;
      case AtomKind::FloorDiv:
      case AtomKind::Mod:
        emit(atom.args[0]);
        emit(atom.args[1]);
        code.push_back({atom.kind == AtomKind::FloorDiv ? Op::FloorDiv : Op::Mod});
        return;
      case AtomKind::Max:
      case AtomKind::Min:
        for (const auto& a : atom.args) emit(a);
        code.push_back({atom.kind == AtomKind::Max ? Op::Max : Op::Min, static_cast<int32_t>(atom.args.size())});
        return;
    }
  }

  void emit(const Expr& e) {
    bool first = true;
    for (const auto& t : e.terms()) {
      for (size_t i = 0; i < t.factors.size(); ++i) {
        emitAtom(*t.factors[i].atom);
        if (t.factors[i].power != 1) code.push_back({Op::Pow, t.factors[i].power});
        if (i > 0) code.push_back({Op::Mul});
      }
      if (t.coeff != 1) {
        code.push_back({Op::Const, 0, t.coeff});
        code.push_back({Op::Mul});
      }
      if (!first) code.push_back({Op::Add});
      first = false;
    }
    if (first || e.constantPart() != 0) {
      code.push_back({Op::Const, 0, e.constantPart()});
      if (!first) code.push_back({Op::Add});
    }
  }

  void addCheck(SymRel rel, const std::function<void()>& lhs, const Expr& rhs, GuardFailure info, int32_t input = -1,
                int32_t dim = -1) {
    Check c{rel, static_cast<uint32_t>(code.size()), 0, 0, std::move(info), rhs.symbols(), input, dim};
    lhs();
    c.split = static_cast<uint32_t>(code.size());
    emit(rhs);
    c.end = static_cast<uint32_t>(code.size());
    checks.push_back(std::move(c));
  }

  // ---- running ----------------------------------------------------------------------------
  // Evaluates code [begin, end); false on overflow or division by zero.
  bool run(uint32_t begin, uint32_t end, const int64_t* slotValues, const std::vector<std::vector<int64_t>>& sizes,
           int64_t* out) const {
    std::array<int64_t, 64> stack;
    size_t top = 0;
    for (uint32_t pc = begin; pc < end; ++pc) {
      const Instr& in = code[pc];
      switch (in.op) {
        case Op::Const: stack[top++] = in.v; break;
        case Op::Sym: stack[top++] = slotValues[in.a]; break;
        case Op::Dim: stack[top++] = sizes[static_cast<size_t>(in.a)][static_cast<size_t>(in.v)]; break;
        case Op::Add:
          --top;
          if (__builtin_add_overflow(stack[top - 1], stack[top], &stack[top - 1])) return false;
          break;
        case Op::Mul:
          --top;
          if (__builtin_mul_overflow(stack[top - 1], stack[top], &stack[top - 1])) return false;
          break;
        case Op::Pow: {
          const int64_t base = stack[top - 1];
          for (int32_t i = 1; i < in.a; ++i)
            if (__builtin_mul_overflow(stack[top - 1], base, &stack[top - 1])) return false;
          break;
        }
        case Op::FloorDiv:
        case Op::Mod: {
          --top;
          const int64_t a = stack[top - 1], b = stack[top];
          if (b == 0 || (a == INT64_MIN && b == -1)) return false;
          stack[top - 1] = in.op == Op::FloorDiv ? floorDivInt(a, b) : modInt(a, b);
          break;
        }
        case Op::Max:
        case Op::Min: {
          top -= static_cast<size_t>(in.a - 1);
          int64_t v = stack[top - 1];
          for (int32_t i = 1; i < in.a; ++i)
            v = in.op == Op::Max ? std::max(v, stack[top - 1 + static_cast<size_t>(i)]) : std::min(v, stack[top - 1 + static_cast<size_t>(i)]);
          stack[top - 1] = v;
          break;
        }
      }
      if (top >= stack.size() - 1) return false;  // deeper than any expression a trace makes
    }
    *out = stack[0];
    return top == 1;
  }

  bool ranksMatch(const std::vector<std::vector<int64_t>>& sizes) const {
    if (sizes.size() != ranks.size()) return false;
    for (size_t i = 0; i < ranks.size(); ++i)
      if (sizes[i].size() != ranks[i]) return false;
    return true;
  }

  void bind(const std::vector<std::vector<int64_t>>& sizes, int64_t* values) const {
    for (size_t s = 0; s < slots.size(); ++s)
      values[s] = slots[s].input < 0 ? 0 : sizes[static_cast<size_t>(slots[s].input)][static_cast<size_t>(slots[s].dim)];
  }

  bool holds(const Check& c, const int64_t* values, const std::vector<std::vector<int64_t>>& sizes) const {
    int64_t l, r;
    return run(c.begin, c.split, values, sizes, &l) && run(c.split, c.end, values, sizes, &r) && compareInts(c.rel, l, r);
  }
};

namespace {
std::string dimSource(const std::string& input, int64_t dim) { return input + ".size(" + std::to_string(dim) + ")"; }

const Specialization* specializationOf(const ShapeEnv& env, const std::string& symbol) {
  for (const auto& s : env.specializations())
    if (s.symbol == symbol) return &s;
  return nullptr;
}
}  // namespace

GuardSet::GuardSet(std::unique_ptr<Program> p) : program_(std::move(p)) {}
GuardSet::GuardSet(GuardSet&&) noexcept = default;
GuardSet& GuardSet::operator=(GuardSet&&) noexcept = default;
GuardSet::~GuardSet() = default;

size_t GuardSet::guardCount() const { return program_->checks.size(); }
size_t GuardSet::symbolCount() const { return program_->slots.size(); }

std::optional<Relation> checkedGuard(const ShapeEnv& env, const Guard& g) {
  Relation r{g.expr.rel, env.canonical(g.expr.lhs), env.canonical(g.expr.rhs)};
  if (r.difference().isConstant()) return std::nullopt;
  return r;
}

Result<GuardSet> GuardSet::compile(const ShapeEnv& env, const std::vector<GuardedInput>& inputs) {
  using P = Program;
  auto p = std::make_unique<P>();
  p->slots.resize(env.symbols().size());
  for (const auto& s : env.symbols()) p->slotNames.push_back(s.name);
  try {
    for (size_t i = 0; i < inputs.size(); ++i) {
      const auto& in = inputs[i];
      p->inputNames.push_back(in.name);
      p->ranks.push_back(in.sizes.size());
      p->expected.resize(p->expected.size() + in.sizes.size(), -1);
      for (size_t d = 0; d < in.sizes.size(); ++d) {
        const Expr raw = exprOf(in.sizes[d], /*canonical=*/false), e = env.canonical(raw);
        const auto input = static_cast<int32_t>(i), dim = static_cast<int32_t>(d);
        if (auto s = e.asSymbol(); s && p->slots[static_cast<size_t>(*s)].input < 0) {
          p->slots[static_cast<size_t>(*s)] = {input, dim};
          continue;
        }
        GuardFailure info{e.isConstant() ? "static" : "duck", dimSource(in.name, d) + " == " + e.str(),
                          e.isConstant() ? "the trace saw this size as a constant" : "the trace gave these sizes one symbol (duck sizing)",
                          {}, {}, {}};
        if (auto rawSymbol = raw.asSymbol()) {
          if (const Specialization* sp = specializationOf(env, symbolName(*rawSymbol))) {
            info.kind = "specialization";
            info.reason = symbolName(*rawSymbol) + " -> " + sp->value.str() + ": " + sp->reason;
            info.where = sp->where;
          }
        }
        p->addCheck(SymRel::Eq, [&] { p->code.push_back({P::Op::Dim, input, static_cast<int64_t>(d)}); }, e,
                    std::move(info), input, dim);
        auto sym = e.asSymbol();
        if (e.isConstant() || (sym && p->slots[static_cast<size_t>(*sym)].input >= 0)) {
          p->checks.back().fast = true;
          if (sym) p->duckDims.push_back({input, dim, *sym, 0});
          else p->expected[p->expected.size() - in.sizes.size() + d] = e.constantPart();
        }
      }
    }
    auto bound = [&](const Expr& e) -> Status {
      for (int32_t s : e.symbols())
        if (s >= static_cast<int32_t>(p->slots.size()) || p->slots[static_cast<size_t>(s)].input < 0)
          return invalidInput("guard '" + e.str() + "' names " + symbolName(s) + ", which no input binds");
      return {};
    };
    for (size_t s = 0; s < p->slots.size(); ++s) {
      const auto& info = env.symbols()[s];
      if (p->slots[s].input < 0) continue;  // replaced away, or unused by these inputs
      const Expr sym = Expr::symbol(static_cast<int32_t>(s));
      auto emitSym = [&] { p->emit(sym); };
      if (info.range.lo != ValueRange::kNegInf)
        p->addCheck(SymRel::Ge, emitSym, info.range.lo,
                    {"range", info.name + " >= " + std::to_string(info.range.lo),
                     info.range.lo == 2 ? "sizes 0 and 1 are specialized; " + info.name + " was traced as " + std::to_string(info.hint)
                                        : "value range of " + info.name, {}, {}, {}});
      if (info.range.lo != ValueRange::kNegInf) p->checks.back().symbols = {static_cast<int32_t>(s)};
      if (info.range.hi != ValueRange::kPosInf)
        p->addCheck(SymRel::Le, emitSym, info.range.hi,
                    {"range", info.name + " <= " + std::to_string(info.range.hi), "value range of " + info.name, {}, {}, {}});
      if (info.range.hi != ValueRange::kPosInf) p->checks.back().symbols = {static_cast<int32_t>(s)};
    }
    for (const auto& g : env.guards()) {
      const auto checked = checkedGuard(env, g);
      if (!checked) continue;
      const Relation& r = *checked;
      FATHOM_TRY(bound(r.lhs));
      FATHOM_TRY(bound(r.rhs));
      p->addCheck(r.rel, [&] { p->emit(r.lhs); }, r.rhs, {"guard", r.str(), g.reason, g.where, {}, {}});
      p->checks.back().symbols = r.difference().symbols();
    }
  } catch (const OpError& e) {
    return invalidInput(std::string("compiling guards: ") + e.what());
  }
  for (size_t i = 0; i < p->checks.size(); ++i)
    if (!p->checks[i].fast) p->slowChecks.push_back(static_cast<uint32_t>(i));
  return GuardSet(std::move(p));
}

bool GuardSet::check(const std::vector<std::vector<int64_t>>& sizes) const {
  const Program& p = *program_;
  if (!p.ranksMatch(sizes)) return false;
  std::array<int64_t, 64> small;
  std::vector<int64_t> large;
  int64_t* values = p.slots.size() <= small.size() ? small.data() : (large.resize(p.slots.size()), large.data());
  p.bind(sizes, values);
  // One sequential pass over the expected sizes; no early exit inside a row (branch-free).
  const int64_t* expected = p.expected.data();
  for (const auto& row : sizes) {
    bool same = true;
    for (int64_t v : row) {
      const int64_t e = *expected++;
      same &= e < 0 || v == e;
    }
    if (!same) return false;
  }
  for (const auto& d : p.duckDims)
    if (sizes[static_cast<size_t>(d.input)][static_cast<size_t>(d.dim)] != values[d.slot]) return false;
  for (uint32_t i : p.slowChecks)
    if (!p.holds(p.checks[i], values, sizes)) return false;
  return true;
}

std::vector<GuardFailure> GuardSet::failures(const std::vector<std::vector<int64_t>>& sizes) const {
  const Program& p = *program_;
  std::vector<GuardFailure> out;
  if (!p.ranksMatch(sizes)) {
    std::string expected, actual;
    for (size_t i = 0; i < p.ranks.size(); ++i) expected += (i ? ", " : "") + std::to_string(p.ranks[i]);
    for (size_t i = 0; i < sizes.size(); ++i) actual += (i ? ", " : "") + std::to_string(sizes[i].size());
    out.push_back({"rank", std::to_string(p.ranks.size()) + " inputs of ranks [" + expected + "]",
                   "the number and ranks of inputs are fixed per entry", {}, "[" + actual + "]", {}});
    return out;
  }
  std::vector<int64_t> values(p.slots.size());
  p.bind(sizes, values.data());
  for (const auto& c : p.checks) {
    if (p.holds(c, values.data(), sizes)) continue;
    GuardFailure f = c.info;
    std::string actual;
    if (c.input >= 0) {
      actual = dimSource(p.inputNames[static_cast<size_t>(c.input)], c.dim) + " = " +
               std::to_string(sizes[static_cast<size_t>(c.input)][static_cast<size_t>(c.dim)]);
      f.input = p.inputNames[static_cast<size_t>(c.input)];
    } else if (f.kind == "range" && c.symbols.size() == 1) {
      f.input = p.inputNames[static_cast<size_t>(p.slots[static_cast<size_t>(c.symbols.front())].input)];
    }
    for (int32_t s : c.symbols)
      actual += (actual.empty() ? "" : ", ") + p.slotNames[static_cast<size_t>(s)] + " = " + std::to_string(values[static_cast<size_t>(s)]);
    f.actual = std::move(actual);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace fathom::sym
