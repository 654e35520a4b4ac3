// Reads and validates dump files. Every check reports the JSON pointer of the offending value;
// the first problem ends the read (one clear line is what a user can act on).
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "engine/core/Error.h"
#include "engine/dump/Dump.h"
#include "engine/dump/JsonText.h"

namespace fathom {
namespace {

using json = nlohmann::ordered_json;  // keeps the file's key order (graph order)

// Internal: thrown at the first problem, caught in parseDump.
struct ReadError {
  std::string pointer;
  std::string message;
};

std::string escapeKey(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

// A JSON pointer that is spelled out only when an error needs it: each level lives on the
// reader's stack and names its parent, so reading a valid dump builds no pointer strings (that
// was a quarter of the load time of a 100,000-node dump). A child must not outlive its parent,
// so child() refuses a temporary parent; name the parent first.
class Ptr {
 public:
  Ptr(const char* root) : key_(root) {}  // NOLINT: "" or "/format", implicit for brevity
  Ptr(const Ptr& parent, std::string_view key) : parent_(&parent), key_(key) {}
  Ptr(const Ptr& parent, size_t index) : parent_(&parent), index_(index), isIndex_(true) {}

  std::string str() const {
    if (!parent_) return std::string(key_);
    std::string out = parent_->str() + "/";
    return isIndex_ ? out + std::to_string(index_) : out + escapeKey(key_);
  }

 private:
  const Ptr* parent_ = nullptr;
  std::string_view key_;  // the root's text when there is no parent
  size_t index_ = 0;
  bool isIndex_ = false;
};

Ptr child(const Ptr& ptr, std::string_view key) { return Ptr(ptr, key); }
Ptr child(const Ptr& ptr, size_t index) { return Ptr(ptr, index); }
Ptr child(const Ptr&& ptr, std::string_view key) = delete;
Ptr child(const Ptr&& ptr, size_t index) = delete;

[[noreturn]] void fail(const Ptr& pointer, std::string message) {
  throw ReadError{pointer.str(), std::move(message)};
}

const char* typeName(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "an integer";
    case json::value_t::number_float: return "a number";
    default: return "an unsupported value";
  }
}

const json& requireKey(const json& obj, const Ptr& ptr, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end()) fail(ptr, std::string("missing required key '") + key + "'");
  return *it;
}

void requireObject(const json& j, const Ptr& ptr) {
  if (!j.is_object()) fail(ptr, std::string("expected an object but found ") + typeName(j));
}
void requireArray(const json& j, const Ptr& ptr) {
  if (!j.is_array()) fail(ptr, std::string("expected an array but found ") + typeName(j));
}
const std::string& requireString(const json& j, const Ptr& ptr) {
  if (!j.is_string()) fail(ptr, std::string("expected a string but found ") + typeName(j));
  return j.get_ref<const std::string&>();
}

void onlyKeys(const json& obj, const Ptr& ptr, std::initializer_list<const char*> allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool ok = false;
    for (const char* a : allowed) ok |= it.key() == a;
    if (!ok) {
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      fail(child(ptr, it.key()), "unknown key '" + it.key() + "' (expected one of: " + list + ")");
    }
  }
}

int64_t readInt(const json& j, const Ptr& ptr) {
  if (j.is_number_unsigned()) {
    if (j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) fail(ptr, "integer does not fit in 64 bits");
    return static_cast<int64_t>(j.get<uint64_t>());
  }
  if (!j.is_number_integer()) fail(ptr, std::string("expected an integer but found ") + typeName(j));
  return j.get<int64_t>();
}

int64_t readNonNegative(const json& j, const Ptr& ptr, const char* what) {
  int64_t v = readInt(j, ptr);
  if (v < 0) fail(ptr, std::string(what) + " must not be negative, got " + std::to_string(v));
  return v;
}

DType readDType(const json& j, const Ptr& ptr) {
  const std::string& s = requireString(j, ptr);
  auto t = parseDType(s);
  if (!t) fail(ptr, "unknown dtype '" + s + "' (expected float32, float64, float16, bfloat16, int64, int32, int16, int8, uint8 or bool)");
  return *t;
}

SymInt readSymInt(const json& j, const Ptr& ptr, const char* what) {
  if (j.is_string()) fail(ptr, "symbolic " + std::string(what) + " '" + j.get<std::string>() + "' needs symbolic-shape support, which this build does not have");
  return readNonNegative(j, ptr, what);
}

