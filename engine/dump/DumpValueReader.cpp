// Per-value readers of a dump: see DumpValueReader.h. Each function checks one JSON value and
// names its pointer in any error; none of them looks outside the value it is given, except
// readArg, which resolves node names through the graph's NameIndex.
#include "engine/dump/DumpValueReader.h"

#include "engine/dump/ShapeEnvJson.h"
#include "engine/dump/SideFiles.h"

#include <cmath>
#include <filesystem>

#include "engine/core/Error.h"

namespace fathom::dumpread {
namespace {

std::string escapeKey(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
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

}  // namespace

std::string Ptr::str() const {
  if (!parent_) return std::string(key_);
  std::string out = parent_->str() + "/";
  return isIndex_ ? out + std::to_string(index_) : out + escapeKey(key_);
}

void fail(const Ptr& pointer, std::string message) {
  throw ReadError{pointer.str(), std::move(message)};
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

void onlyKeys(const json& obj, const Ptr& ptr, std::initializer_list<std::string_view> allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool ok = false;
    for (std::string_view a : allowed) {
      if (it.key() == a) { ok = true; break; }
    }
    if (!ok) {
      std::string list;
      for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
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

namespace {

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
  if (j.is_string()) return readSymbolicInt(j.get<std::string>(), ptr, what);
  return readNonNegative(j, ptr, what);
}

SymIntList readSymIntList(const json& j, const Ptr& ptr, const char* what) {
  requireArray(j, ptr);
  SymIntList out;
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) out.push_back(readSymInt(j[i], child(ptr, i), what));
  return out;
}

const std::initializer_list<std::string_view> kTensorMetaKeys = {"dtype", "sizes", "strides", "offset", "device", "requires_grad"};

TensorMeta readTensorMeta(const json& j, const Ptr& ptr,
                          std::initializer_list<std::string_view> allowedKeys = kTensorMetaKeys) {
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
// {"float": "inf" | "-inf" | "nan"}'s text: the floats JSON cannot write.
double readNonFinite(const json& j, const Ptr& ptr) {
  const std::string& text = requireString(j, ptr);
  if (text == "inf") return INFINITY;
  if (text == "-inf") return -INFINITY;
  if (text == "nan") return NAN;
  fail(ptr, "expected inf, -inf or nan");
}

Value readVal(const json& j, const Ptr& ptr) {
  if (j.is_null()) return None{};
  if (j.is_number_integer()) return readInt(j, ptr);
  if (j.is_string()) return readSymbolicInt(j.get<std::string>(), ptr, "value");
  if (j.is_array()) {
    ValueList out;
    for (size_t i = 0; i < j.size(); ++i) out.push_back(readVal(j[i], child(ptr, i)));
    return out;
  }
  if (j.is_object()) return readTensorMeta(j, ptr);
  fail(ptr, std::string("expected tensor meta, a list of them, an integer (or symbolic integer) or null, but found ") + typeName(j));
}

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
      if (j.size() != 1) fail(ptr, "a tagged argument has exactly one key: node, dtype, memory_format, layout, device, float or sym");
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
      if (key == "sym") return readSymbolicInt(text, innerPtr, "integer");
      if (key == "float") return readNonFinite(inner, innerPtr);
      fail(child(ptr, key), "unknown argument tag '" + key + "' (expected node, dtype, memory_format, layout, device, float or sym)");
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

// The side file's name, resolved against the dump's folder, checked to stay inside it (unless
// trusted: a dump from someone else must not read files of ours), to exist and to hold the bytes
// `in` needs (so a missing or truncated file is a load error naming it, not a run error).
DataFile readDataFile(const json& j, const Ptr& ptr, const SideFileRoot& root, const ExampleInput& in) {
  DataFile f;
  const Ptr fp = child(ptr, "file");
  f.name = requireString(j["file"], fp);
  if (f.name.empty()) fail(fp, "the side file's name is empty");
  if (!root.trustPaths)
    if (std::string outside = sideFileOutside(f.name, root.folder); !outside.empty()) fail(fp, std::move(outside));
  const std::filesystem::path name(f.name);
  f.path = name.is_absolute() || root.folder.empty() ? f.name : (std::filesystem::path(root.folder) / name).string();
  if (auto it = j.find("file_offset"); it != j.end()) {
    const Ptr op = child(ptr, "file_offset");
    if (!it->is_number_unsigned() && !(it->is_number_integer() && it->get<int64_t>() >= 0))
      fail(op, "file_offset must be a non-negative integer");
    f.offset = it->get<uint64_t>();
  }
  std::error_code ec;
  const auto status = std::filesystem::status(f.path, ec);
  if (ec || !std::filesystem::exists(status))
    fail(fp, "side file '" + f.path + "' does not exist (it is written next to the dump; copy it along)");
  if (!std::filesystem::is_regular_file(status)) fail(fp, "side file '" + f.path + "' is not a regular file");
  const uint64_t have = std::filesystem::file_size(f.path, ec);
  const uint64_t need = static_cast<uint64_t>(in.meta.numel().hint()) * elementSize(in.meta.dtype);
  if (ec || f.offset > have || have - f.offset < need)
    fail(fp, "side file '" + f.path + "' has " + std::to_string(have) + " bytes but '" + in.name + "' needs " +
                 std::to_string(need) + " from offset " + std::to_string(f.offset));
  return f;
}

ExampleInput readExampleInput(const json& j, const Ptr& ptr, const SideFileRoot& root, bool recorded) {
  ExampleInput in;
  if (!recorded && j.is_object() && j.contains("int")) {  // a SymInt placeholder's value
    onlyKeys(j, ptr, {"name", "int"});
    in.name = requireString(requireKey(j, ptr, "name"), child(ptr, "name"));
    const json& v = j["int"];
    if (!v.is_number_integer()) fail(child(ptr, "int"), std::string("expected an integer but found ") + typeName(v));
    in.integer = v.get<int64_t>();
    return in;
  }
  in.meta = readTensorMeta(j, ptr, {"name", "dtype", "sizes", "strides", "offset", "device", "requires_grad", "seed", "range", "data", "file", "file_offset"});
  in.name = requireString(requireKey(j, ptr, "name"), child(ptr, "name"));
  for (const auto& s : in.meta.sizes)
    if (s.isSymbolic()) fail(child(ptr, "sizes"), recorded ? "recorded outputs need concrete sizes" : "example inputs need concrete sizes");
  const bool hasSeed = j.contains("seed"), hasData = j.contains("data"), hasFile = j.contains("file");
  if (recorded && hasSeed) fail(child(ptr, "seed"), "a recorded output holds its values ('data' or 'file'), not a seed");
  if (hasSeed + hasData + hasFile != 1)
    fail(ptr, recorded ? "a recorded output has exactly one of 'data' or 'file'"
                       : "an example input has exactly one of 'seed', 'data' or 'file'");
  if (j.contains("file_offset") && !hasFile) fail(child(ptr, "file_offset"), "file_offset without 'file'");
  if (hasFile) in.file = readDataFile(j, ptr, root, in);
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
      else if (d[i].is_object() && d[i].size() == 1 && d[i].contains("float")) {
        const Ptr element = child(dp, i);
        in.data.push_back(readNonFinite(d[i]["float"], child(element, "float")));
      }
      else fail(child(dp, i), std::string("expected a number but found ") + typeName(d[i]));
    }
  }
  return in;
}

}  // namespace

const std::string& readNodeName(const json& node, const Ptr& ptr) {
  requireObject(node, ptr);
  const Ptr namePtr = child(ptr, "name");
  const std::string& name = requireString(requireKey(node, ptr, "name"), namePtr);
  if (name.empty()) fail(namePtr, "node name is empty");
  return name;
}

// Precondition: readNodeName(jn, p) succeeded.
Node readNode(const json& jn, const Ptr& p, const NameIndex& names, bool keepUnknownOps) {
  onlyKeys(jn, p, {"name", "kind", "op", "args", "kwargs", "meta"});
  Node n;
  n.name = jn["name"].get<std::string>();
  n.kind = readKind(requireKey(jn, p, "kind"), child(p, "kind"));
  if (n.kind == NodeKind::Call) {
    n.target = requireString(requireKey(jn, p, "op"), child(p, "op"));
    n.op = OpRegistry::global().find(n.target);
    if (!n.op && keepUnknownOps) n.opaque = true;
    else if (!n.op)
      fail(child(p, "op"), OpRegistry::global().unknownOpMessage(n.target) +
                               "; --keep-unknown-ops loads it as an opaque node that runs as its recorded meta");
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
  return n;
}

std::vector<ExampleInput> readInputList(const json& j, const Ptr& ptr, const SideFileRoot& root) {
  requireArray(j, ptr);
  std::vector<ExampleInput> out;
  for (size_t i = 0; i < j.size(); ++i) out.push_back(readExampleInput(j[i], child(ptr, i), root, false));
  return out;
}

std::vector<std::optional<ExampleInput>> readOutputList(const json& j, const Ptr& ptr, const SideFileRoot& root) {
  requireArray(j, ptr);
  std::vector<std::optional<ExampleInput>> out;
  for (size_t i = 0; i < j.size(); ++i) {
    if (j[i].is_null()) out.emplace_back();
    else out.push_back(readExampleInput(j[i], child(ptr, i), root, true));
  }
  return out;
}

}  // namespace fathom::dumpread
