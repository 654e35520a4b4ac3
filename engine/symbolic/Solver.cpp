// The Z3 solver wrapper (see Solver.h). Only this file sees Z3's headers, and only when the
// build has Z3 (FATHOM_WITH_Z3, set on this file alone by engine/CMakeLists.txt).
#include "engine/symbolic/Solver.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#ifdef FATHOM_WITH_Z3
#include <z3++.h>
#endif

namespace fathom::sym {

std::string_view solveStatusName(SolveStatus s) {
  switch (s) {
    case SolveStatus::Sat: return "sat";
    case SolveStatus::Unsat: return "unsat";
    case SolveStatus::Unknown: return "unknown";
    case SolveStatus::Timeout: return "timeout";
    case SolveStatus::Error: return "error";
  }
  return "error";
}

std::vector<Relation> rangeRelations(int32_t symbol, const ValueRange& range) {
  std::vector<Relation> out;
  if (range.lo != ValueRange::kNegInf) out.push_back({SymRel::Ge, Expr::symbol(symbol), Expr(range.lo)});
  if (range.hi != ValueRange::kPosInf) out.push_back({SymRel::Le, Expr::symbol(symbol), Expr(range.hi)});
  return out;
}

#ifndef FATHOM_WITH_Z3

struct Solver::Impl {};
Solver::Solver(unsigned timeoutMs) : timeoutMs_(timeoutMs) {}
Solver::~Solver() = default;
bool Solver::available() { return false; }
void Solver::require(const Relation&) {}
void Solver::requireRange(int32_t, const ValueRange&) {}
size_t Solver::track(const std::vector<Relation>&) { return 0; }
SolveResult Solver::check(const std::vector<size_t>&) { return {SolveStatus::Error, "built without Z3 (install libz3-dev and rebuild)", {}, 0}; }
std::vector<size_t> Solver::minimalCore(const std::vector<size_t>&) { return {}; }
SolveResult Solver::nearest(const std::vector<size_t>& on, const std::vector<std::pair<int32_t, int64_t>>&) { return check(on); }

#else

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

// Expr -> Z3 integer terms. Z3's `div`/`mod` are Euclidean (remainder >= 0); Python's are floor
// division and a remainder with the divisor's sign: floor(a / b) = div(a, b) for b > 0 and
// div(-a, -b) for b < 0. Division by zero is left to Z3 (an unspecified value), as a guard is
// never evaluated where it divides by zero.
class Translator {
 public:
  explicit Translator(z3::context& c) : c_(c) {}

  z3::expr expr(const Expr& e) {
    z3::expr sum = c_.int_val(static_cast<int64_t>(e.constantPart()));
    for (const Term& t : e.terms()) {
      z3::expr product = c_.int_val(static_cast<int64_t>(t.coeff));
      for (const Factor& f : t.factors) {
        const z3::expr a = atom(*f.atom);
        for (int32_t p = 0; p < f.power; ++p) product = product * a;
      }
      sum = sum + product;
    }
    return sum;
  }

  z3::expr relation(const Relation& r) {
    const z3::expr a = expr(r.lhs), b = expr(r.rhs);
    switch (r.rel) {
      case SymRel::Eq: return a == b;
      case SymRel::Ne: return a != b;
      case SymRel::Lt: return a < b;
      case SymRel::Le: return a <= b;
      case SymRel::Gt: return a > b;
      case SymRel::Ge: return a >= b;
    }
    return a == b;
  }

  z3::expr symbol(int32_t index) {
    auto it = symbols_.find(index);
    if (it == symbols_.end()) it = symbols_.emplace(index, c_.int_const(symbolName(index).c_str())).first;
    return it->second;
  }
  const std::map<int32_t, z3::expr>& symbols() const { return symbols_; }