SymIntList readSymIntList(const json& j, const Ptr& ptr, const char* what) {
  requireArray(j, ptr);
  SymIntList out;
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) out.push_back(readSymInt(j[i], child(ptr, i), what));
  return out;
}

// Checks that a concrete layout's element count and byte size fit in 64 bits.
void checkLayoutFits(const TensorMeta& m, const Ptr& ptr) {
  IntList sizes, strides;
  for (const auto& s : m.sizes) { if (s.isSymbolic()) return; sizes.push_back(s.hint()); }
  for (const auto& s : m.strides) { if (s.isSymbolic()) return; strides.push_back(s.hint()); }
  auto bytes = storageBytesFor(sizes, strides, m.storageOffset.hint(), m.dtype);
  if (!bytes.ok()) fail(ptr, bytes.error().message);
}

void checkNumelFits(const SymIntList& sizes, const Ptr& ptr) {
  IntList concrete;
  for (const auto& s : sizes) {
    if (s.isSymbolic()) return;
    concrete.push_back(s.hint());
  }
  if (auto n = checkedNumel(concrete); !n.ok()) fail(ptr, n.error().message);
}

constexpr std::initializer_list<const char*> kTensorMetaKeys = {"dtype", "sizes", "strides", "offset", "device", "requires_grad"};

TensorMeta readTensorMeta(const json& j, const Ptr& ptr,
                          std::initializer_list<const char*> allowedKeys = kTensorMetaKeys) {
  requireObject(j, ptr);
  onlyKeys(j, ptr, allowedKeys);
  TensorMeta m;
  m.dtype = readDType(requireKey(j, ptr, "dtype"), child(ptr, "dtype"));
  m.sizes = readSymIntList(requireKey(j, ptr, "sizes"), child(ptr, "sizes"), "size");
  checkNumelFits(m.sizes, ptr);
  if (auto it = j.find("strides"); it != j.end()) {
    m.strides = readSymIntList(*it, child(ptr, "strides"), "stride");
    if (m.strides.size() != m.sizes.size())
      fail(child(ptr, "strides"), "has " + std::to_string(m.strides.size()) + " entries but sizes has " +
                                      std::to_string(m.sizes.size()));
  } else {
    try {
      m.strides = contiguousStrides(m.sizes);
    } catch (const OpError& e) {
      fail(child(ptr, "sizes"), std::string("contiguous strides: ") + e.what());
    }
  }
  if (auto it = j.find("offset"); it != j.end()) m.storageOffset = readSymInt(*it, child(ptr, "offset"), "offset");
  if (auto it = j.find("device"); it != j.end()) m.device = requireString(*it, child(ptr, "device"));
  if (auto it = j.find("requires_grad"); it != j.end()) {
    if (!it->is_boolean()) fail(child(ptr, "requires_grad"), "expected true or false");
    m.requiresGrad = it->get<bool>();
  }
  checkLayoutFits(m, ptr);
  return m;
}

// A node's recorded value: tensor meta, a list of them (multi-output), an int, or null.
Value readVal(const json& j, const Ptr& ptr) {
  if (j.is_null()) return None{};
  if (j.is_number_integer()) return readInt(j, ptr);
  if (j.is_array()) {
    ValueList out;
    for (size_t i = 0; i < j.size(); ++i) out.push_back(readVal(j[i], child(ptr, i)));
    return out;
  }
  if (j.is_object()) return readTensorMeta(j, ptr);
  fail(ptr, std::string("expected tensor meta, a list of them, an integer or null, but found ") + typeName(j));
}

// Node name -> index; the names are views into the parsed document, which outlives the index.
using NameIndex = std::unordered_map<std::string_view, int32_t>;

