// `fathom guards A B --overlap` (see GuardOverlap.h).
#include "engine/symbolic/GuardOverlap.h"

#include <algorithm>

namespace fathom::sym {
namespace {

struct Fact {
  std::string text;  // "A: input_ids.size(1) == s1"
  Relation rel;
};

// The entry's acceptance condition over variables: its symbol i is `symbolBase + i`, input k's
// dimension d is `dimBase[k] + d`. Texts use the entry's own names.
std::vector<Fact> entryFacts(const GuardedEntry& e, int32_t symbolBase, const std::vector<int32_t>& dimBase) {
  std::vector<Fact> out;
  const std::string tag = e.label + ": ";
  auto shift = [&](const Expr& x) {
    return substitute(x, [&](int32_t s) { return std::optional<Expr>(Expr::symbol(symbolBase + s)); });
  };
  auto canonical = [&](const Expr& x) { return e.env ? e.env->canonical(x) : x; };
  for (size_t k = 0; k < e.inputs.size(); ++k)
    for (size_t d = 0; d < e.inputs[k].sizes.size(); ++d) {
      const Expr size = canonical(exprOf(e.inputs[k].sizes[d], false));
      out.push_back({tag + e.inputs[k].name + ".size(" + std::to_string(d) + ") == " + size.str(),
                     {SymRel::Eq, Expr::symbol(dimBase[k] + static_cast<int32_t>(d)), shift(size)}});
    }
  if (!e.env) return out;
  for (size_t s = 0; s < e.env->symbols().size(); ++s) {
    const auto symbol = static_cast<int32_t>(s);
    if (e.env->replacements().count(symbol)) continue;
    for (const Relation& r : rangeRelations(symbol, e.env->symbols()[s].range)) out.push_back({tag + r.str(), {r.rel, shift(r.lhs), shift(r.rhs)}});
  }
  for (const auto& g : e.env->guards())
    if (auto r = checkedGuard(*e.env, g)) out.push_back({tag + r->str(), {r->rel, shift(r->lhs), shift(r->rhs)}});
  return out;
}

std::string describe(const GuardedInput& in) { return in.name + " (rank " + std::to_string(in.sizes.size()) + ")"; }

// Why no call can reach both entries - they take inputs of other names or ranks - naming the
// first input that differs; empty when they take the same inputs.
std::string inputMismatch(const GuardedEntry& a, const GuardedEntry& b) {
  const size_t n = std::min(a.inputs.size(), b.inputs.size());
  size_t k = 0;
  while (k < n && a.inputs[k].name == b.inputs[k].name && a.inputs[k].sizes.size() == b.inputs[k].sizes.size()) ++k;
  if (k == n && a.inputs.size() == b.inputs.size()) return "";
  std::string out = "the entries take different inputs";
  if (a.inputs.size() != b.inputs.size()) out += ": " + std::to_string(a.inputs.size()) + " and " + std::to_string(b.inputs.size()) + " of them";
  if (k < n)
    out += (a.inputs.size() != b.inputs.size() ? "; " : ": ") + std::string("input ") + std::to_string(k) + " is " + describe(a.inputs[k]) +
           " in " + a.label + ", " + describe(b.inputs[k]) + " in " + b.label;
  return out;
}

}  // namespace

std::string OverlapReport::verdict() const {
  return status == SolveStatus::Sat ? "overlap" : status == SolveStatus::Unsat ? "disjoint" : "undecided";
}

OverlapReport overlap(const GuardedEntry& a, const GuardedEntry& b, const GuardCheckOptions& options) {
  OverlapReport out;
  if (std::string mismatch = inputMismatch(a, b); !mismatch.empty()) {
    out.status = SolveStatus::Unsat;
    out.reason = std::move(mismatch);
    return out;
  }
  const auto symbolsOf = [](const GuardedEntry& e) { return static_cast<int32_t>(e.env ? e.env->symbols().size() : 0); };
  const int32_t bBase = symbolsOf(a), dimsBase = bBase + symbolsOf(b);
  std::vector<int32_t> dimBase;
  int32_t next = dimsBase;
  for (const auto& in : a.inputs) {
    dimBase.push_back(next);
    next += static_cast<int32_t>(in.sizes.size());
  }
  std::vector<Fact> facts = entryFacts(a, 0, dimBase);
  for (auto& f : entryFacts(b, bBase, dimBase)) facts.push_back(std::move(f));

  Solver solver(options.timeoutMs);
  std::vector<size_t> on;
  for (const auto& f : facts) on.push_back(solver.track({f.rel}));
  auto r = solver.check(on);
  out.queries.push_back({"overlap", a.label + " and " + b.label + " both accept a call?", r.status, r.ms});
  out.status = r.status;
  out.reason = r.reason;
  if (r.status == SolveStatus::Sat) {
    for (size_t k = 0; k < a.inputs.size(); ++k) {
      std::vector<int64_t> sizes;
      for (size_t d = 0; d < a.inputs[k].sizes.size(); ++d) {
        auto it = r.model.find(dimBase[k] + static_cast<int32_t>(d));
        sizes.push_back(it == r.model.end() ? 0 : it->second);
      }
      out.witness.emplace_back(a.inputs[k].name, std::move(sizes));
    }
  } else if (r.status == SolveStatus::Unsat) {
    const double before = solver.totalMs();
    for (size_t id : solver.minimalCore(on)) out.separating.push_back(facts[id].text);
    out.queries.push_back({"overlap", "the checks that separate them (minimal core)", SolveStatus::Unsat, solver.totalMs() - before});
  }
  return out;
}

PairwiseOverlap overlapPairwise(const std::vector<GuardedEntry>& entries, const GuardCheckOptions& options) {
  PairwiseOverlap out;
  for (size_t a = 0; a < entries.size(); ++a)
    for (size_t b = a + 1; b < entries.size(); ++b) {
      OverlapReport r = overlap(entries[a], entries[b], options);
      out.queries.insert(out.queries.end(), r.queries.begin(), r.queries.end());
      out.anyOverlap |= r.status == SolveStatus::Sat;
      out.pairs.push_back({a, b, std::move(r)});
    }
  return out;
}

}  // namespace fathom::sym
