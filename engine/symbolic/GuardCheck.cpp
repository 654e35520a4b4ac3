// The four guard analyses of `fathom guards --check` (see GuardCheck.h).
#include "engine/symbolic/GuardCheck.h"

#include <algorithm>
#include <chrono>

#include "engine/symbolic/GuardSet.h"

namespace fathom::sym {

std::string Consistency::verdict() const {
  return status == SolveStatus::Sat ? "consistent" : status == SolveStatus::Unsat ? "inconsistent" : "undecided";
}

std::string Soundness::verdict() const {
  if (!ran) return "skipped";
  if (looser == SolveStatus::Sat || stricter == SolveStatus::Sat) return "unsound";
  if (looser == SolveStatus::Unsat && stricter == SolveStatus::Unsat) return "sound";
  return "undecided";
}

bool GuardCheckReport::problemFound() const {
  if (consistency.status == SolveStatus::Unsat) return true;
  if (soundness.looser == SolveStatus::Sat || soundness.stricter == SolveStatus::Sat) return true;
  return std::any_of(specializations.begin(), specializations.end(), [](const SymbolFinding& f) { return f.recorded && !f.implied; });
}

namespace {

// The guard as it was asked; the recorded expression in dumps from before Guard::raw.
const Relation& rawOf(const Guard& g) { return g.raw ? *g.raw : g.expr; }

bool gaveUp(SolveStatus s) { return s != SolveStatus::Sat && s != SolveStatus::Unsat; }

class Checker {
 public:
  Checker(const ShapeEnv& env, const GuardCheckOptions& options, GuardCheckReport& report)
      : env_(env), solver_(options.timeoutMs), report_(report) {
    for (const auto& g : env.guards()) {
      guardIds_.push_back(solver_.track({g.expr}));
      rawIds_.push_back(solver_.track({rawOf(g)}));
    }
    for (size_t s = 0; s < env.symbols().size(); ++s) {
      const auto symbol = static_cast<int32_t>(s);
      for (const Relation& r : rangeRelations(symbol, env.symbols()[s].range)) {
        const size_t id = solver_.track({r});
        rangeIds_.push_back(id);
        rangeFacts_.push_back(r);
        rangeSymbol_[id] = symbol;
        if (env.replacements().count(symbol)) continue;  // GuardSet checks a replaced symbol's replacement instead
        simplifiedIds_.push_back(id);
        report_.soundness.simplified.push_back({"range", r, std::nullopt});
      }
    }
  }

  void run() {
    consistency();
    if (report_.consistency.status == SolveStatus::Unsat) return;  // everything follows from a contradiction
    redundancy();
    soundness();
    specializations();
  }

 private:
  SolveResult ask(const std::string& check, const std::string& subject, const std::vector<size_t>& on) {
    SolveResult r = solver_.check(on);
    record(check, subject, r);
    return r;
  }
  void record(const std::string& check, const std::string& subject, const SolveResult& r) {
    report_.queries.push_back({check, subject, r.status, r.ms});
    if (gaveUp(r.status)) report_.undecided.push_back({check, subject, std::string(solveStatusName(r.status)) + ": " + r.reason});
  }
  std::vector<size_t> core(const std::string& check, const std::string& subject, const std::vector<size_t>& on) {
    const size_t before = solver_.queries();
    const auto start = std::chrono::steady_clock::now();
    auto out = solver_.minimalCore(on);
    report_.queries.push_back({check, subject + " (minimal core, " + std::to_string(solver_.queries() - before) + " queries)",
                               out.empty() ? SolveStatus::Unknown : SolveStatus::Unsat,
                               std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count()});
    return out;
  }
  // The guard indices among clause ids.
  std::vector<size_t> guardsAmong(const std::vector<size_t>& ids) const {
    std::vector<size_t> out;
    for (size_t id : ids)
      if (auto it = std::find(guardIds_.begin(), guardIds_.end(), id); it != guardIds_.end())
        out.push_back(static_cast<size_t>(it - guardIds_.begin()));
    return out;
  }
  std::vector<size_t> allRecorded() const {
    std::vector<size_t> on = guardIds_;
    on.insert(on.end(), rangeIds_.begin(), rangeIds_.end());
    return on;
  }