Value readArg(const json& j, const Ptr& ptr, const NameIndex& names) {
  switch (j.type()) {
    case json::value_t::null: return None{};
    case json::value_t::boolean: return j.get<bool>();
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return readInt(j, ptr);
    case json::value_t::number_float: return j.get<double>();
    case json::value_t::string: return j.get<std::string>();
    case json::value_t::array: {
      ValueList out;
      out.reserve(j.size());
      for (size_t i = 0; i < j.size(); ++i) out.push_back(readArg(j[i], child(ptr, i), names));
      return out;
    }
    case json::value_t::object: {
      if (j.size() != 1) fail(ptr, "a tagged argument has exactly one key: node, dtype, memory_format, layout, device or float");
      const auto first = j.begin();
      const std::string& key = first.key();
      const json& inner = first.value();
      const Ptr innerPtr = child(ptr, key);
      const std::string& text = requireString(inner, innerPtr);
      if (key == "node") {
        auto it = names.find(text);
        if (it == names.end()) fail(innerPtr, "refers to node '" + text + "', which does not exist in this graph");
        return NodeRef{it->second};
      }
      if (key == "dtype") return readDType(inner, innerPtr);
      if (key == "memory_format") {
        MemoryFormat f;
        if (!parseMemoryFormat(text, &f)) fail(innerPtr, "unknown memory format '" + text + "' (contiguous_format, channels_last, preserve_format)");
        return f;
      }
      if (key == "layout") {
        if (text != "strided") fail(innerPtr, "unknown layout '" + text + "' (only strided is supported)");
        return Layout::Strided;
      }
      if (key == "device") return Device{text};
      if (key == "float") {
        if (text == "inf") return INFINITY;
        if (text == "-inf") return -INFINITY;
        if (text == "nan") return NAN;
        fail(innerPtr, "expected inf, -inf or nan");
      }
      fail(child(ptr, key), "unknown argument tag '" + key + "' (expected node, dtype, memory_format, layout, device or float)");
    }
    default: fail(ptr, std::string("unsupported argument: ") + typeName(j));
  }
}

NodeKind readKind(const json& j, const Ptr& ptr) {
  const std::string& s = requireString(j, ptr);
  if (s == "placeholder") return NodeKind::Placeholder;
  if (s == "call") return NodeKind::Call;
  if (s == "output") return NodeKind::Output;
  fail(ptr, "unknown node kind '" + s + "' (expected placeholder, call or output)");
}

void readMeta(const json& j, const Ptr& ptr, Node& n) {
  requireObject(j, ptr);
  onlyKeys(j, ptr, {"val", "source", "module", "stage"});
  if (auto it = j.find("val"); it != j.end()) n.val = readVal(*it, child(ptr, "val"));
  if (auto it = j.find("source"); it != j.end()) n.provenance.source = requireString(*it, child(ptr, "source"));
  if (auto it = j.find("module"); it != j.end()) n.provenance.module = requireString(*it, child(ptr, "module"));
  if (auto it = j.find("stage"); it != j.end()) n.stage = requireString(*it, child(ptr, "stage"));
}

std::string unknownOpMessage(const std::string& op) {
  std::string msg = "unknown op '" + op + "'";
  auto near = OpRegistry::global().suggest(op);
  if (!near.empty()) {
    msg += " (did you mean ";
    for (size_t i = 0; i < near.size(); ++i) msg += (i ? ", " : "") + near[i];
    msg += "?)";
  }
  return msg;
}

Graph readGraph(const json& j, const Ptr& ptr) {
  requireObject(j, ptr);
  onlyKeys(j, ptr, {"nodes"});
  const Ptr nodesPtr = child(ptr, "nodes");
  const json& nodes = requireKey(j, ptr, "nodes");
  requireArray(nodes, nodesPtr);

  // Names first, so references to later nodes resolve and verify() can explain them.
  NameIndex names;
  names.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Ptr p = child(nodesPtr, i);
    requireObject(nodes[i], p);
    const std::string& name = requireString(requireKey(nodes[i], p, "name"), child(p, "name"));
    if (name.empty()) fail(child(p, "name"), "node name is empty");
    auto [it, fresh] = names.emplace(name, static_cast<int32_t>(i));
    if (!fresh) fail(child(p, "name"), "duplicate node name '" + name + "' (first at " + child(nodesPtr, static_cast<size_t>(it->second)).str() + ")");
  }

  Graph g;
  g.reserve(nodes.size());
  const OpRegistry& registry = OpRegistry::global();
  for (size_t i = 0; i < nodes.size(); ++i) {
    const json& jn = nodes[i];
    const Ptr p = child(nodesPtr, i);
    onlyKeys(jn, p, {"name", "kind", "op", "args", "kwargs", "meta"});
    Node n;
    n.name = jn["name"].get<std::string>();
    n.kind = readKind(requireKey(jn, p, "kind"), child(p, "kind"));
    if (n.kind == NodeKind::Call) {
      n.target = requireString(requireKey(jn, p, "op"), child(p, "op"));
      n.op = registry.find(n.target);
      if (!n.op) fail(child(p, "op"), unknownOpMessage(n.target));
    } else if (jn.contains("op")) {
      fail(child(p, "op"), std::string(nodeKindName(n.kind)) + " nodes have no op");
    }
    if (auto it = jn.find("args"); it != jn.end()) {
      const Ptr argsPtr = child(p, "args");
      requireArray(*it, argsPtr);
      n.args.reserve(it->size());
      for (size_t a = 0; a < it->size(); ++a) n.args.push_back(readArg((*it)[a], child(argsPtr, a), names));
    }
    if (auto it = jn.find("kwargs"); it != jn.end()) {
      const Ptr kwargsPtr = child(p, "kwargs");
      requireObject(*it, kwargsPtr);
      for (auto kv = it->begin(); kv != it->end(); ++kv)
        n.kwargs.emplace_back(kv.key(), readArg(kv.value(), child(kwargsPtr, kv.key()), names));
    }
    if (auto it = jn.find("meta"); it != jn.end()) readMeta(*it, child(p, "meta"), n);
    g.append(std::move(n));
  }
  if (auto status = g.verify(); !status.ok()) {
    // Point at the node by its JSON pointer as well as its name.
    std::string where = ptr.str();
    const std::string& w = status.error().where;
    if (w.size() > 1 && w[0] == '%') {
      if (auto it = names.find(w.substr(1)); it != names.end())
        where = child(nodesPtr, static_cast<size_t>(it->second)).str() + " (" + w + ")";
    }
    throw ReadError{where, status.error().message};
  }
  return g;
}

