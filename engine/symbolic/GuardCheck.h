// GuardCheck: what Z3 (through Solver.h) can prove about the guard set of one trace - the
// questions behind `fathom guards DUMP --check`:
//
//   consistency      the guards and the symbols' ranges can hold together; if not, a minimal
//                    conflicting subset (no guard of it can be dropped)
//   redundancy       guards implied by the others and the ranges, dropped one at a time from
//                    the newest, leaving a minimal equivalent set (each dropped guard names the
//                    kept ones that imply it)
//   soundness        the simplified set - what the cache checks (GuardSet): each guard with the
//                    final replacements applied, each replaced symbol equal to its replacement,
//                    the ranges of the symbols left - accepts exactly the inputs the guards as
//                    they were asked (Guard::raw) accept; a counterexample for each direction
//                    that fails
//   specializations  each symbol the guards pin to a constant, unify with another symbol or tie
//                    to an expression, with the guards that cause it (a minimal set, with their
//                    provenance) - recorded by the ShapeEnv or only implied
//
// Every query has the time limit of the options; one that gives up (timeout, unknown, error) is
// reported in `undecided` and its analysis goes on without it. Each query is recorded with its
// time (`queries`), for the trace log.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/symbolic/ShapeEnv.h"
#include "engine/symbolic/Solver.h"

namespace fathom::sym {

struct GuardQuery {
  std::string check;    // "consistency", "redundancy", "soundness", "specializations", ...
  std::string subject;  // what was asked: "Eq(s0, 128) implied?"
  SolveStatus status = SolveStatus::Error;
  double ms = 0;
};

// A query that gave up; its analysis went on without the answer.
struct Undecided {
  std::string check, subject, reason;
};

struct Consistency {
  SolveStatus status = SolveStatus::Error;  // Sat: consistent; Unsat: not
  std::map<int32_t, int64_t> witness;       // Sat: symbol values that pass every guard
  std::vector<size_t> conflict;             // Unsat: guard indices, minimal ...
  std::vector<int32_t> rangesInConflict;    // ... with the symbols whose ranges take part
  std::string verdict() const;              // "consistent", "inconsistent" or "undecided"
};

struct RedundantGuard {
  size_t guard = 0;
  std::vector<size_t> impliedBy;  // kept guards that imply it; empty: the ranges alone do
};

struct Redundancy {
  bool ran = false;                     // not run on an inconsistent set
  std::vector<RedundantGuard> redundant;
  std::vector<size_t> minimal;          // the guards kept: an equivalent set
};

// One check of the simplified set: a guard after the final replacements, a replacement, a range.
struct SimplifiedCheck {
  std::string kind;  // "guard", "replacement", "range"
  Relation rel;
  std::optional<size_t> guard;  // kind "guard": index into env.guards()
};

// An input one side accepts and the other rejects.
struct Counterexample {
  std::map<int32_t, int64_t> values;    // every symbol
  std::vector<size_t> rawRejecting;     // guard indices whose raw form fails
  std::vector<std::string> simplifiedRejecting;  // simplified checks that fail, as text
};

struct Soundness {
  bool ran = false;
  bool rawRecorded = false;  // false: the dump predates Guard::raw; the recorded exprs stand in
  std::vector<SimplifiedCheck> simplified;
  // The simplified set accepts an input the raw guards reject: a cached entry would run an
  // input it was not traced for (unsound).
  SolveStatus looser = SolveStatus::Error;  // Unsat: no such input
  std::optional<Counterexample> looserExample;
  // The simplified set rejects an input the raw guards accept (needless recompiles).
  SolveStatus stricter = SolveStatus::Error;
  std::optional<Counterexample> stricterExample;
  std::string verdict() const;  // "sound", "unsound", "undecided" or "skipped" (not run)
};

struct SymbolFinding {
  int32_t symbol = 0;
  std::string kind;        // "constant", "unified", "expression"
  Expr value;              // what the symbol equals: 128, s0, 2*s0
  bool recorded = false;   // the ShapeEnv recorded this replacement
  bool implied = false;    // the guards imply it (false for a recorded one they do not: unsound)
  std::vector<size_t> causedBy;  // guard indices, minimal
};

struct GuardCheckReport {
  bool solverAvailable = false;
  Consistency consistency;
  Redundancy redundancy;
  Soundness soundness;
  std::vector<SymbolFinding> specializations;
  std::vector<Undecided> undecided;
  std::vector<GuardQuery> queries;
  double ms = 0;

  // What `fathom guards --check` exits 1 for: inconsistent, or a recorded replacement or the
  // simplification is unsound.
  bool problemFound() const;
};

struct GuardCheckOptions {
  unsigned timeoutMs = 1000;  // per query
};

GuardCheckReport checkGuards(const ShapeEnv& env, const GuardCheckOptions& options = {});

// The input dimensions symbol values stand for (each symbol's sources), in symbol order:
// {s0: 4, s1: 64} -> (input_ids.size(0), 4), (attention_mask.size(0), 4), (input_ids.size(1), 64).
std::vector<std::pair<std::string, int64_t>> inputDimensions(const ShapeEnv& env, const std::map<int32_t, int64_t>& values);

}  // namespace fathom::sym
