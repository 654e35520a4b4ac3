// `fathom guards --accepts` (see GuardAccepts.h): the proof query over the box, the failing checks
// of a counterexample, and the widest passing interval per symbol by bisection.
#include "engine/symbolic/GuardAccepts.h"

#include <charconv>
#include <optional>

namespace fathom::sym {
namespace {

using Box = std::map<int32_t, std::pair<int64_t, int64_t>>;

std::optional<int64_t> parseInt(std::string_view s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// A solver where the box's symbols range over their intervals and every other symbol is pinned to
// its trace value; returns it with one tracked clause: "some check fails".
size_t someCheckFails(const ShapeEnv& env, const Box& box, Solver& solver) {
  for (size_t s = 0; s < env.symbols().size(); ++s) {
    const auto symbol = static_cast<int32_t>(s);
    const Expr x = Expr::symbol(symbol);
    if (auto it = box.find(symbol); it != box.end()) {
      solver.require({SymRel::Ge, x, it->second.first});
      solver.require({SymRel::Le, x, it->second.second});
    } else if (auto r = env.replacements().find(symbol); r != env.replacements().end()) {
      solver.require({SymRel::Eq, x, r->second});
    } else {
      solver.require({SymRel::Eq, x, env.symbols()[s].hint});
    }
  }
  std::vector<Relation> anyFails;
  for (size_t s = 0; s < env.symbols().size(); ++s)
    for (const Relation& r : rangeRelations(static_cast<int32_t>(s), env.symbols()[s].range)) anyFails.push_back(r.negated());
  for (const auto& g : env.guards()) anyFails.push_back(g.expr.negated());
  if (anyFails.empty()) anyFails.push_back({SymRel::Ne, Expr(0), Expr(0)});  // nothing to fail
  return solver.track(anyFails);
}

SolveResult ask(const ShapeEnv& env, const Box& box, const GuardCheckOptions& options, const std::string& subject,
                std::vector<GuardQuery>& queries) {
  Solver solver(options.timeoutMs);
  const size_t clause = someCheckFails(env, box, solver);
  SolveResult r = solver.check({clause});
  queries.push_back({"accepts", subject, r.status, r.ms});
  return r;
}

std::string boxText(const Box& box) {
  std::string out;
  for (const auto& [s, lohi] : box)
    out += (out.empty() ? "" : ",") + symbolName(s) + "=" + std::to_string(lohi.first) + ".." + std::to_string(lohi.second);
  return out;
}

// Every check the point fails: ranges, then guards (with the guard's index for its provenance).
std::vector<FailedCheck> failedAt(const ShapeEnv& env, const std::map<int32_t, int64_t>& point) {
  std::vector<FailedCheck> out;
  const Binding bind = [&](int32_t s) -> std::optional<int64_t> {
    auto it = point.find(s);
    return it == point.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  auto actual = [&](const std::vector<int32_t>& symbols) {
    std::string text;
    for (int32_t s : symbols)
      if (point.count(s)) text += (text.empty() ? "" : ", ") + symbolName(s) + " = " + std::to_string(point.at(s));
    return text;
  };
  for (size_t s = 0; s < env.symbols().size(); ++s) {
    const auto& info = env.symbols()[s];
    const int64_t v = point.count(static_cast<int32_t>(s)) ? point.at(static_cast<int32_t>(s)) : info.hint;
    if (v < info.range.lo || v > info.range.hi)
      out.push_back({"range", info.name + " in " + info.range.str(), std::nullopt, info.name + " = " + std::to_string(v)});
  }
  for (size_t i = 0; i < env.guards().size(); ++i) {
    const Relation& g = env.guards()[i].expr;
    auto holds = evaluate(g, bind);
    if (!holds.ok() || !*holds) out.push_back({"guard", g.str(), i, actual(g.difference().symbols())});
  }
  return out;
}

// The trace's values with `symbol` moved to `value`.
std::map<int32_t, int64_t> hintsWith(const ShapeEnv& env, int32_t symbol, int64_t value) {
  std::map<int32_t, int64_t> point;
  for (size_t s = 0; s < env.symbols().size(); ++s) point[static_cast<int32_t>(s)] = env.symbols()[s].hint;
  const Binding bind = [&](int32_t s) -> std::optional<int64_t> { return point.at(s); };
  for (const auto& [replaced, value2] : env.replacements())
    if (auto v = evaluate(value2, bind); v.ok()) point[replaced] = *v;
  point[symbol] = value;
  return point;
}

// The widest interval around `symbol`'s hint within [lo, hi] where every point passes, the other
// symbols at their trace values: two bisections over the interval's ends.
std::pair<int64_t, int64_t> widestAround(const ShapeEnv& env, const AcceptsRange& r, const GuardCheckOptions& options,
                                         std::vector<GuardQuery>& queries) {
  const int64_t hint = env.symbols()[static_cast<size_t>(r.symbol)].hint;
  auto passes = [&](int64_t a, int64_t b) {
    Box box{{r.symbol, {a, b}}};
    return ask(env, box, options, "widest " + boxText(box), queries).status == SolveStatus::Unsat;
  };
  if (hint < r.lo || hint > r.hi || !passes(hint, hint)) return {1, 0};  // empty: not even the hint
  int64_t good = hint, bad = r.lo - 1;  // lowest end: [good, hint] passes; [bad, hint] does not (or bad is outside)
  if (passes(r.lo, hint)) good = r.lo;
  else
    while (good - bad > 1) {
      const int64_t mid = bad + (good - bad) / 2;
      (passes(mid, hint) ? good : bad) = mid;
    }
  const int64_t lo = good;
  good = hint, bad = r.hi + 1;
  if (passes(hint, r.hi)) good = r.hi;
  else
    while (bad - good > 1) {
      const int64_t mid = good + (bad - good) / 2;
      (passes(hint, mid) ? good : bad) = mid;
    }
  return {lo, good};
}

}  // namespace

Result<std::vector<AcceptsRange>> parseAcceptsRanges(std::string_view text, const ShapeEnv& env) {
  std::vector<AcceptsRange> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const std::string bad = "--accepts: bad item '" + std::string(item) + "': ";
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) return invalidInput(bad + "expected SYMBOL=LO..HI, e.g. s0=1..64");
    auto symbol = parseSymbolName(item.substr(0, eq));
    if (!symbol || static_cast<size_t>(*symbol) >= env.symbols().size())
      return invalidInput(bad + "'" + std::string(item.substr(0, eq)) + "' is not a symbol of this trace (it has " +
                          std::to_string(env.symbols().size()) + ")");
    const std::string_view range = item.substr(eq + 1);
    const size_t dots = range.find("..");
    auto lo = parseInt(range.substr(0, dots));
    auto hi = dots == std::string_view::npos ? lo : parseInt(range.substr(dots + 2));
    if (!lo || !hi) return invalidInput(bad + "expected integers LO..HI");
    if (*lo > *hi) return invalidInput(bad + "the range is empty (" + std::to_string(*lo) + " > " + std::to_string(*hi) + ")");
    for (const auto& r : out)
      if (r.symbol == *symbol) return invalidInput(bad + symbolName(*symbol) + " is given twice");
    out.push_back({*symbol, *lo, *hi});
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

Result<AcceptsReport> provesAccepts(const ShapeEnv& env, const std::vector<AcceptsRange>& ranges, const GuardCheckOptions& options) {
  AcceptsReport out;
  out.ranges = ranges;
  Box box;
  for (const auto& r : ranges) box[r.symbol] = {r.lo, r.hi};
  const SolveResult proof = ask(env, box, options, boxText(box), out.queries);
  out.status = proof.status;
  out.reason = proof.reason;
  out.accepted = proof.status == SolveStatus::Unsat;
  if (proof.status == SolveStatus::Sat) {
    std::map<int32_t, int64_t> point;
    for (size_t s = 0; s < env.symbols().size(); ++s) {
      const auto symbol = static_cast<int32_t>(s);
      point[symbol] = proof.model.count(symbol) ? proof.model.at(symbol) : env.symbols()[s].hint;
    }
    for (const auto& r : ranges) out.counterexample[r.symbol] = point[r.symbol];
    out.failed = failedAt(env, point);
  }
  for (const auto& r : ranges) {
    const auto widest = out.accepted ? std::pair{r.lo, r.hi} : widestAround(env, r, options, out.queries);
    out.widest[r.symbol] = widest;
    if (widest.first > widest.second) continue;
    if (widest.first > r.lo) out.stops.push_back({r.symbol, "below", widest.first - 1, failedAt(env, hintsWith(env, r.symbol, widest.first - 1))});
    if (widest.second < r.hi) out.stops.push_back({r.symbol, "above", widest.second + 1, failedAt(env, hintsWith(env, r.symbol, widest.second + 1))});
  }
  return out;
}

}  // namespace fathom::sym