ExampleInput readExampleInput(const json& j, const Ptr& ptr) {
  ExampleInput in;
  in.meta = readTensorMeta(j, ptr, {"name", "dtype", "sizes", "strides", "offset", "device", "requires_grad", "seed", "range", "data"});
  in.name = requireString(requireKey(j, ptr, "name"), child(ptr, "name"));
  for (const auto& s : in.meta.sizes)
    if (s.isSymbolic()) fail(child(ptr, "sizes"), "example inputs need concrete sizes");
  const bool hasSeed = j.contains("seed"), hasData = j.contains("data");
  if (hasSeed == hasData) fail(ptr, "an example input has exactly one of 'seed' or 'data'");
  if (hasSeed) {
    const json& s = j["seed"];
    if (!s.is_number_unsigned() && !(s.is_number_integer() && s.get<int64_t>() >= 0))
      fail(child(ptr, "seed"), "seed must be a non-negative integer");
    in.seed = s.get<uint64_t>();
  }
  if (auto it = j.find("range"); it != j.end()) {
    if (!it->is_array() || it->size() != 2 || !(*it)[0].is_number() || !(*it)[1].is_number())
      fail(child(ptr, "range"), "range is [low, high] with two numbers");
    in.range = {(*it)[0].get<double>(), (*it)[1].get<double>()};
    if (!(in.range->first < in.range->second)) fail(child(ptr, "range"), "range needs low < high");
  }
  if (hasData) {
    const json& d = j["data"];
    const Ptr dp = child(ptr, "data");
    requireArray(d, dp);
    const int64_t numel = in.meta.numel().hint();
    if (static_cast<int64_t>(d.size()) != numel)
      fail(dp, "has " + std::to_string(d.size()) + " values but the sizes need " + std::to_string(numel));
    in.data.reserve(d.size());
    for (size_t i = 0; i < d.size(); ++i) {
      if (d[i].is_number()) in.data.push_back(d[i].get<double>());
      else if (d[i].is_boolean()) in.data.push_back(d[i].get<bool>() ? 1.0 : 0.0);
      else fail(child(dp, i), std::string("expected a number but found ") + typeName(d[i]));
    }
  }
  return in;
}

std::vector<ExampleInput> readInputList(const json& j, const Ptr& ptr) {
  requireArray(j, ptr);
  std::vector<ExampleInput> out;
  for (size_t i = 0; i < j.size(); ++i) out.push_back(readExampleInput(j[i], child(ptr, i)));
  return out;
}

// The inputs of a graph must match its placeholders: count, dtype and rank.
void checkInputsMatch(const Graph& g, const std::vector<ExampleInput>& inputs, const Ptr& ptr) {
  auto ph = g.placeholders();
  if (ph.size() != inputs.size())
    fail(ptr, "has " + std::to_string(inputs.size()) + " inputs but the graph has " + std::to_string(ph.size()) + " placeholders");
  for (size_t i = 0; i < ph.size(); ++i) {
    const Node& n = g.node(ph[i]);
    auto* m = n.val.tryAs<TensorMeta>();
    if (!m) continue;
    const Ptr p = child(ptr, i);
    if (m->dtype != inputs[i].meta.dtype)
      fail(child(p, "dtype"), "input dtype " + std::string(dtypeName(inputs[i].meta.dtype)) + " does not match %" + n.name + " (" + std::string(dtypeName(m->dtype)) + ")");
    if (m->dim() != inputs[i].meta.dim())
      fail(child(p, "sizes"), "input has " + std::to_string(inputs[i].meta.dim()) + " dims but %" + n.name + " has " + std::to_string(m->dim()));
  }
}

