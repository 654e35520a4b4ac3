// GuardAccepts: does a trace's guard set accept *every* size in a range, so that no call in it
// recompiles? (`fathom guards DUMP --accepts s0=1..64,s1=2..64`: "no recompilation with variable
// batch size", proved rather than sampled.)
//
// One Z3 query over the whole box: the named symbols range over their intervals, every other
// symbol keeps its trace value (its replacement where it has one, else its hint), and the solver
// looks for a point where some check fails - a symbol's range (PyTorch's 0/1 specialization shows
// as `s0 >= 2`) or a recorded guard. Unsat is the proof; a model is a counterexample, evaluated
// to name every check it fails (with the guard's provenance). Then, per named symbol with the
// others at their hints, the widest interval around the hint that passes (bisection, one query
// each step), so a report can say "accepts 2..15" where the whole range does not pass, and the
// checks the sizes just outside it fail: "1: s0 >= 2 (0/1 specialization); 16: s0 < 16 at conv.py:560".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/Result.h"
#include "engine/symbolic/GuardCheck.h"
#include "engine/symbolic/GuardExplain.h"

namespace fathom::sym {

struct AcceptsRange {
  int32_t symbol = -1;
  int64_t lo = 0, hi = 0;
};

// The size just outside a symbol's widest passing interval, and the checks it fails: what stops
// the range there ("below": widest.lo - 1, "above": widest.hi + 1).
struct AcceptsStop {
  int32_t symbol = -1;
  std::string side;
  int64_t value = 0;
  std::vector<FailedCheck> failed;
};

struct AcceptsReport {
  std::vector<AcceptsRange> ranges;               // what was asked
  bool accepted = false;                          // proven: every point of the box passes every check
  SolveStatus status = SolveStatus::Error;        // of the proof query: Unsat = accepted, Sat = counterexample
  std::string reason;                             // when the query gave up
  std::map<int32_t, int64_t> counterexample;      // Sat: the named symbols' values at a failing point
  std::vector<FailedCheck> failed;                // the checks that point fails (kind "range" or "guard")
  std::map<int32_t, std::pair<int64_t, int64_t>> widest;  // per named symbol: the passing interval around its hint
  std::vector<AcceptsStop> stops;                 // per named symbol, each end of `widest` inside the asked range
  std::vector<GuardQuery> queries;
};

// "s0=1..64,s1=2..64" (a single value "s0=8" is the range 8..8). Errors name the item.
Result<std::vector<AcceptsRange>> parseAcceptsRanges(std::string_view text, const ShapeEnv& env);

Result<AcceptsReport> provesAccepts(const ShapeEnv& env, const std::vector<AcceptsRange>& ranges,
                                    const GuardCheckOptions& options = {});

}  // namespace fathom::sym
