#include "minifier/Cut.h"

#include <algorithm>
#include <functional>

namespace fathom::minify {

void normalizeInputs(Cut& cut) {
  std::sort(cut.inputs.begin(), cut.inputs.end());
  cut.inputs.erase(std::unique(cut.inputs.begin(), cut.inputs.end()), cut.inputs.end());
}

std::string cutKey(const Cut& cut) {
  std::string key;
  for (int32_t i : cut.inputs) key += std::to_string(i) + ",";
  key += "|";
  std::function<void(const Value&)> add = [&](const Value& v) {
    if (auto* r = v.tryAs<NodeRef>()) key += std::to_string(r->index) + ",";
    else if (auto* l = v.tryAs<ValueList>()) {
      key += "[";
      for (const auto& e : *l) add(e);
      key += "]";
    } else {
      key += "c,";
    }
  };
  for (const auto& v : cut.outputs) add(v);
  for (const auto& [name, v] : cut.sizes) key += "|" + name + "=" + std::to_string(v);
  for (const auto& [at, v] : cut.constants) key += "|c" + std::to_string(at.first) + "." + std::to_string(at.second) + "=" + std::to_string(v);
  for (const auto& [from, to] : cut.merged) key += "|m" + std::to_string(from) + ">" + std::to_string(to);
  return key;
}

}  // namespace fathom::minify
