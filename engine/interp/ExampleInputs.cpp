#include "engine/interp/ExampleInputs.h"

#include "engine/ops/cpu/Copy.h"

#include "engine/graph/GraphBuilder.h"
#include "engine/symbolic/ShapeEnv.h"

#include <cmath>
#include <fstream>

namespace fathom {
namespace {

// splitmix64: tiny, fast, and identical everywhere.
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double normal() {  // Box-Muller
    double u1 = uniform(), u2 = uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
};

double drawOne(Rng& rng, const ExampleInput& in) {
  const DType t = in.meta.dtype;
  if (t == DType::Bool) return rng.next() & 1;
  if (isFloating(t)) {
    if (in.range) return in.range->first + (in.range->second - in.range->first) * rng.uniform();
    return rng.normal();
  }
  const double lo = in.range ? std::ceil(in.range->first) : 0, hi = in.range ? in.range->second : 10;
  const double span = std::max(1.0, std::ceil(hi - lo));
  return lo + std::floor(rng.uniform() * span);
}

// Copies the side file's bytes (row-major logical order, little-endian: what the exporter wrote)
// into `t`, which has the input's own layout.
Status fillFromFile(Tensor& t, const ExampleInput& in) {
  const size_t bytes = static_cast<size_t>(t.numel()) * elementSize(t.dtype());
  std::ifstream f(in.file.path, std::ios::binary);
  if (!f) return invalidInput("cannot open side file '" + in.file.path + "' for input '" + in.name + "'");
  f.seekg(static_cast<std::streamoff>(in.file.offset));
  if (t.isContiguous()) {
    f.read(static_cast<char*>(t.data()), static_cast<std::streamsize>(bytes));
  } else {  // row-major bytes into the input's own layout: one strided copy, not an element loop
    std::vector<std::byte> buffer(bytes);
    f.read(reinterpret_cast<char*>(buffer.data()), static_cast<std::streamsize>(bytes));
    const IntList rowMajor = contiguousStrides(t.sizes());
    IntList byteStrides;
    for (int64_t s : rowMajor) byteStrides.push_back(s * static_cast<int64_t>(elementSize(t.dtype())));
    copyStridedInto(t, buffer.data(), byteStrides, t.dtype());
  }
  if (static_cast<size_t>(f.gcount()) != bytes)
    return invalidInput("side file '" + in.file.path + "' ended before the " + std::to_string(bytes) + " bytes of input '" +
                        in.name + "' at offset " + std::to_string(in.file.offset));
  return {};
}

}  // namespace

Result<Tensor> materializeInput(const ExampleInput& in) {
  if (in.integer) return invalidInput("input '" + in.name + "' is an integer (a SymInt placeholder's), not a tensor");
  auto t = Tensor::fromMeta(in.meta);
  if (!t.ok()) return t.error().within("input '" + in.name + "'");
  if (in.file.present()) {
    FATHOM_TRY(fillFromFile(*t, in));
  } else if (in.seed) {
    Rng rng{*in.seed};
    for (int64_t k = 0; k < t->numel(); ++k) t->setLinear(k, drawOne(rng, in));
  } else {
    for (int64_t k = 0; k < t->numel(); ++k) t->setLinear(k, in.data[static_cast<size_t>(k)]);
  }
  return t;
}

Result<ValueList> materializeInputs(const std::vector<ExampleInput>& inputs, std::optional<uint64_t> seedOverride) {
  ValueList out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    // Only a reseeded input is copied (inline values can be large: a minifier's cut values).
    const ExampleInput* in = &inputs[i];
    if (in->integer) {  // a SymInt placeholder: its number
      out.push_back(Value(SymInt(*in->integer)));
      continue;
    }
    ExampleInput reseeded;
    if (in->seed && seedOverride) {
      reseeded = *in;
      reseeded.seed = Rng{*seedOverride + 0x51ed27ULL * (i + 1)}.next();
      in = &reseeded;
    }
    auto t = materializeInput(*in);
    FATHOM_TRY(t);
    out.push_back(std::move(*t));
  }
  return out;
}

