// Reads and validates dump files: the document and graph level (the per-value readers are in
// DumpValueReader.cpp). Every check reports the JSON pointer of the offending value; the first
// problem ends the read (one clear line is what a user can act on).
//
// parseDump first tries the streaming reader (DumpStreamReader.h), which handles valid dumps
// without building the whole document's DOM; anything it does not accept is read again here
// from a DOM, and this reader alone decides which problem is reported, so errors do not depend
// on which path ran.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>

#include "engine/dump/DumpImporters.h"
#include "engine/dump/Dump.h"
#include "engine/dump/DumpStreamReader.h"
#include "engine/dump/DumpValueReader.h"
#include "engine/dump/JsonEvents.h"
#include "engine/dump/JsonText.h"
#include "engine/dump/PartitionJson.h"
#include "engine/dump/ShapeEnvJson.h"

namespace fathom {
namespace {

using namespace dumpread;

// Turns the graph object at `ptr` into a verified Graph; the DOM and streaming paths differ only
// in where the nodes come from.
using GraphReader = std::function<Graph(const json& graph, const Ptr& ptr, const std::string& name)>;

const json& requireNodes(const json& j, const Ptr& ptr) {
  requireObject(j, ptr);
  onlyKeys(j, ptr, {"nodes"});
  const json& nodes = requireKey(j, ptr, "nodes");
  requireArray(nodes, child(ptr, "nodes"));
  return nodes;
}

// Runs verify(); its error points at the node by JSON pointer as well as by name.
void verifyGraph(const Graph& g, const Ptr& ptr, const NameIndex& names) {
  auto status = g.verify();
  if (status.ok()) return;
  const Ptr nodesPtr = child(ptr, "nodes");
  std::string where = ptr.str();
  const std::string& w = status.error().where;
  if (w.size() > 1 && w[0] == '%') {
    if (auto it = names.find(std::string_view(w).substr(1)); it != names.end())
      where = child(nodesPtr, static_cast<size_t>(it->second)).str() + " (" + w + ")";
  }
  throw ReadError{where, status.error().message};
}

Graph readGraph(const json& j, const Ptr& ptr, bool keepUnknownOps) {
  const json& nodes = requireNodes(j, ptr);
  const Ptr nodesPtr = child(ptr, "nodes");

  // Names first, so references to later nodes resolve and verify() can explain them.
  NameIndex names;
  names.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Ptr p = child(nodesPtr, i);
    const std::string& name = readNodeName(nodes[i], p);
    auto [it, fresh] = names.emplace(name, static_cast<int32_t>(i));
    if (!fresh) fail(child(p, "name"), "duplicate node name '" + name + "' (first at " + child(nodesPtr, static_cast<size_t>(it->second)).str() + ")");
  }

  Graph g;
  g.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) g.append(readNode(nodes[i], child(nodesPtr, i), names, keepUnknownOps));
  verifyGraph(g, ptr, names);
  return g;
}

// The inputs of a graph must match its placeholders: count, dtype and rank. A recorded input
// (values from the producer's real run) may have another dtype than the trace declared: that is
// PyTorch's fake tensor disagreeing with its real one (torch 2.11 declares float32 for the float64
// logsumexp of CPU flash attention), which `fathom check` reports at the placeholder.
void checkInputsMatch(const Graph& g, const std::vector<ExampleInput>& inputs, const Ptr& ptr) {
  auto ph = g.placeholders();
  if (ph.size() != inputs.size())
    fail(ptr, "has " + std::to_string(inputs.size()) + " inputs but the graph has " + std::to_string(ph.size()) + " placeholders");
  for (size_t i = 0; i < ph.size(); ++i) {
    const Node& n = g.node(ph[i]);
    auto* m = n.val.tryAs<TensorMeta>();
    const Ptr p = child(ptr, i);
    if (n.val.isInt() && !inputs[i].integer)
      fail(p, "%" + n.name + " is a SymInt (" + n.val.as<SymInt>().str() + "): its input is {\"name\", \"int\"}");
    if (m && inputs[i].integer) fail(child(p, "int"), "an integer input for tensor placeholder %" + n.name);
    if (!m) continue;
    const bool recorded = !inputs[i].seed.has_value();
    if (m->dtype != inputs[i].meta.dtype && !recorded)
      fail(child(p, "dtype"), "input dtype " + std::string(dtypeName(inputs[i].meta.dtype)) + " does not match %" + n.name + " (" + std::string(dtypeName(m->dtype)) + ")");
    if (m->dim() != inputs[i].meta.dim())
      fail(child(p, "sizes"), "input has " + std::to_string(inputs[i].meta.dim()) + " dims but %" + n.name + " has " + std::to_string(m->dim()));
  }
}

// The recorded outputs of a graph must match its output node's count.
void checkOutputsMatch(const Graph& g, const std::vector<std::optional<ExampleInput>>& outputs, const Ptr& ptr) {
  const Node* out = g.outputNode();
  const auto* list = out && !out->args.empty() ? out->args[0].tryAs<ValueList>() : nullptr;
  const size_t count = list ? list->size() : 1;
  if (outputs.size() != count)
    fail(ptr, "has " + std::to_string(outputs.size()) + " recorded outputs but the graph returns " + std::to_string(count));
}

