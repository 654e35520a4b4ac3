// `fathom probe --json`'s verdict (see the header): encoder and decoder side by side.
#include "engine/dump/ProbeVerdictJson.h"

#include <nlohmann/json.hpp>

namespace fathom {

std::string probeVerdictLine(const ProbeVerdict& v) {
  const nlohmann::ordered_json j = {{"file", v.file},         {"graph", v.graph}, {"predicate", v.predicate}, {"backend", v.backend},
                                    {"fails", v.fails},       {"what", v.what},   {"seconds", v.seconds},     {"isolated", v.isolated}};
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

Result<ProbeVerdict> parseProbeVerdict(std::string_view text) {
  const auto open = text.find('{');
  if (open == std::string_view::npos) return invalidInput("no verdict (no JSON object)");
  const nlohmann::json j = nlohmann::json::parse(text.substr(open), nullptr, false);
  if (!j.is_object()) return invalidInput("no verdict (not a JSON object)");
  auto fails = j.find("fails");
  if (fails == j.end() || !fails->is_boolean()) return invalidInput("no verdict (\"fails\" is not true or false)");
  ProbeVerdict v;
  v.fails = fails->get<bool>();
  auto text_ = [&](const char* key, std::string& out) {
    if (auto it = j.find(key); it != j.end() && it->is_string()) out = it->get<std::string>();
  };
  text_("file", v.file);
  text_("graph", v.graph);
  text_("predicate", v.predicate);
  text_("backend", v.backend);
  text_("what", v.what);
  if (auto it = j.find("seconds"); it != j.end() && it->is_number()) v.seconds = it->get<double>();
  if (auto it = j.find("isolated"); it != j.end() && it->is_boolean()) v.isolated = it->get<bool>();
  return v;
}

}  // namespace fathom
