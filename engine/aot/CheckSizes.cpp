// Sizes other than traced, resized inputs and the guards that refuse them (see CheckSizes.h).
#include "engine/aot/CheckSizes.h"

#include <sstream>

#include "engine/graph/GraphBuilder.h"
#include "engine/graph/GraphGuards.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/symbolic/GuardSet.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::aot {
namespace {

const char* const kExample = " (e.g. s0=8,s1=64 or input_ids=8x64)";

std::vector<std::string> items(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::optional<int64_t> parseCount(const std::string& text) {
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stoll(text);
}

// "s0=8,s1=64" -> {s0: 8, s1: 64}.
Result<std::map<std::string, int64_t>> parseSymbolValues(const std::string& text, const std::string& label) {
  std::map<std::string, int64_t> out;
  for (const std::string& item : items(text)) {
    const auto eq = item.find('=');
    const auto v = eq == std::string::npos ? std::nullopt : parseCount(item.substr(eq + 1));
    if (eq == std::string::npos || eq == 0) return invalidInput(label + ": '" + item + "' is not SYMBOL=SIZE (e.g. s0=8)");
    if (!v) return invalidInput(label + ": '" + item + "' is not SYMBOL=SIZE with a size >= 0");
    out[item.substr(0, eq)] = *v;
  }
  if (out.empty()) return invalidInput(label + ": nothing given (e.g. " + label + " s0=8,s1=64)");
  return out;
}

// "input_ids=4x64" items -> {input_ids: [4, 64]}.
Result<std::map<std::string, IntList>> parseInputSizes(const std::string& text, const std::string& label) {
  std::map<std::string, IntList> out;
  for (const std::string& item : items(text)) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) return invalidInput(label + ": '" + item + "' is not NAME=SIZES" + kExample);
    IntList dims;
    std::stringstream ds(item.substr(eq + 1));
    for (std::string d; std::getline(ds, d, 'x');) {
      auto v = parseCount(d);
      if (!v) return invalidInput(label + ": '" + item + "': sizes are AxBxC with integers >= 0" + kExample);
      dims.push_back(*v);
    }
    out[item.substr(0, eq)] = std::move(dims);
  }
  if (out.empty()) return invalidInput(label + ": nothing given" + kExample);
  return out;
}

// Placeholder sizes given by name: those inputs take them, and each recorded dimension that is
// exactly a symbol binds it (the first one wins; the guards judge the rest).
Result<std::vector<ExampleInput>> resizeNamedInputs(const Dump& dump, const Graph& g, std::vector<ExampleInput> inputs,
                                                    const std::map<std::string, IntList>& given, const std::string& label) {
  const auto placeholders = g.placeholders();
  std::map<std::string, int64_t> symbols;
  std::map<size_t, IntList> named;
  for (const auto& [name, dims] : given) {
    size_t i = 0;
    while (i < placeholders.size() && i < inputs.size() && inputs[i].name != name && g.node(placeholders[i]).name != name) ++i;
    if (dump.shapeEnv && dump.shapeEnv->symbolIndex(name))
      return invalidInput(label + ": give symbol values or input sizes, not both" + kExample);
    if (i >= placeholders.size() || i >= inputs.size())
      return invalidInput(label + ": '" + name + "' is neither a symbol of the trace nor an input of this graph" +
                          (dump.shapeEnv ? "" : " (a static trace has no symbols)"));
    named[i] = dims;
    const auto* m = g.node(placeholders[i]).val.tryAs<TensorMeta>();
    if (!m || m->dim() != static_cast<int64_t>(dims.size())) continue;  // the rank check refuses it below
    for (size_t d = 0; d < dims.size(); ++d)
      if (auto s = m->sizes[d].isSymbolic() ? sym::exprOf(m->sizes[d]).asSymbol() : std::nullopt)
        symbols.emplace(sym::symbolName(*s), dims[d]);
  }
  if (dump.shapeEnv) {
    const auto& all = dump.shapeEnv->symbols();
    for (size_t i = 0; i < all.size(); ++i) symbols.emplace(sym::symbolName(static_cast<int32_t>(i)), all[i].hint);
    auto resized = resizeInputs(g, std::move(inputs), symbols);
    if (!resized.ok()) return resized.error().within(label);
    inputs = std::move(*resized);
  }
  for (const auto& [i, dims] : named) {
    ExampleInput& in = inputs[i];
    if (!in.seed) in.seed = i + 1, in.data.clear(), in.file = {};
    in.meta = fakeTensor(in.meta.dtype, {dims.begin(), dims.end()});
  }
  return inputs;
}

}  // namespace