  void consistency() {
    const auto on = allRecorded();
    auto r = ask("consistency", "all guards and ranges", on);
    auto& c = report_.consistency;
    c.status = r.status;
    if (r.status == SolveStatus::Sat) c.witness = r.model;
    if (r.status != SolveStatus::Unsat) return;
    const auto conflict = core("consistency", "conflicting guards", on);
    c.conflict = guardsAmong(conflict);
    for (size_t id : conflict)
      if (auto it = rangeSymbol_.find(id); it != rangeSymbol_.end()) c.rangesInConflict.push_back(it->second);
  }

  // Newest first, so a guard asked again in other words goes, and the first asking stays.
  void redundancy() {
    auto& out = report_.redundancy;
    out.ran = true;
    std::vector<size_t> kept(env_.guards().size());
    for (size_t i = 0; i < kept.size(); ++i) kept[i] = i;
    for (size_t i = env_.guards().size(); i-- > 0;) {
      const Relation& g = env_.guards()[i].expr;
      std::vector<size_t> on;
      for (size_t k : kept)
        if (k != i) on.push_back(guardIds_[k]);
      on.insert(on.end(), rangeIds_.begin(), rangeIds_.end());
      const size_t negation = solver_.track({g.negated()});
      on.push_back(negation);
      if (ask("redundancy", g.str() + " implied by the others?", on).status != SolveStatus::Unsat) continue;
      RedundantGuard rg{i, guardsAmong(core("redundancy", "what implies " + g.str(), on))};
      out.redundant.insert(out.redundant.begin(), std::move(rg));
      kept.erase(std::find(kept.begin(), kept.end(), i));
    }
    out.minimal = kept;
  }

  void soundness() {
    auto& s = report_.soundness;
    s.ran = true;
    s.rawRecorded = !env_.guards().empty() && std::all_of(env_.guards().begin(), env_.guards().end(), [](const Guard& g) { return g.raw.has_value(); });
    std::vector<size_t> simplified = simplifiedIds_;
    for (size_t i = 0; i < env_.guards().size(); ++i) {
      const auto now = checkedGuard(env_, env_.guards()[i]);
      if (!now) continue;
      simplified.push_back(solver_.track({*now}));
      s.simplified.push_back({"guard", *now, i});
    }
    for (const auto& [symbol, value] : env_.replacements()) {
      const Relation r{SymRel::Eq, Expr::symbol(symbol), value};
      simplified.push_back(solver_.track({r}));
      s.simplified.push_back({"replacement", r, std::nullopt});
    }
    std::vector<size_t> raw = rawIds_;
    raw.insert(raw.end(), rangeIds_.begin(), rangeIds_.end());
    std::vector<Relation> rawFacts, simplifiedFacts;
    for (const auto& g : env_.guards()) rawFacts.push_back(rawOf(g));
    rawFacts.insert(rawFacts.end(), rangeFacts_.begin(), rangeFacts_.end());
    for (const auto& c : s.simplified) simplifiedFacts.push_back(c.rel);

    auto direction = [&](const std::vector<size_t>& accepts, const std::vector<Relation>& rejectsAnyOf, const char* subject,
                         SolveStatus* status, std::optional<Counterexample>* example) {
      std::vector<Relation> negated;
      for (const auto& r : rejectsAnyOf) negated.push_back(r.negated());
      std::vector<size_t> on = accepts;
      if (!negated.empty()) on.push_back(solver_.track(negated));
      // No fact to reject with: nothing is rejected, so the question is whether any input is accepted at all.
      auto r = negated.empty() ? SolveResult{SolveStatus::Unsat, "", {}, 0} : ask("soundness", subject, on);
      *status = r.status;
      if (r.status == SolveStatus::Sat) *example = counterexample(r.model);
    };
    direction(simplified, rawFacts, "an input the simplified set accepts and the raw guards reject?", &s.looser, &s.looserExample);
    direction(raw, simplifiedFacts, "an input the raw guards accept and the simplified set rejects?", &s.stricter, &s.stricterExample);
  }