// `label`'s folder: where side files named in the dump are looked for.
std::string folderOf(const std::string& label) { return std::filesystem::path(label).parent_path().string(); }
SideFileRoot sideFileRoot(const std::string& label, const DumpReadOptions& options) { return {folderOf(label), options.trustPaths}; }

ReproSpec readRepro(const json& j, const Ptr& ptr, const Dump& dump) {
  requireObject(j, ptr);
  onlyKeys(j, ptr, {"graph", "predicate", "backend", "options"});
  ReproSpec r;
  r.graph = requireString(requireKey(j, ptr, "graph"), child(ptr, "graph"));
  if (!dump.graph(r.graph)) fail(child(ptr, "graph"), "names graph '" + r.graph + "', which the dump does not have");
  r.predicate = requireString(requireKey(j, ptr, "predicate"), child(ptr, "predicate"));
  if (r.predicate.empty()) fail(child(ptr, "predicate"), "is empty");
  if (auto it = j.find("backend"); it != j.end()) r.backend = requireString(*it, child(ptr, "backend"));
  if (auto it = j.find("options"); it != j.end()) {
    const Ptr p = child(ptr, "options");
    requireObject(*it, p);
    for (auto kv = it->begin(); kv != it->end(); ++kv) r.options.emplace_back(kv.key(), requireString(kv.value(), child(p, kv.key())));
  }
  return r;
}

Dump readDocument(const json& doc, const GraphReader& readGraphAt, const SideFileRoot& sideFiles) {
  requireObject(doc, "");
  onlyKeys(doc, "", {"format", "version", "producer", "shape_env", "graphs", "inputs", "outputs", "partition", "repro"});
  const std::string& format = requireString(requireKey(doc, "", "format"), "/format");
  if (format != kDumpFormat) fail("/format", "expected \"fathom-dump\" but found \"" + format + "\"");
  const int64_t version = readInt(requireKey(doc, "", "version"), "/version");
  if (version != kDumpVersion)
    fail("/version", "unsupported version " + std::to_string(version) + " (this build reads version " + std::to_string(kDumpVersion) + ")");

  Dump dump;
  const Ptr producerPtr = "/producer", graphsPtr = "/graphs", inputsPtr = "/inputs", outputsPtr = "/outputs";
  if (auto it = doc.find("producer"); it != doc.end()) {
    requireObject(*it, "/producer");
    for (auto kv = it->begin(); kv != it->end(); ++kv)
      dump.producer.emplace_back(kv.key(), requireString(kv.value(), child(producerPtr, kv.key())));
  }
  // The ops follow the PyTorch that wrote the dump (AtenVersion.h), before any graph is read.
  setAtenVersion(producerTorchVersion(dump).value_or(AtenVersion{}));
  // The symbols come first: the graphs' symbolic sizes are read against them.
  if (auto it = doc.find("shape_env"); it != doc.end()) dump.shapeEnv = readShapeEnv(*it, "/shape_env");
  ShapeEnvScope scope(dump.shapeEnv.get());
  const json& graphs = requireKey(doc, "", "graphs");
  requireObject(graphs, "/graphs");
  if (graphs.empty()) fail("/graphs", "a dump needs at least one graph");
  for (auto kv = graphs.begin(); kv != graphs.end(); ++kv)
    dump.graphs.push_back({kv.key(), readGraphAt(kv.value(), child(graphsPtr, kv.key()), kv.key())});
  if (auto it = doc.find("inputs"); it != doc.end()) {
    requireObject(*it, "/inputs");
    for (auto kv = it->begin(); kv != it->end(); ++kv) {
      const Ptr p = child(inputsPtr, kv.key());
      const Graph* g = dump.graph(kv.key());
      if (!g) fail(p, "inputs for graph '" + kv.key() + "', which the dump does not have");
      auto inputs = readInputList(kv.value(), p, sideFiles);
      checkInputsMatch(*g, inputs, p);
      dump.inputs.emplace_back(kv.key(), std::move(inputs));
    }
  }
  if (auto it = doc.find("outputs"); it != doc.end()) {
    requireObject(*it, "/outputs");
    for (auto kv = it->begin(); kv != it->end(); ++kv) {
      const Ptr p = child(outputsPtr, kv.key());
      const Graph* g = dump.graph(kv.key());
      if (!g) fail(p, "recorded outputs for graph '" + kv.key() + "', which the dump does not have");
      auto outputs = readOutputList(kv.value(), p, sideFiles);
      checkOutputsMatch(*g, outputs, p);
      dump.outputs.emplace_back(kv.key(), std::move(outputs));
    }
  }
  if (auto it = doc.find("partition"); it != doc.end()) dump.partition = readPartition(*it, "/partition", dump);
  if (auto it = doc.find("repro"); it != doc.end()) dump.repro = readRepro(*it, "/repro", dump);
  return dump;
}

}  // namespace

std::optional<AtenVersion> producerTorchVersion(const Dump& dump) {
  for (const auto& [key, value] : dump.producer)
    if (key == "torch") return parseTorchVersion(value);
  return std::nullopt;
}