Result<std::map<std::string, int64_t>> symbolSizes(const sym::ShapeEnv& env, const std::string& text, const std::string& label) {
  auto given = parseSymbolValues(text, label);
  FATHOM_TRY(given);
  for (const auto& [symbol, value] : *given) {
    const auto index = env.symbolIndex(symbol);
    if (!index) return invalidInput(label + ": the dump has no symbol " + symbol);
    // A replaced symbol no longer stands for a free size: binding it would be silently ignored.
    if (auto it = env.replacements().find(*index); it != env.replacements().end())
      return invalidInput(label + ": " + symbol + " was replaced by " + it->second.str() +
                          " when traced (shape_env replacements), so it cannot take another size");
  }
  const auto& symbols = env.symbols();
  for (size_t i = 0; i < symbols.size(); ++i) given->emplace(sym::symbolName(static_cast<int32_t>(i)), symbols[i].hint);
  return given;
}

Status checkSizeGuards(const Dump& dump, const Graph& g, const std::vector<ExampleInput>& inputs) {
  // Static sizes must be the recorded ones.
  const auto placeholders = g.placeholders();
  for (size_t i = 0; i < placeholders.size() && i < inputs.size(); ++i) {
    const auto* m = g.node(placeholders[i]).val.tryAs<TensorMeta>();
    if (!m || m->dim() != inputs[i].meta.dim()) continue;
    for (size_t d = 0; d < m->sizes.size(); ++d)
      if (!m->sizes[d].isSymbolic() && m->sizes[d].hint() != inputs[i].meta.sizes[d].hint())
        return invalidInput("input '" + inputs[i].name + "' has sizes " + inputs[i].meta.str() + " but %" +
                            g.node(placeholders[i]).name + " was recorded as " + m->str());
  }
  if (!dump.shapeEnv) return {};
  auto guards = guardSetOf(g, *dump.shapeEnv);
  if (!guards.ok()) return {};  // placeholders without meta: nothing to guard
  const auto failures = guards->failures(inputSizes(inputs));
  if (failures.empty()) return {};
  const auto& f = failures.front();
  std::string where = f.where.node.empty() ? "" : " (from %" + f.where.node + " = " + f.where.op +
                                                     (f.where.source.empty() ? "" : " at " + f.where.source) + ")";
  return invalidInput("these sizes do not satisfy the dump's guards: " + f.expr + " fails with " + f.actual + where +
                      (failures.size() > 1 ? "; " + std::to_string(failures.size() - 1) + " more fail" : ""));
}

Result<std::vector<ExampleInput>> inputsAtSizes(const Dump& dump, const Graph& g, std::vector<ExampleInput> inputs,
                                                const std::string& text, const std::string& label) {
  const std::vector<std::string> given = items(text);
  const bool bySymbol = dump.shapeEnv && !given.empty() &&
                        dump.shapeEnv->symbolIndex(given.front().substr(0, given.front().find('='))).has_value();
  if (bySymbol) {
    auto symbols = symbolSizes(*dump.shapeEnv, text, label);
    FATHOM_TRY(symbols);
    auto resized = resizeInputs(g, std::move(inputs), *symbols);
    if (!resized.ok()) return resized.error().within(label);
    inputs = std::move(*resized);
  } else {
    auto sizes = parseInputSizes(text, label);
    FATHOM_TRY(sizes);
    auto resized = resizeNamedInputs(dump, g, std::move(inputs), *sizes, label);
    FATHOM_TRY(resized);
    inputs = std::move(*resized);
  }
  FATHOM_TRY(checkSizeGuards(dump, g, inputs));
  return inputs;
}

}  // namespace fathom::aot
