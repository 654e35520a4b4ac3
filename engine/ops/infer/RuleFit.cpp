#include "engine/ops/infer/RuleFit.h"

#include <algorithm>
#include <functional>
#include <optional>

#include "engine/ops/infer/MetaDiff.h"

namespace fathom::infer {
namespace {

std::vector<DimRef> features(const Observation& run) {
  std::vector<DimRef> out;
  for (size_t i = 0; i < run.inputSizes.size(); ++i)
    for (size_t d = 0; d < run.inputSizes[i].size(); ++d) out.push_back({static_cast<int>(i), static_cast<int>(d)});
  return out;
}

// Does `rule` give `ys[r]` on every run r? (A constant is left for Linear rules to set.)
bool fits(DimRule& rule, const std::vector<Observation>& runs, const std::vector<int64_t>& ys, bool fitConstant) {
  if (fitConstant) {
    rule.constant = 0;
    rule.constant = ys[0] - rule.eval(runs[0].inputSizes);
  }
  for (size_t r = 0; r < runs.size(); ++r)
    if (rule.eval(runs[r].inputSizes) != ys[r]) return false;
  return true;
}

// Sums of `size` distinct features (plus a constant), in index order.
std::optional<DimRule> fitSum(const std::vector<DimRef>& feats, size_t size, const std::vector<Observation>& runs,
                              const std::vector<int64_t>& ys) {
  std::vector<size_t> pick(size);
  std::optional<DimRule> found;
  std::function<void(size_t, size_t)> choose = [&](size_t at, size_t from) {
    if (found) return;
    if (at == size) {
      DimRule rule;
      for (size_t p : pick) rule.terms.push_back(feats[p]);
      if (fits(rule, runs, ys, true)) found = rule;
      return;
    }
    for (size_t f = from; f < feats.size() && !found; ++f) {
      pick[at] = f;
      choose(at + 1, f + 1);
    }
  };
  choose(0, 0);
  return found;
}

std::optional<DimRule> fitDim(const std::vector<Observation>& runs, const std::vector<int64_t>& ys) {
  const auto feats = features(runs[0]);
  DimRule constant;
  if (fits(constant, runs, ys, true)) return constant;
  for (const auto& f : feats) {  // an input dim, then an input dim plus a constant
    DimRule rule{DimRule::Kind::Linear, {f}};
    if (fits(rule, runs, ys, false)) return rule;
  }
  for (const auto& f : feats)
    if (DimRule rule{DimRule::Kind::Linear, {f}}; fits(rule, runs, ys, true)) return rule;
  for (size_t a = 0; a < feats.size(); ++a)
    for (size_t b = a; b < feats.size(); ++b)
      if (DimRule rule{DimRule::Kind::Product, {feats[a], feats[b]}}; fits(rule, runs, ys, false)) return rule;
  for (int64_t div = 2; div <= 16; ++div)
    for (const auto& f : feats)
      if (DimRule rule{DimRule::Kind::FloorDiv, {f}, 0, div}; fits(rule, runs, ys, false)) return rule;
  for (size_t size = 2; size <= 4; ++size)
    if (auto rule = fitSum(feats, size, runs, ys)) return rule;
  return std::nullopt;
}

// Output dim d stands for input `input`'s dim dimMap[d]: the first term of its rule on that input.
std::vector<int> dimMap(const std::vector<DimRule>& dims, int input) {
  std::vector<int> map;
  for (const auto& d : dims) {
    int k = -1;
    for (const auto& t : d.terms)
      if (t.input == input && k < 0) k = t.dim;
    map.push_back(k);
  }
  return map;
}

bool layoutFits(const OutputRule& rule, size_t o, const std::vector<Observation>& runs) {
  for (const auto& run : runs) {
    if (rule.layout.kind == LayoutRule::Kind::ViewOf &&
        !run.outputs[o].sharesStorageWith(run.inputTensors[static_cast<size_t>(rule.layout.input)]))
      return false;
    if (!metaDisagreement(rule.apply(run.inputs), run.outputs[o]).empty()) return false;
  }
  return true;
}

bool fitLayout(OutputRule& rule, size_t o, const std::vector<Observation>& runs) {
  std::vector<LayoutRule> candidates{LayoutRule{}};
  const int inputs = static_cast<int>(runs[0].inputs.size());
  for (auto kind : {LayoutRule::Kind::DenseLike, LayoutRule::Kind::SuggestedFormat, LayoutRule::Kind::ViewOf})
    for (int i = 0; i < inputs; ++i) {
      auto map = dimMap(rule.dims, i);
      const bool sameRank = runs[0].inputs[static_cast<size_t>(i)].dim() == static_cast<int64_t>(map.size());
      if (kind == LayoutRule::Kind::SuggestedFormat && !sameRank) continue;
      if (std::any_of(map.begin(), map.end(), [](int k) { return k >= 0; })) candidates.push_back({kind, i, map});
    }
  for (auto& c : candidates) {
    rule.layout = c;
    if (layoutFits(rule, o, runs)) return true;
  }
  return false;
}

std::optional<DTypeRule> fitDtype(const std::vector<Observation>& runs, size_t o) {
  const DType out = runs[0].outputs[o].dtype();
  for (const auto& run : runs)
    if (run.outputs[o].dtype() != out) return std::nullopt;
  for (size_t i = 0; i < runs[0].inputs.size(); ++i)
    if (runs[0].inputs[i].dtype == out) return DTypeRule{static_cast<int>(i), out};
  return DTypeRule{-1, out};
}

std::string sizesOf(const std::vector<Observation>& runs, size_t o, size_t d) {
  std::string out;
  for (const auto& run : runs)
    out += (out.empty() ? "" : ", ") + std::to_string(run.outputs[o].size(static_cast<int64_t>(d))) + " for " + run.label;
  return out;
}

}  // namespace

Result<std::vector<OutputRule>> fitOutputs(const std::vector<Observation>& runs) {
  std::vector<OutputRule> rules;
  for (size_t o = 0; o < runs[0].outputs.size(); ++o) {
    OutputRule rule;
    const int64_t rank = runs[0].outputs[o].dim();
    for (const auto& run : runs)
      if (run.outputs[o].dim() != rank)
        return invalidInput("output " + std::to_string(o) + " has rank " + std::to_string(rank) + " for " +
                            runs[0].label + " but " + std::to_string(run.outputs[o].dim()) + " for " + run.label);
    for (int64_t d = 0; d < rank; ++d) {
      std::vector<int64_t> ys;
      for (const auto& run : runs) ys.push_back(run.outputs[o].size(d));
      auto dim = fitDim(runs, ys);
      if (!dim)
        return invalidInput("output " + std::to_string(o) + " dim " + std::to_string(d) +
                            " is no simple expression of the input dims: " + sizesOf(runs, o, static_cast<size_t>(d)));
      rule.dims.push_back(*dim);
    }
    auto dtype = fitDtype(runs, o);
    if (!dtype) return invalidInput("output " + std::to_string(o) + "'s dtype changes from run to run");
    rule.dtype = *dtype;
    if (!fitLayout(rule, o, runs))
      return invalidInput("output " + std::to_string(o) + "'s strides follow no layout rule (contiguous, dense like an "
                          "input, a view of one): " + intListText(runs[0].outputs[o].strides()) + " for " + runs[0].label);
    rules.push_back(std::move(rule));
  }
  return rules;
}

std::string ruleDisagreement(const std::vector<OutputRule>& rules, const Observation& run) {
  for (size_t o = 0; o < rules.size(); ++o) {
    std::string diff = metaDisagreement(rules[o].apply(run.inputs), run.outputs[o]);
    if (!diff.empty()) return "output " + std::to_string(o) + " " + diff;
  }
  return "";
}

}  // namespace fathom::infer
