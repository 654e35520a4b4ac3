// The `--explain` sizes text (see ExplainSizesText.h).
#include "engine/symbolic/ExplainSizesText.h"

#include <optional>
#include <sstream>

namespace fathom::sym {
namespace {

const char* const kExample = " (e.g. s0=4,s1=64 or input_ids=4x64,attention_mask=4x64)";

std::optional<int64_t> parseCount(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 18) return std::nullopt;
  return std::stoll(text);
}

// "4x64" -> {4, 64}; `item` is the whole NAME=SIZES, for the message.
Result<std::vector<int64_t>> parseDims(const std::string& value, const std::string& item) {
  std::vector<int64_t> dims;
  std::stringstream ds(value);
  std::string d;
  while (std::getline(ds, d, 'x')) {
    auto v = parseCount(d);
    if (!v) return invalidInput("--explain: '" + item + "': sizes are AxBxC with integers >= 0" + kExample);
    dims.push_back(*v);
  }
  if (dims.empty()) return invalidInput("--explain: '" + item + "' gives no sizes" + kExample);
  return dims;
}

// One NAME=VALUE item, into `out`: a symbol's value, or an input's sizes.
Status parseItem(const std::string& item, const ShapeEnv& env, ExplainSizes& out) {
  const size_t eq = item.find('=');
  if (eq == std::string::npos || eq == 0) return invalidInput("--explain: '" + item + "' is not NAME=SIZE" + kExample);
  const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
  if (auto symbol = env.symbolIndex(name)) {
    auto v = parseCount(value);
    if (!v) return invalidInput("--explain: '" + item + "': a symbol's value is a size >= 0");
    out.symbols[*symbol] = *v;
    return {};
  }
  auto dims = parseDims(value, item);
  FATHOM_TRY(dims);
  out.inputs[name] = std::move(*dims);
  return {};
}

}  // namespace

Result<ExplainSizes> parseExplainSizes(const std::string& text, const ShapeEnv& env, const std::vector<GuardedInput>& traced) {
  ExplainSizes out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ','))
    if (auto parsed = parseItem(item, env, out); !parsed.ok()) return parsed.error();
  if (out.symbols.empty() && out.inputs.empty()) return invalidInput(std::string("--explain: nothing given") + kExample);
  if (!out.symbols.empty() && !out.inputs.empty())
    return invalidInput(std::string("--explain: give symbol values or input sizes, not both") + kExample);
  for (const auto& [name, dims] : out.inputs)
    if (!isExplainableInput(env, traced, name))
      return invalidInput("--explain: '" + name + "' is neither a symbol nor an input this trace read sizes from");
  return out;
}

}  // namespace fathom::sym
