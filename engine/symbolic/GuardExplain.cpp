// `fathom guards --explain` (see GuardExplain.h).
#include "engine/symbolic/GuardExplain.h"

#include <sstream>

namespace fathom::sym {
namespace {

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

std::optional<int64_t> parseCount(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 18) return std::nullopt;
  return std::stoll(text);
}

}  // namespace

Result<ExplainSizes> parseExplainSizes(const std::string& text, const ShapeEnv& env, const std::vector<GuardedInput>& traced) {
  ExplainSizes out;
  std::stringstream ss(text);
  std::string item;
  const std::string example = " (e.g. s0=4,s1=64 or input_ids=4x64,attention_mask=4x64)";
  while (std::getline(ss, item, ',')) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) return invalidInput("--explain: '" + item + "' is not NAME=SIZE" + example);
    const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    if (auto symbol = env.symbolIndex(name)) {
      auto v = parseCount(value);
      if (!v) return invalidInput("--explain: '" + item + "': a symbol's value is a size >= 0");
      out.symbols[*symbol] = *v;
      continue;
    }
    std::vector<int64_t> dims;
    std::stringstream ds(value);
    std::string d;
    while (std::getline(ds, d, 'x')) {
      auto v = parseCount(d);
      if (!v) return invalidInput("--explain: '" + item + "': sizes are AxBxC with integers >= 0" + example);
      dims.push_back(*v);
    }
    if (dims.empty()) return invalidInput("--explain: '" + item + "' gives no sizes" + example);
    out.inputs[name] = std::move(dims);
  }
  if (out.symbols.empty() && out.inputs.empty()) return invalidInput("--explain: nothing given" + example);
  if (!out.symbols.empty() && !out.inputs.empty())
    return invalidInput("--explain: give symbol values or input sizes, not both" + example);
  // Every input named must be one the trace read sizes from, or one of the traced inputs.
  for (const auto& entry : out.inputs) {
    const std::string& name = entry.first;  // not a structured binding: clang 14 cannot capture one
    bool known = tracedInput(traced, name) != nullptr;
    auto names = [&](const std::string& src) {
      auto split = splitSource(src);
      return split && split->first == name;
    };
    for (const auto& s : env.symbols())
      for (const auto& src : s.sources) known |= names(src);
    for (const auto& s : env.specializations()) known |= names(s.source);
    if (!known) return invalidInput("--explain: '" + name + "' is neither a symbol nor an input this trace read sizes from");
  }
  return out;
}

Result<ExplainReport> explainSizes(const ShapeEnv& env, const ExplainSizes& sizes, const GuardCheckOptions& options,
                                   const std::vector<GuardedInput>& traced) {
  ExplainReport out;
  // Targets for the optimizer: (symbol, given value), once per given dimension.
  std::vector<std::pair<int32_t, int64_t>> target;
  auto given = [&](const std::string& source) -> std::optional<int64_t> {
    auto split = splitSource(source);
    if (!split) return std::nullopt;
    auto it = sizes.inputs.find(split->first);
    if (it == sizes.inputs.end() || split->second >= it->second.size()) return std::nullopt;
    return it->second[split->second];
  };
  for (size_t s = 0; s < env.symbols().size(); ++s) {
    const auto symbol = static_cast<int32_t>(s);
    const SymbolInfo& info = env.symbols()[s];
    if (auto it = sizes.symbols.find(symbol); it != sizes.symbols.end()) {
      out.values[symbol] = it->second;
      target.emplace_back(symbol, it->second);
      continue;
    }
    std::optional<std::pair<std::string, int64_t>> first;
    for (const auto& src : info.sources) {
      auto v = given(src);
      if (!v) continue;
      target.emplace_back(symbol, *v);
      if (!first) first = std::pair{src, *v};
      else if (*v != first->second)
        out.failed.push_back({"duck", first->first + " == " + src, std::nullopt,
                              first->first + " = " + std::to_string(first->second) + ", " + src + " = " + std::to_string(*v)});
    }
    if (first) out.values[symbol] = first->second;
  }
  // Symbols not given: a replaced one follows its replacement; any other is missing.
  for (const auto& [symbol, value] : env.replacements()) {
    if (out.values.count(symbol)) continue;
    auto v = evaluate(value, [&](int32_t s) -> std::optional<int64_t> {
      auto it = out.values.find(s);
      return it == out.values.end() ? std::nullopt : std::optional<int64_t>(it->second);
    });
    if (v.ok()) out.values[symbol] = *v;
  }
  for (size_t s = 0; s < env.symbols().size(); ++s)
    if (!out.values.count(static_cast<int32_t>(s))) {
      const auto& info = env.symbols()[s];
      return invalidInput("--explain: no value for " + info.name + (info.sources.empty() ? "" : " (" + info.sources.front() + ")"));
    }
  for (const auto& sp : env.specializations()) {
    if (sp.kind != "zero-one") continue;
    auto v = given(sp.source);
    if (v && sp.value.constant() && *v != *sp.value.constant())
      out.failed.push_back({"zero-one", sp.source + " == " + sp.value.str(), std::nullopt, sp.source + " = " + std::to_string(*v)});
  }
  // Dimensions no symbol stands for. The cache checks an input's rank and each dimension the
  // trace saw as a constant; without the graph they can only be noted.
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

  const Binding bind = [&](int32_t s) -> std::optional<int64_t> {
    auto it = out.values.find(s);
    return it == out.values.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  auto actual = [&](const Relation& r) {
    std::string text;
    for (int32_t s : r.difference().symbols()) text += (text.empty() ? "" : ", ") + symbolName(s) + " = " + std::to_string(out.values[s]);
    return text;
  };
  for (size_t s = 0; s < env.symbols().size(); ++s) {
    const auto& range = env.symbols()[s].range;
    const int64_t v = out.values[static_cast<int32_t>(s)];
    if (v < range.lo || v > range.hi)
      out.failed.push_back({"range", env.symbols()[s].name + " in " + range.str(), std::nullopt, env.symbols()[s].name + " = " + std::to_string(v)});
  }
  for (size_t i = 0; i < env.guards().size(); ++i) {
    const Relation& g = env.guards()[i].expr;
    auto holds = evaluate(g, bind);
    if (!holds.ok() || !*holds) out.failed.push_back({"guard", g.str(), i, actual(g) + (holds.ok() ? "" : " (" + holds.error().message + ")")});
  }

  // The nearest sizes that pass every guard and range.
  Solver solver(options.timeoutMs);
  std::vector<size_t> on;
  for (size_t s = 0; s < env.symbols().size(); ++s) solver.requireRange(static_cast<int32_t>(s), env.symbols()[s].range);
  for (const auto& g : env.guards()) on.push_back(solver.track({g.expr}));
  out.nearest = solver.nearest(on, target);
  out.queries.push_back({"explain", "nearest passing sizes", out.nearest.status, out.nearest.ms});
  if (out.nearest.status != SolveStatus::Sat) return out;
  const Binding nearest = [&](int32_t s) -> std::optional<int64_t> {
    if (auto it = out.nearest.model.find(s); it != out.nearest.model.end()) return it->second;
    return bind(s);
  };
  for (const auto& [name, dims] : sizes.inputs) {
    std::vector<int64_t> near;
    if (const GuardedInput* in = tracedInput(traced, name)) {
      // The traced sizes at the nearest symbol values: right rank, right constants.
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
  return out;
}

}  // namespace fathom::sym