Result<std::vector<ExampleInput>> inputsFromPlaceholders(const Graph& graph, uint64_t seed) {
  std::vector<ExampleInput> out;
  for (NodeRef r : graph.placeholders()) {
    const Node& n = graph.node(r);
    ExampleInput in;
    in.name = n.name;
    if (n.val.isInt()) {  // a SymInt placeholder takes its traced value
      in.integer = n.val.as<SymInt>().hint();
      out.push_back(std::move(in));
      continue;
    }
    auto* m = n.val.tryAs<TensorMeta>();
    if (!m) return invalidInput("placeholder has no tensor meta to draw an example input from", "%" + n.name);
    // Symbolic sizes are drawn at their hints (the sizes the trace saw).
    TensorMeta concrete = *m;
    for (auto* list : {&concrete.sizes, &concrete.strides})
      for (auto& s : *list) s = SymInt(s.hint());
    concrete.storageOffset = SymInt(concrete.storageOffset.hint());
    in.meta = concrete;
    in.seed = seed + out.size();
    out.push_back(std::move(in));
  }
  return out;
}

Result<std::vector<ExampleInput>> chooseInputs(const Graph* g, const std::string& graphName,
                                               const std::vector<ExampleInput>* recorded,
                                               const std::vector<ExampleInput>* fromFile) {
  if (!g) return invalidInput("the dump has no graph named '" + graphName + "'");
  if (fromFile) {
    auto ph = g->placeholders();
    if (fromFile->size() != ph.size())
      return invalidInput("inputs file has " + std::to_string(fromFile->size()) + " inputs but graph '" +
                          graphName + "' has " + std::to_string(ph.size()) + " placeholders");
    for (size_t i = 0; i < ph.size(); ++i) {
      auto* m = g->node(ph[i]).val.tryAs<TensorMeta>();
      const auto& in = (*fromFile)[i];
      if (m && (m->dtype != in.meta.dtype || m->dim() != in.meta.dim()))
        return invalidInput("input '" + in.name + "' is " + in.meta.str() + " but %" + g->node(ph[i]).name +
                            " expects " + m->str());
    }
    return *fromFile;
  }
  if (recorded) return *recorded;
  return inputsFromPlaceholders(*g, 0);
}

Result<std::vector<ExampleInput>> resizeInputs(const Graph& g, std::vector<ExampleInput> inputs,
                                               const std::map<std::string, int64_t>& symbols) {
  const auto placeholders = g.placeholders();
  for (size_t i = 0; i < placeholders.size() && i < inputs.size(); ++i) {
    const Node& n = g.node(placeholders[i]);
    auto valueOf = [&](const SymInt& s) {
      return sym::evaluate(sym::exprOf(s), [&](int32_t index) -> std::optional<int64_t> {
        auto it = symbols.find(sym::symbolName(index));
        if (it == symbols.end()) return std::nullopt;
        return it->second;
      });
    };
    if (n.val.isInt() && inputs[i].integer) {  // a SymInt placeholder: its new value
      auto v = valueOf(n.val.as<SymInt>());
      if (!v.ok()) return invalidInput("%" + n.name + " is " + n.val.as<SymInt>().str() + ", which needs a value for every symbol in it");
      inputs[i].integer = *v;
      continue;
    }
    const auto* m = n.val.tryAs<TensorMeta>();
    if (!m) continue;
    IntList sizes;
    for (const auto& s : m->sizes) {
      auto v = valueOf(s);
      if (!v.ok()) return invalidInput("%" + n.name + " has size " + s.str() + ", which needs a value for every symbol in it");
      sizes.push_back(*v);
    }
    ExampleInput& in = inputs[i];
    IntList old;
    for (const auto& s : in.meta.sizes) old.push_back(s.hint());
    if (old == sizes) continue;
    // Recorded values (inline or in a side file) do not fit the new sizes: draw seeded ones.
    if (!in.seed) {
      in.seed = i + 1;
      in.data.clear();
      in.file = {};
    }
    in.meta = fakeTensor(m->dtype, {sizes.begin(), sizes.end()});
  }
  return inputs;
}

}  // namespace fathom