 private:
  z3::expr atom(const Atom& a) {
    switch (a.kind) {
      case AtomKind::Symbol: return symbol(a.symbol);
      case AtomKind::FloorDiv: return floorDiv(expr(a.args.at(0)), expr(a.args.at(1)));
      case AtomKind::Mod: {
        const z3::expr x = expr(a.args.at(0)), y = expr(a.args.at(1));
        return x - y * floorDiv(x, y);
      }
      case AtomKind::Max:
      case AtomKind::Min: {
        z3::expr out = expr(a.args.at(0));
        for (size_t i = 1; i < a.args.size(); ++i) {
          const z3::expr v = expr(a.args[i]);
          out = a.kind == AtomKind::Max ? z3::ite(v > out, v, out) : z3::ite(v < out, v, out);
        }
        return out;
      }
    }
    return c_.int_val(0);
  }

  z3::expr floorDiv(const z3::expr& x, const z3::expr& y) { return z3::ite(y > 0, z3::expr(x / y), z3::expr((-x) / (-y))); }

  z3::context& c_;
  std::map<int32_t, z3::expr> symbols_;
};

// Interrupts `c` unless stopped within `ms`: the query's time limit.
class Watchdog {
 public:
  Watchdog(z3::context& c, unsigned ms)
      : thread_([this, &c, ms] {
          std::unique_lock lock(m_);
          if (!cv_.wait_for(lock, std::chrono::milliseconds(ms), [this] { return done_; })) {
            fired_ = true;
            c.interrupt();
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(m_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  bool fired() {
    std::lock_guard lock(m_);
    return fired_;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false, fired_ = false;
  std::thread thread_;
};

}  // namespace

struct Solver::Impl {
  z3::context c;
  Translator t{c};
  // A fresh solver per query holds just the background and the clauses switched on: clauses
  // left out cannot slow a query down (a hard nonlinear one would, even unassumed).
  std::optional<z3::solver> s;
  std::vector<z3::expr> background;
  std::vector<z3::expr> literals;    // clause i holds when literals[i] is assumed
  std::vector<z3::expr> clauses;
  std::vector<std::string> errors;   // why clause i could not be translated ("" when it could)
  std::string backgroundError;

  std::optional<std::string> errorOf(const std::vector<size_t>& on) const {
    if (!backgroundError.empty()) return backgroundError;
    for (size_t i : on) {
      if (i >= errors.size()) return "no clause " + std::to_string(i);
      if (!errors[i].empty()) return errors[i];
    }
    return std::nullopt;
  }

  std::map<int32_t, int64_t> modelOf(const z3::model& m) {
    std::map<int32_t, int64_t> out;
    for (const auto& [index, z] : t.symbols()) {
      int64_t v = 0;
      if (m.eval(z, true).is_numeral_i64(v)) out[index] = v;
    }
    return out;
  }
};

Solver::Solver(unsigned timeoutMs) : impl_(std::make_unique<Impl>()), timeoutMs_(timeoutMs) {}
Solver::~Solver() = default;
bool Solver::available() { return true; }

void Solver::require(const Relation& r) {
  try {
    impl_->background.push_back(impl_->t.relation(r));
  } catch (const z3::exception& e) {
    impl_->backgroundError = "z3 cannot take '" + r.str() + "': " + e.msg();
  }
}

void Solver::requireRange(int32_t symbol, const ValueRange& range) {
  for (const Relation& r : rangeRelations(symbol, range)) require(r);
}

size_t Solver::track(const std::vector<Relation>& anyOf) {
  Impl& m = *impl_;
  const size_t id = m.literals.size();
  const std::string name = "clause" + std::to_string(id);
  z3::expr literal = m.c.bool_const(name.c_str());
  m.literals.push_back(literal);
  m.clauses.push_back(m.c.bool_val(true));
  m.errors.emplace_back();
  try {
    z3::expr_vector parts(m.c);
    for (const auto& r : anyOf) parts.push_back(m.t.relation(r));
    m.clauses.back() = z3::mk_or(parts);
  } catch (const z3::exception& e) {
    std::string text;
    for (const auto& r : anyOf) text += (text.empty() ? "" : " or ") + r.str();
    m.errors.back() = "z3 cannot take '" + text + "': " + e.msg();
  }
  return id;
}

namespace {
// Timeout when the watchdog fired, else Unknown with Z3's reason.
SolveResult unknownResult(const std::string& why, bool timedOut, unsigned timeoutMs) {
  if (timedOut) return {SolveStatus::Timeout, "no answer within " + std::to_string(timeoutMs) + " ms", {}, 0};
  return {SolveStatus::Unknown, why.empty() ? "z3 gave up" : "z3 gave up: " + why, {}, 0};
}
// One query: the error of a clause it uses, else `body`'s result, Z3's exceptions as Error; timed.
template <class Body>
SolveResult runQuery(std::optional<std::string> error, Body body) {
  const auto start = Clock::now();
  SolveResult out;
  if (error) {
    out = {SolveStatus::Error, *error, {}, 0};
  } else {
    try {
      out = body();
    } catch (const z3::exception& e) {
      out = {SolveStatus::Error, std::string("z3: ") + e.msg(), {}, 0};
    }
  }
  out.ms = msSince(start);
  return out;
}

// `solve()` (a solver's or optimizer's check) under the watchdog, as a result; `model()` is read
// only when sat, `why()` only when Z3 gave up.
template <class Solve, class Model, class Why>
SolveResult solveWithin(z3::context& c, unsigned timeoutMs, Solve solve, Model model, Why why) {
  z3::check_result r;
  bool timedOut = false;
  {
    Watchdog watchdog(c, timeoutMs);
    r = solve();
    timedOut = watchdog.fired();
  }
  if (r == z3::sat) return {SolveStatus::Sat, "", model(), 0};
  if (r == z3::unsat) return {SolveStatus::Unsat, "", {}, 0};
  return unknownResult(why(), timedOut, timeoutMs);
}

}  // namespace

SolveResult Solver::check(const std::vector<size_t>& on) {
  Impl& m = *impl_;
  SolveResult out = runQuery(m.errorOf(on), [&] {
    m.s.emplace(m.c);
    for (const auto& e : m.background) m.s->add(e);
    z3::expr_vector assumptions(m.c);
    for (size_t i : on) {
      m.s->add(z3::implies(m.literals[i], m.clauses[i]));
      assumptions.push_back(m.literals[i]);
    }
    return solveWithin(
        m.c, timeoutMs_, [&] { return m.s->check(assumptions); }, [&] { return m.modelOf(m.s->get_model()); },
        [&] { return m.s->reason_unknown(); });
  });
  ++queries_;
  totalMs_ += out.ms;
  return out;
}

std::vector<size_t> Solver::minimalCore(const std::vector<size_t>& on) {
  if (check(on).status != SolveStatus::Unsat) return {};
  std::vector<size_t> core;
  try {
    const z3::expr_vector z3core = impl_->s->unsat_core();
    for (unsigned k = 0; k < z3core.size(); ++k) {
      const std::string name = z3core[static_cast<int>(k)].decl().name().str();
      core.push_back(static_cast<size_t>(std::stoull(name.substr(6))));  // "clause<N>"
    }
  } catch (const z3::exception&) {
    core = on;
  }
  std::sort(core.begin(), core.end());
  // Deletion: drop each clause the rest stays unsat without (a query that gives up keeps it).
  for (size_t k = 0; k < core.size();) {
    std::vector<size_t> rest = core;
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(k));
    if (check(rest).status == SolveStatus::Unsat) core = std::move(rest);
    else ++k;
  }
  return core;
}

SolveResult Solver::nearest(const std::vector<size_t>& on, const std::vector<std::pair<int32_t, int64_t>>& target) {
  Impl& m = *impl_;
  SolveResult out = runQuery(m.errorOf(on), [&] {
    z3::optimize o(m.c);
    for (const auto& e : m.background) o.add(e);
    for (size_t i : on) o.add(m.clauses[i]);
    z3::expr distance = m.c.int_val(0);
    for (const auto& [symbol, value] : target) {
      const z3::expr d = m.t.symbol(symbol) - m.c.int_val(static_cast<int64_t>(value));
      distance = distance + z3::ite(d >= 0, d, -d);
    }
    o.minimize(distance);
    return solveWithin(
        m.c, timeoutMs_, [&] { return o.check(); }, [&] { return m.modelOf(o.get_model()); }, [] { return std::string(); });
  });
  ++queries_;
  totalMs_ += out.ms;
  return out;
}

#endif

}  // namespace fathom::sym