  Counterexample counterexample(std::map<int32_t, int64_t> values) const {
    for (size_t s = 0; s < env_.symbols().size(); ++s) values.emplace(static_cast<int32_t>(s), env_.symbols()[s].hint);
    const Binding bind = [&](int32_t s) -> std::optional<int64_t> {
      auto it = values.find(s);
      return it == values.end() ? std::nullopt : std::optional<int64_t>(it->second);
    };
    auto fails = [&](const Relation& r) {
      auto v = evaluate(r, bind);
      return !v.ok() || !*v;
    };
    Counterexample c;
    for (size_t i = 0; i < env_.guards().size(); ++i)
      if (fails(rawOf(env_.guards()[i]))) c.rawRejecting.push_back(i);
    for (const auto& check : report_.soundness.simplified)
      if (fails(check.rel)) c.simplifiedRejecting.push_back(check.rel.str());
    c.values = std::move(values);
    return c;
  }

  // Recorded replacements: implied by the guards? Then symbols the guards pin or unify that the
  // ShapeEnv did not record (inequalities that leave one value, ...).
  void specializations() {
    const auto all = allRecorded();
    auto finding = [&](int32_t symbol, const Expr& value, bool recorded) -> std::optional<SymbolFinding> {
      const Relation differs{SymRel::Ne, Expr::symbol(symbol), value};
      std::vector<size_t> on = all;
      on.push_back(solver_.track({differs}));
      const std::string subject = symbolName(symbol) + " == " + value.str() + " implied?";
      auto r = ask("specializations", subject, on);
      if (r.status == SolveStatus::Sat && !recorded) return std::nullopt;
      if (gaveUp(r.status)) return std::nullopt;
      SymbolFinding f{symbol, value.isConstant() ? "constant" : value.asSymbol() ? "unified" : "expression", value, recorded,
                      r.status == SolveStatus::Unsat, {}};
      if (f.implied) f.causedBy = guardsAmong(core("specializations", "what forces " + symbolName(symbol) + " == " + value.str(), on));
      return f;
    };
    for (const auto& [symbol, value] : env_.replacements())
      if (auto f = finding(symbol, value, true)) report_.specializations.push_back(std::move(*f));
    const auto& witness = report_.consistency.witness;
    auto valueIn = [&](int32_t s) {
      auto it = witness.find(s);
      return it == witness.end() ? env_.symbols()[static_cast<size_t>(s)].hint : it->second;
    };
    std::vector<int32_t> free;
    for (size_t s = 0; s < env_.symbols().size(); ++s)
      if (!env_.replacements().count(static_cast<int32_t>(s))) free.push_back(static_cast<int32_t>(s));
    std::vector<int32_t> unpinned;
    for (int32_t s : free) {
      if (auto f = finding(s, Expr(valueIn(s)), false)) report_.specializations.push_back(std::move(*f));
      else unpinned.push_back(s);
    }
    // Two symbols can only be unified if the witness gives them one value.
    for (size_t j = 0; j < unpinned.size(); ++j)
      for (size_t i = 0; i < j; ++i)
        if (valueIn(unpinned[i]) == valueIn(unpinned[j]))
          if (auto f = finding(unpinned[j], Expr::symbol(unpinned[i]), false)) {
            report_.specializations.push_back(std::move(*f));
            break;
          }
  }

  const ShapeEnv& env_;
  Solver solver_;
  GuardCheckReport& report_;
  std::vector<size_t> guardIds_, rawIds_, rangeIds_, simplifiedIds_;
  std::vector<Relation> rangeFacts_;  // the range relations, in rangeIds_'s order
  std::map<size_t, int32_t> rangeSymbol_;
};

}  // namespace

GuardCheckReport checkGuards(const ShapeEnv& env, const GuardCheckOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  GuardCheckReport report;
  report.solverAvailable = Solver::available();
  if (report.solverAvailable) Checker(env, options, report).run();
  report.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return report;
}

std::vector<std::pair<std::string, int64_t>> inputDimensions(const ShapeEnv& env, const std::map<int32_t, int64_t>& values) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const auto& [s, v] : values) {
    if (s < 0 || static_cast<size_t>(s) >= env.symbols().size()) continue;
    for (const auto& source : env.symbols()[static_cast<size_t>(s)].sources) {
      auto same = std::find_if(out.begin(), out.end(), [&](const auto& dim) { return dim.first == source; });
      if (same == out.end()) out.emplace_back(source, v);
      else same->second = v;  // a dimension named twice keeps its first place
    }
  }
  return out;
}

}  // namespace fathom::sym