const Graph* Dump::graph(std::string_view name) const {
  for (const auto& g : graphs)
    if (g.name == name) return &g.graph;
  return nullptr;
}

const std::vector<ExampleInput>* Dump::inputsFor(std::string_view graphName) const {
  for (const auto& [name, inputs] : inputs)
    if (name == graphName) return &inputs;
  return nullptr;
}

const std::vector<std::optional<ExampleInput>>* Dump::outputsFor(std::string_view graphName) const {
  for (const auto& [name, list] : outputs)
    if (name == graphName) return &list;
  return nullptr;
}

namespace {

// Parses JSON text into a document, or an error with line and column. `parsed`: the same text
// already parsed by simdjson (with options.maxDepth), or null to parse it here.
Result<json> parseJson(std::string_view text, const std::string& label, const DumpReadOptions& options,
                       const dumpread::ParsedJson* parsed = nullptr) {
  std::optional<dumpread::ParsedJson> own;
  if (!parsed) parsed = &own.emplace(text, options.maxDepth);
  json doc;
  if (parsed->buildDom(doc)) return doc;
  // simdjson refused it (too deep, a syntax error, or something rare it reads differently): the
  // depth check and nlohmann decide, and name line and column.
  if (auto depth = checkJsonDepth(text, options.maxDepth); !depth.ok()) return invalidInput(depth.error().message, label);
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    return invalidInput(describeJsonParseError(text, e.byte, e.what()), label);
  } catch (const json::exception& e) {
    return invalidInput(sanitizeForTerminal(e.what()), label);
  }
}

// The streaming path: the graphs were read while parsing; only their verify() is left.
std::optional<Dump> readStreamed(StreamedDump& streamed, const SideFileRoot& sideFiles) {
  try {
    return readDocument(streamed.skeleton, [&](const json& j, const Ptr& ptr, const std::string& name) {
      requireNodes(j, ptr);
      Graph* g = streamed.graph(name);
      if (!g || !g->verify().ok()) fail(ptr, "left to the DOM reader");
      return std::move(*g);
    }, sideFiles);
  } catch (const ReadError&) {
    return std::nullopt;  // the DOM reader finds and reports the first problem
  }
}

}  // namespace

Result<Dump> parseDump(std::string_view text, const std::string& label, const DumpReadOptions& options) {
  // Parsed once: symbolic dumps (a shape_env) make the streaming reader give up, and the DOM
  // reader, which reads the shape_env before the graphs, walks the same parse.
  const dumpread::ParsedJson parsed(text, options.maxDepth);
  if (auto streamed = dumpread::streamDump(parsed)) {
    if (auto dump = readStreamed(*streamed, sideFileRoot(label, options))) return std::move(*dump);
  }
  return dumpread::parseDumpDomOnly(text, label, options, &parsed);
}

Result<Dump> dumpread::parseDumpDomOnly(std::string_view text, const std::string& label, const DumpReadOptions& options,
                                        const ParsedJson* parsed) {
  auto doc = parseJson(text, label, options, parsed);
  FATHOM_TRY(doc);
  try {
    return readDocument(*doc, [&](const json& j, const Ptr& ptr, const std::string&) {
      return readGraph(j, ptr, options.keepUnknownOps);
    }, sideFileRoot(label, options));
  } catch (const ReadError& e) {
    return invalidInput(sanitizeForTerminal(e.message), label + ": " + (e.pointer.empty() ? "/" : sanitizeForTerminal(e.pointer)));
  }
}

Result<Dump> loadDump(const std::string& path, const DumpReadOptions& options) {
  if (const DumpImporter* importer = importerFor(path)) {
    Result<Dump> imported = invalidInput("the importer returned nothing");
    try {
      imported = importer->load(path);
    } catch (const std::exception& e) {
      imported = invalidInput(std::string("the importer threw: ") + e.what());
    }
    if (!imported.ok()) return imported.error().within(path + " (importer " + importer->name + ")");
    return imported;
  }
  auto text = readFile(path);
  FATHOM_TRY(text);
  return parseDump(*text, path, options);
}

Result<std::vector<ExampleInput>> loadInputsFile(const std::string& path, const DumpReadOptions& options) {
  auto text = readFile(path);
  FATHOM_TRY(text);
  auto doc = parseJson(*text, path, options);
  FATHOM_TRY(doc);
  try {
    requireObject(*doc, "");
    onlyKeys(*doc, "", {"format", "version", "inputs"});
    const std::string& format = requireString(requireKey(*doc, "", "format"), "/format");
    if (format != "fathom-inputs") fail("/format", "expected \"fathom-inputs\" but found \"" + format + "\"");
    if (readInt(requireKey(*doc, "", "version"), "/version") != 1) fail("/version", "unsupported version");
    return readInputList(requireKey(*doc, "", "inputs"), "/inputs", sideFileRoot(path, options));
  } catch (const ReadError& e) {
    return invalidInput(sanitizeForTerminal(e.message), path + ": " + (e.pointer.empty() ? "/" : sanitizeForTerminal(e.pointer)));
  }
}

}  // namespace fathom