Dump readDocument(const json& doc) {
  requireObject(doc, "");
  onlyKeys(doc, "", {"format", "version", "producer", "graphs", "inputs"});
  const std::string& format = requireString(requireKey(doc, "", "format"), "/format");
  if (format != kDumpFormat) fail("/format", "expected \"fathom-dump\" but found \"" + format + "\"");
  const int64_t version = readInt(requireKey(doc, "", "version"), "/version");
  if (version != kDumpVersion)
    fail("/version", "unsupported version " + std::to_string(version) + " (this build reads version " + std::to_string(kDumpVersion) + ")");

  Dump dump;
  const Ptr producerPtr = "/producer", graphsPtr = "/graphs", inputsPtr = "/inputs";
  if (auto it = doc.find("producer"); it != doc.end()) {
    requireObject(*it, "/producer");
    for (auto kv = it->begin(); kv != it->end(); ++kv)
      dump.producer.emplace_back(kv.key(), requireString(kv.value(), child(producerPtr, kv.key())));
  }
  const json& graphs = requireKey(doc, "", "graphs");
  requireObject(graphs, "/graphs");
  if (graphs.empty()) fail("/graphs", "a dump needs at least one graph");
  for (auto kv = graphs.begin(); kv != graphs.end(); ++kv)
    dump.graphs.push_back({kv.key(), readGraph(kv.value(), child(graphsPtr, kv.key()))});
  if (auto it = doc.find("inputs"); it != doc.end()) {
    requireObject(*it, "/inputs");
    for (auto kv = it->begin(); kv != it->end(); ++kv) {
      const Ptr p = child(inputsPtr, kv.key());
      const Graph* g = dump.graph(kv.key());
      if (!g) fail(p, "inputs for graph '" + kv.key() + "', which the dump does not have");
      auto inputs = readInputList(kv.value(), p);
      checkInputsMatch(*g, inputs, p);
      dump.inputs.emplace_back(kv.key(), std::move(inputs));
    }
  }
  return dump;
}

}  // namespace

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

namespace {
// Parses JSON text into a document, or an error with line and column.
Result<json> parseJson(std::string_view text, const std::string& label, const DumpLimits& limits) {
  if (auto depth = checkJsonDepth(text, limits.maxDepth); !depth.ok()) {
    return invalidInput(depth.error().message, label);
  }
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    return invalidInput(describeJsonParseError(text, e.byte, e.what()), label);
  } catch (const json::exception& e) {
    return invalidInput(sanitizeForTerminal(e.what()), label);
  }
}
}  // namespace

Result<Dump> parseDump(std::string_view text, const std::string& label, const DumpLimits& limits) {
  auto doc = parseJson(text, label, limits);
  FATHOM_TRY(doc);
  try {
    return readDocument(*doc);
  } catch (const ReadError& e) {
    return invalidInput(sanitizeForTerminal(e.message), label + ": " + (e.pointer.empty() ? "/" : sanitizeForTerminal(e.pointer)));
  }
}

Result<Dump> loadDump(const std::string& path, const DumpLimits& limits) {
  auto text = readFile(path);
  FATHOM_TRY(text);
  return parseDump(*text, path, limits);
}

Result<std::vector<ExampleInput>> loadInputsFile(const std::string& path) {
  auto text = readFile(path);
  FATHOM_TRY(text);
  auto doc = parseJson(*text, path, DumpLimits{});
  FATHOM_TRY(doc);
  try {
    requireObject(*doc, "");
    onlyKeys(*doc, "", {"format", "version", "inputs"});
    const std::string& format = requireString(requireKey(*doc, "", "format"), "/format");
    if (format != "fathom-inputs") fail("/format", "expected \"fathom-inputs\" but found \"" + format + "\"");
    if (readInt(requireKey(*doc, "", "version"), "/version") != 1) fail("/version", "unsupported version");
    return readInputList(requireKey(*doc, "", "inputs"), "/inputs");
  } catch (const ReadError& e) {
    return invalidInput(sanitizeForTerminal(e.message), path + ": " + (e.pointer.empty() ? "/" : sanitizeForTerminal(e.pointer)));
  }
}

}  // namespace fathom
