// `fathom guards --explain` (see GuardExplain.h). explainSizes runs in steps, each adding to the
// report in the order a reader meets them: bind every symbol to a value (given, or through a
// replacement), the checks on given input dimensions (duck sizing, zero-one, rank, constants), the
// symbols' ranges and the recorded guards, then the nearest sizes that pass.
#include "engine/symbolic/GuardExplain.h"

namespace fathom::sym {
namespace {

// (symbol, given value) pairs the optimizer stays close to, once per given dimension.
using Targets = std::vector<std::pair<int32_t, int64_t>>;

// "input_ids.size(1)" -> {"input_ids", 1}
std::optional<std::pair<std::string, size_t>> splitSource(const std::string& source) {
  const size_t open = source.rfind(".size(");
  if (open == std::string::npos || source.back() != ')') return std::nullopt;
  try {
    return std::pair{source.substr(0, open), static_cast<size_t>(std::stoul(source.substr(open + 6)))};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string sourceName(const std::string& input, size_t dim) { return input + ".size(" + std::to_string(dim) + ")"; }

// The traced input called `name`; null when the graph is not known or has no such input.
const GuardedInput* tracedInput(const std::vector<GuardedInput>& traced, const std::string& name) {
  for (const auto& in : traced)
    if (in.name == name) return &in;
  return nullptr;
}

// Whether the trace read this dimension into a symbol, or specialized it to 0/1 (checked as such).
bool isSymbolSource(const ShapeEnv& env, const std::string& source) {
  for (const auto& s : env.symbols())
    for (const auto& src : s.sources)
      if (src == source) return true;
  for (const auto& sp : env.specializations())
    if (sp.source == source) return true;
  return false;
}

// The size given for a dimension ("input_ids.size(1)"), if its input was given with that many.
std::optional<int64_t> givenSize(const ExplainSizes& sizes, const std::string& source) {
  auto split = splitSource(source);
  if (!split) return std::nullopt;
  auto it = sizes.inputs.find(split->first);
  if (it == sizes.inputs.end() || split->second >= it->second.size()) return std::nullopt;
  return it->second[split->second];
}

Binding bindingOf(const std::map<int32_t, int64_t>& values) {
  return [&values](int32_t s) -> std::optional<int64_t> {
    auto it = values.find(s);
    return it == values.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
}

// Each symbol given a value, directly or through its first given source. Two sources of one
// duck-sized symbol given different sizes fail a "duck" check.
Targets bindGiven(const ShapeEnv& env, const ExplainSizes& sizes, ExplainReport& out) {
  Targets target;
  for (size_t s = 0; s < env.symbols().size(); ++s) {
    const auto symbol = static_cast<int32_t>(s);
    if (auto it = sizes.symbols.find(symbol); it != sizes.symbols.end()) {
      out.values[symbol] = it->second;
      target.emplace_back(symbol, it->second);
      continue;
    }
    std::optional<std::pair<std::string, int64_t>> first;
    for (const auto& src : env.symbols()[s].sources) {
      auto v = givenSize(sizes, src);
      if (!v) continue;
      target.emplace_back(symbol, *v);
      if (!first) first = std::pair{src, *v};
      else if (*v != first->second)
        out.failed.push_back({"duck", first->first + " == " + src, std::nullopt,
                              first->first + " = " + std::to_string(first->second) + ", " + src + " = " + std::to_string(*v)});
    }
    if (first) out.values[symbol] = first->second;
  }
  return target;
}

// Symbols not given: a replaced one follows its replacement; any other is missing (an error).
Status bindReplaced(const ShapeEnv& env, ExplainReport& out) {
  for (const auto& [symbol, value] : env.replacements()) {
    if (out.values.count(symbol)) continue;
    auto v = evaluate(value, bindingOf(out.values));
    if (v.ok()) out.values[symbol] = *v;
  }
  for (size_t s = 0; s < env.symbols().size(); ++s)
    if (!out.values.count(static_cast<int32_t>(s))) {
      const auto& info = env.symbols()[s];
      return invalidInput("--explain: no value for " + info.name + (info.sources.empty() ? "" : " (" + info.sources.front() + ")"));
    }
  return {};
}

// A dimension the trace specialized to 0 or 1, given another size.
void checkZeroOne(const ShapeEnv& env, const ExplainSizes& sizes, ExplainReport& out) {
  for (const auto& sp : env.specializations()) {
    if (sp.kind != "zero-one") continue;
    auto v = givenSize(sizes, sp.source);
    if (v && sp.value.constant() && *v != *sp.value.constant())
      out.failed.push_back({"zero-one", sp.source + " == " + sp.value.str(), std::nullopt, sp.source + " = " + std::to_string(*v)});
  }
}

// Dimensions no symbol stands for. The cache checks an input's rank and each dimension the trace
// saw as a constant; without the graph they can only be noted.
void checkUnsymbolized(const ShapeEnv& env, const ExplainSizes& sizes, const std::vector<GuardedInput>& traced, ExplainReport& out) {
  for (const auto& [name, dims] : sizes.inputs) {
    const GuardedInput* in = tracedInput(traced, name);
    if (in && in->sizes.size() != dims.size()) {
      out.failed.push_back({"rank", name + ".dim() == " + std::to_string(in->sizes.size()), std::nullopt,
                            name + ".dim() = " + std::to_string(dims.size())});
      continue;
    }
    for (size_t d = 0; d < dims.size(); ++d) {
      const std::string source = sourceName(name, d);
      if (isSymbolSource(env, source)) continue;
      const std::optional<int64_t> fixed = in ? exprOf(in->sizes[d]).constant() : std::nullopt;
      if (!fixed)
        out.notes.push_back(in ? source + " is " + exprOf(in->sizes[d]).str() + " in the trace: not checked here"
                               : source + " is not a symbol of this trace: not checked here (the trace's inputs are not known)");
      else if (*fixed != dims[d])
        out.failed.push_back({"static", source + " == " + std::to_string(*fixed), std::nullopt, source + " = " + std::to_string(dims[d])});
    }
  }
}

// Each symbol's range, then each recorded guard, under the bound values.
void checkRangesAndGuards(const ShapeEnv& env, ExplainReport& out) {
  for (size_t s = 0; s < env.symbols().size(); ++s) {
    const auto& range = env.symbols()[s].range;
    const int64_t v = out.values[static_cast<int32_t>(s)];
    if (v < range.lo || v > range.hi)
      out.failed.push_back({"range", env.symbols()[s].name + " in " + range.str(), std::nullopt, env.symbols()[s].name + " = " + std::to_string(v)});
  }
  const Binding bind = bindingOf(out.values);
  auto actual = [&](const Relation& r) {
    std::string text;
    for (int32_t s : r.difference().symbols()) text += (text.empty() ? "" : ", ") + symbolName(s) + " = " + std::to_string(out.values[s]);
    return text;
  };
  for (size_t i = 0; i < env.guards().size(); ++i) {
    const Relation& g = env.guards()[i].expr;
    auto holds = evaluate(g, bind);
    if (!holds.ok() || !*holds) out.failed.push_back({"guard", g.str(), i, actual(g) + (holds.ok() ? "" : " (" + holds.error().message + ")")});
  }
}

// The nearest symbol values that pass every guard and range (Z3's optimizer).
void findNearest(const ShapeEnv& env, const Targets& target, const GuardCheckOptions& options, ExplainReport& out) {
  Solver solver(options.timeoutMs);
  std::vector<size_t> on;
  for (size_t s = 0; s < env.symbols().size(); ++s) solver.requireRange(static_cast<int32_t>(s), env.symbols()[s].range);
  for (const auto& g : env.guards()) on.push_back(solver.track({g.expr}));
  out.nearest = solver.nearest(on, target);
  out.queries.push_back({"explain", "nearest passing sizes", out.nearest.status, out.nearest.ms});
}

// The nearest values as sizes of the inputs given: a traced input's recorded sizes evaluated
// (right rank, right constants), else the given sizes with each symbol's dimensions moved.
void nearestAsInputs(const ShapeEnv& env, const ExplainSizes& sizes, const std::vector<GuardedInput>& traced, ExplainReport& out) {
  const Binding given = bindingOf(out.values);
  const Binding nearest = [&](int32_t s) -> std::optional<int64_t> {
    if (auto it = out.nearest.model.find(s); it != out.nearest.model.end()) return it->second;
    return given(s);
  };
  for (const auto& [name, dims] : sizes.inputs) {
    std::vector<int64_t> near;
    if (const GuardedInput* in = tracedInput(traced, name)) {
      for (const auto& size : in->sizes) {
        auto v = evaluate(exprOf(size), nearest);
        near.push_back(v.ok() ? *v : -1);
      }
    } else {
      near = dims;
      for (size_t d = 0; d < near.size(); ++d)
        for (size_t s = 0; s < env.symbols().size(); ++s)
          for (const auto& src : env.symbols()[s].sources)
            if (src == sourceName(name, d) && out.nearest.model.count(static_cast<int32_t>(s))) near[d] = out.nearest.model.at(static_cast<int32_t>(s));
    }
    out.nearestInputs[name] = std::move(near);
  }
}

}  // namespace

bool isExplainableInput(const ShapeEnv& env, const std::vector<GuardedInput>& traced, const std::string& name) {
  auto names = [&](const std::string& src) {
    auto split = splitSource(src);
    return split && split->first == name;
  };
  bool known = tracedInput(traced, name) != nullptr;
  for (const auto& s : env.symbols())
    for (const auto& src : s.sources) known |= names(src);
  for (const auto& s : env.specializations()) known |= names(s.source);
  return known;
}

Result<ExplainReport> explainSizes(const ShapeEnv& env, const ExplainSizes& sizes, const GuardCheckOptions& options,
                                   const std::vector<GuardedInput>& traced) {
  ExplainReport out;
  const Targets target = bindGiven(env, sizes, out);
  if (auto bound = bindReplaced(env, out); !bound.ok()) return bound.error();
  checkZeroOne(env, sizes, out);
  checkUnsymbolized(env, sizes, traced, out);
  checkRangesAndGuards(env, out);
  findNearest(env, target, options, out);
  if (out.nearest.status == SolveStatus::Sat) nearestAsInputs(env, sizes, traced, out);
  return out;
}

}  // namespace fathom::sym
