#include "engine/dump/VerdictJson.h"

#include <nlohmann/json.hpp>

#include "engine/interp/RecordedComparison.h"

namespace fathom {
namespace {

nlohmann::ordered_json verdictJson(const OutputVerdict& v) {
  nlohmann::ordered_json j = {{"index", v.index}, {"name", v.name}, {"rule", outputRuleName(v.rule)}, {"ok", v.ok},
                              {"max_abs_diff", v.diff.maxAbsDiff}, {"scale", v.diff.scale}};
  if (v.rule == OutputRule::Allclose || v.rule == OutputRule::Float64) {
    j["error"] = v.accuracy.error;
    j["reference_error"] = v.accuracy.referenceError;
    j["allowed"] = v.accuracy.allowed;
  }
  if (v.rule == OutputRule::MaxIndex) j["indices_differing"] = v.indicesDiffering;
  j["dtype_match"] = v.diff.dtypeMatch;
  j["sizes_match"] = v.diff.sizesMatch;
  j["strides_match"] = v.diff.stridesMatch;
  j["random"] = v.rule == OutputRule::Random;
  if (!v.note.empty()) j["note"] = v.note;
  return j;
}

}  // namespace

nlohmann::ordered_json verdictsJson(const std::vector<OutputVerdict>& verdicts) {
  auto list = nlohmann::ordered_json::array();
  size_t bad = 0;
  for (const auto& v : verdicts) {
    bad += v.ok ? 0 : 1;
    list.push_back(verdictJson(v));
  }
  return {{"compared", verdicts.size()}, {"mismatches", bad}, {"outputs", std::move(list)}};
}

}  // namespace fathom
