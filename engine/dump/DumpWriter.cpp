// Writes dumps in canonical form: fixed key order, one node per line (diffable, compact), and
// values tagged exactly as DumpReader expects, so reading a written dump and writing it again
// reproduces the same bytes. Saving one with its side files is SideFiles.cpp's.
#include <nlohmann/json.hpp>

#include <cmath>

#include "engine/dump/Dump.h"
#include "engine/dump/PartitionJson.h"
#include "engine/dump/ShapeEnvJson.h"

namespace fathom {
namespace {

using json = nlohmann::ordered_json;

using dumpread::symIntJson;
using dumpread::symIntListJson;

json tensorMetaJson(const TensorMeta& m) {
  json j = json::object();
  j["dtype"] = dtypeName(m.dtype);
  j["sizes"] = symIntListJson(m.sizes);
  j["strides"] = symIntListJson(m.strides);
  j["offset"] = symIntJson(m.storageOffset);
  if (m.device != "cpu") j["device"] = m.device;
  if (m.requiresGrad) j["requires_grad"] = true;
  return j;
}

json valJson(const Value& v) {
  if (auto* m = v.tryAs<TensorMeta>()) return tensorMetaJson(*m);
  if (auto* s = v.tryAs<SymInt>()) return symIntJson(*s);
  if (auto* l = v.tryAs<ValueList>()) {
    json out = json::array();
    for (const auto& e : *l) out.push_back(valJson(e));
    return out;
  }
  return nullptr;
}

json tagged(const char* tag, std::string_view text) {
  json j = json::object();
  j[tag] = text;
  return j;
}

json argJson(const Value& v, const Graph& g) {
  struct Visitor {
    const Graph& g;
    json operator()(const None&) const { return nullptr; }
    json operator()(bool b) const { return b; }
    json operator()(const SymInt& i) const {
      json j = symIntJson(i);
      return j.is_string() ? tagged("sym", j.get<std::string>()) : j;
    }
    json operator()(double d) const {
      if (std::isnan(d)) return tagged("float", "nan");
      if (std::isinf(d)) return tagged("float", d > 0 ? "inf" : "-inf");
      return d;
    }
    json operator()(const std::string& s) const { return s; }
    json operator()(DType t) const { return tagged("dtype", dtypeName(t)); }
    json operator()(MemoryFormat f) const { return tagged("memory_format", memoryFormatName(f)); }
    json operator()(Layout) const { return tagged("layout", "strided"); }
    json operator()(const Device& d) const { return tagged("device", d.name); }
    json operator()(NodeRef r) const { return tagged("node", g.node(r).name); }
    json operator()(const Tensor&) const { return nullptr; }      // never stored in graphs
    json operator()(const TensorMeta&) const { return nullptr; }  // never stored in graphs
    json operator()(const ValueList& l) const {
      json out = json::array();
      for (const auto& e : l) out.push_back(argJson(e, g));
      return out;
    }
  };
  return std::visit(Visitor{g}, v.v);
}

json nodeJson(const Graph& g, const Node& n) {
  json j = json::object();
  j["name"] = n.name;
  j["kind"] = nodeKindName(n.kind);
  if (n.kind == NodeKind::Call) j["op"] = n.target;
  if (!n.args.empty()) {
    json args = json::array();
    for (const auto& a : n.args) args.push_back(argJson(a, g));
    j["args"] = std::move(args);
  }
  if (!n.kwargs.empty()) {
    json kwargs = json::object();
    for (const auto& [k, a] : n.kwargs) kwargs[k] = argJson(a, g);
    j["kwargs"] = std::move(kwargs);
  }
  json meta = json::object();
  if (!n.val.isNone()) meta["val"] = valJson(n.val);
  if (!n.provenance.source.empty()) meta["source"] = n.provenance.source;
  if (!n.provenance.module.empty()) meta["module"] = n.provenance.module;
  if (!n.stage.empty()) meta["stage"] = n.stage;
  if (!meta.empty()) j["meta"] = std::move(meta);
  return j;
}

json inputJson(const ExampleInput& in) {
  json j = json::object();
  j["name"] = in.name;
  if (in.integer) {
    j["int"] = *in.integer;
    return j;
  }
  // Named: items() of a temporary would dangle (range-for extends only the proxy's lifetime).
  const json meta = tensorMetaJson(in.meta);
  for (const auto& [k, v] : meta.items()) j[k] = v;
  if (in.seed) j["seed"] = *in.seed;
  if (in.range) j["range"] = json::array({in.range->first, in.range->second});
  if (in.file.present()) {
    j["file"] = in.file.name;
    j["file_offset"] = in.file.offset;
  } else if (!in.seed) {
    j["data"] = in.data;
  }
  return j;
}

std::string jsonQuoted(std::string_view s) { return json(s).dump(); }

// "[\n<indent>  item,\n...<indent>]" with each item on one line.
template <class Items, class Fn>
void writeLines(std::string& out, const Items& items, const std::string& indent, Fn&& itemText) {
  out += "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ",\n" : "\n") + indent + "  " + itemText(items[i]);
  out += items.empty() ? "]" : "\n" + indent + "]";
}

}  // namespace

std::string serializeDump(const Dump& dump) {
  std::string out = "{\n  \"format\": " + jsonQuoted(kDumpFormat) + ",\n  \"version\": " + std::to_string(kDumpVersion);
  if (!dump.producer.empty()) {
    json producer = json::object();
    for (const auto& [k, v] : dump.producer) producer[k] = v;
    out += ",\n  \"producer\": " + producer.dump();
  }
  if (dump.shapeEnv) out += ",\n  \"shape_env\": " + dumpread::shapeEnvText(*dump.shapeEnv, "  ");
  out += ",\n  \"graphs\": {";
  for (size_t gi = 0; gi < dump.graphs.size(); ++gi) {
    // Not a structured binding: clang before 16 cannot capture one in the lambda below.
    const Graph& graph = dump.graphs[gi].graph;
    out += (gi ? ",\n    " : "\n    ") + jsonQuoted(dump.graphs[gi].name) + ": {\n      \"nodes\": ";
    writeLines(out, graph.nodes(), "      ", [&](const Node& n) { return nodeJson(graph, n).dump(); });
    out += "\n    }";
  }
  out += "\n  }";
  if (!dump.inputs.empty()) {
    out += ",\n  \"inputs\": {";
    for (size_t i = 0; i < dump.inputs.size(); ++i) {
      out += (i ? ",\n    " : "\n    ") + jsonQuoted(dump.inputs[i].first) + ": ";
      writeLines(out, dump.inputs[i].second, "    ", [](const ExampleInput& in) { return inputJson(in).dump(); });
    }
    out += "\n  }";
  }
  if (!dump.outputs.empty()) {
    out += ",\n  \"outputs\": {";
    for (size_t i = 0; i < dump.outputs.size(); ++i) {
      out += (i ? ",\n    " : "\n    ") + jsonQuoted(dump.outputs[i].first) + ": ";
      writeLines(out, dump.outputs[i].second, "    ", [](const std::optional<ExampleInput>& o) {
        return o ? inputJson(*o).dump() : std::string("null");
      });
    }
    out += "\n  }";
  }
  if (dump.partition) out += ",\n  \"partition\": " + dumpread::partitionText(*dump.partition, "  ");
  if (dump.repro) {
    json r = {{"graph", dump.repro->graph}, {"predicate", dump.repro->predicate}, {"backend", dump.repro->backend}};
    if (!dump.repro->options.empty()) {
      r["options"] = json::object();
      for (const auto& [k, v] : dump.repro->options) r["options"][k] = v;
    }
    out += ",\n  \"repro\": " + r.dump();
  }
  out += "\n}\n";
  return out;
}

std::string serializeInputs(const std::vector<ExampleInput>& inputs) {
  std::string out = "{\n  \"format\": \"fathom-inputs\",\n  \"version\": 1,\n  \"inputs\": ";
  writeLines(out, inputs, "  ", [](const ExampleInput& in) { return inputJson(in).dump(); });
  return out + "\n}\n";
}

}  // namespace fathom
