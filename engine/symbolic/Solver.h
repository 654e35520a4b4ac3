// Solver: Z3 behind a small interface, for the guard analyses (GuardCheck.h). It answers "is
// this conjunction of guards satisfiable over the integers?" from background facts (symbol
// ranges, relations that always hold) plus *tracked clauses* switched on per query (each query
// builds a fresh Z3 solver from just those, on purpose: see Solver.cpp), so one Solver answers
// every question about one guard set, and an unsat answer names the clauses that conflict (a
// minimal core).
//
// Expressions translate exactly: FloorDiv and Mod with Python's (sympy's) floor semantics for
// either sign of divisor, Max/Min as if-then-else, powers as products. No Z3 header leaks from
// here and no Z3 exception escapes: every failure is a result (Error with a reason). Each query
// has a time limit, enforced by interrupting Z3 from a watchdog thread (Z3 4.8.12's own
// "timeout" parameter deadlocks when the timer fires). Without Z3 at build time, available()
// is false and every query answers Error("built without Z3").
//
//   Solver s(1000);
//   s.requireRange(0, ValueRange::atLeast(2));
//   auto a = s.track({*parseRelation("Eq(Mod(s0, 2), 1)")}), b = s.track({*parseRelation("s0 < 3")});
//   s.check({a, b}).status == SolveStatus::Unsat;   s.minimalCore({a, b}) == {a, b}
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/symbolic/Expr.h"
#include "engine/symbolic/ValueRange.h"

namespace fathom::sym {

enum class SolveStatus { Sat, Unsat, Unknown, Timeout, Error };
std::string_view solveStatusName(SolveStatus s);  // "sat", "unsat", "unknown", "timeout", "error"

struct SolveResult {
  SolveStatus status = SolveStatus::Error;
  std::string reason;                // Unknown, Timeout, Error: why, in a few words
  std::map<int32_t, int64_t> model;  // Sat: a value for every symbol the solver has seen
  double ms = 0;                     // the query's time
};

// A symbol's range as relations: `s0 >= 2`, `s0 <= 511`, none for an unbounded end.
std::vector<Relation> rangeRelations(int32_t symbol, const ValueRange& range);

class Solver {
 public:
  explicit Solver(unsigned timeoutMs = 1000);
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  // True when this build has Z3.
  static bool available();

  // Facts every query assumes.
  void require(const Relation& r);
  void requireRange(int32_t symbol, const ValueRange& range);
  // A clause (at least one of `anyOf` holds; one relation is a plain fact), switched on per
  // query by its id. A clause Z3 cannot take answers every query that uses it with Error.
  size_t track(const std::vector<Relation>& anyOf);

  // Are the background facts and the clauses `on` satisfiable together?
  SolveResult check(const std::vector<size_t>& on);
  // For an unsat `on`: a subset that is still unsat and from which no clause can be dropped
  // (Z3's unsat core, then deletion). Empty when `on` is not unsat (or a query gave up).
  std::vector<size_t> minimalCore(const std::vector<size_t>& on);
  // Sat with the model closest to `target` (sum of |symbol - value| over the pairs, a symbol
  // may appear more than once), by Z3's optimizer. The model's values are the nearest point.
  SolveResult nearest(const std::vector<size_t>& on, const std::vector<std::pair<int32_t, int64_t>>& target);

  size_t queries() const { return queries_; }
  double totalMs() const { return totalMs_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  unsigned timeoutMs_;
  size_t queries_ = 0;
  double totalMs_ = 0;
};

}  // namespace fathom::sym
