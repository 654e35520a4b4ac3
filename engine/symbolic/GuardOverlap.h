// GuardOverlap: can one call hit two compiled entries of the same function? (`fathom guards A B
// --overlap`). Each entry accepts the input sizes its guard set accepts, as the cache checks
// them (GuardSet): every placeholder dimension equal to its recorded size (a constant, or an
// expression over the entry's symbols after replacements), the ranges of its symbols, its
// guards. Both sets over the same input dimensions, by placeholder name: satisfiable means the
// entries overlap (the cache is ambiguous) and the model is a witness call; unsatisfiable is a
// proof they are disjoint, and a minimal core names the checks that separate them.
#pragma once

#include <string>
#include <vector>

#include "engine/symbolic/GuardCheck.h"
#include "engine/symbolic/GuardSet.h"

namespace fathom::sym {

struct GuardedEntry {
  std::string label;                 // the dump's path
  const ShapeEnv* env = nullptr;     // null for a static trace
  std::vector<GuardedInput> inputs;  // the placeholders' recorded sizes
};

struct OverlapReport {
  SolveStatus status = SolveStatus::Error;  // Sat: they overlap; Unsat: disjoint
  std::string reason;                       // why undecided, or why disjoint without a query
  std::vector<std::pair<std::string, std::vector<int64_t>>> witness;  // Sat: a call both accept
  std::vector<std::string> separating;      // Unsat: "A: s1 < 512", "B: s1 >= 512" (minimal)
  std::vector<GuardQuery> queries;
  std::string verdict() const;  // "overlap", "disjoint" or "undecided"
};

OverlapReport overlap(const GuardedEntry& a, const GuardedEntry& b, const GuardCheckOptions& options = {});

// Every pair of several entries (`fathom guards A B C --overlap`): entries[a] and entries[b], a < b,
// in the order (0, 1), (0, 2), ..., (1, 2), ...
struct OverlapPair {
  size_t a = 0, b = 0;
  OverlapReport report;
};
struct PairwiseOverlap {
  std::vector<OverlapPair> pairs;
  std::vector<GuardQuery> queries;  // every pair's, in that order
  bool anyOverlap = false;          // some pair overlaps: the cache is ambiguous
};
PairwiseOverlap overlapPairwise(const std::vector<GuardedEntry>& entries, const GuardCheckOptions& options = {});

}  // namespace fathom::sym
