#include "engine/dump/PartitionJson.h"

#include "engine/dump/ShapeEnvJson.h"

#include <set>

namespace fathom::dumpread {
namespace {

json savedJson(const SavedValueInfo& s) {
  json j = json::object();
  j["name"] = s.name;
  j["kind"] = s.isSymInt ? "symint" : "tensor";
  if (s.isSymInt) {
    j["value"] = symIntJson(s.value);
  } else {
    j["dtype"] = std::string(dtypeName(s.meta.dtype));
    j["sizes"] = symIntListJson(s.meta.sizes);
  }
  j["bytes"] = s.bytes;
  return j;
}

std::vector<std::string> readNames(const json& j, const Ptr& ptr, bool allowEmpty) {
  requireArray(j, ptr);
  std::vector<std::string> out;
  for (size_t i = 0; i < j.size(); ++i) {
    const Ptr p = child(ptr, i);
    out.push_back(requireString(j[i], p));
    if (!allowEmpty && out.back().empty()) fail(p, "empty name");
  }
  return out;
}

const Graph& requireGraph(const Dump& dump, const std::string& name, const Ptr& ptr) {
  const Graph* g = dump.graph(name);
  if (!g) fail(ptr, "graph '" + name + "' is not in the dump");
  return *g;
}

}  // namespace

std::string partitionText(const PartitionInfo& p, const std::string& indent) {
  json head = json::object();
  head["partitioner"] = p.partitioner;
  head["joint"] = p.joint;
  head["forward"] = p.forward;
  head["backward"] = p.backward;
  head["mutated_inputs"] = p.mutatedInputs;
  head["forward_outputs"] = p.numForwardOutputs;
  head["saved_bytes"] = p.savedBytes();
  head["grad_inputs"] = p.gradInputs;
  std::string out = head.dump();
  out.pop_back();  // reopen the object for the saved list, one value per line
  out += ",\"saved\":[";
  for (size_t i = 0; i < p.saved.size(); ++i) out += (i ? ",\n" : "\n") + indent + "  " + savedJson(p.saved[i]).dump();
  out += p.saved.empty() ? "]}" : "\n" + indent + "]}";
  return out;
}

std::shared_ptr<const PartitionInfo> readPartition(const json& j, const Ptr& ptr, const Dump& dump) {
  requireObject(j, ptr);
  onlyKeys(j, ptr, {"partitioner", "joint", "forward", "backward", "mutated_inputs", "forward_outputs", "saved_bytes",
                    "grad_inputs", "saved"});
  auto p = std::make_shared<PartitionInfo>();
  const Ptr partitionerPtr(ptr, "partitioner"), fwdPtr(ptr, "forward"), bwdPtr(ptr, "backward"), jointPtr(ptr, "joint");
  p->partitioner = requireString(requireKey(j, ptr, "partitioner"), partitionerPtr);
  if (p->partitioner != "default" && p->partitioner != "min-cut")
    fail(partitionerPtr, "unknown partitioner '" + p->partitioner + "' (expected default or min-cut)");
  p->joint = requireString(requireKey(j, ptr, "joint"), jointPtr);
  p->forward = requireString(requireKey(j, ptr, "forward"), fwdPtr);
  p->backward = requireString(requireKey(j, ptr, "backward"), bwdPtr);
  const Graph& fwd = requireGraph(dump, p->forward, fwdPtr);
  const Graph& bwd = requireGraph(dump, p->backward, bwdPtr);
  (void)requireGraph(dump, p->joint, jointPtr);
  const Ptr mutPtr(ptr, "mutated_inputs"), outPtr(ptr, "forward_outputs"), gradPtr(ptr, "grad_inputs"),
      savedPtr(ptr, "saved");
  p->mutatedInputs = readNames(requireKey(j, ptr, "mutated_inputs"), mutPtr, false);
  p->numForwardOutputs = readInt(requireKey(j, ptr, "forward_outputs"), outPtr);
  p->gradInputs = readNames(requireKey(j, ptr, "grad_inputs"), gradPtr, true);
  const json& saved = requireKey(j, ptr, "saved");
  requireArray(saved, savedPtr);
  for (size_t i = 0; i < saved.size(); ++i) {
    const Ptr sp = child(savedPtr, i);
    const json& s = saved[i];
    requireObject(s, sp);
    onlyKeys(s, sp, {"name", "kind", "dtype", "sizes", "value", "bytes"});
    SavedValueInfo v;
    const Ptr namePtr(sp, "name"), kindPtr(sp, "kind"), bytesPtr(sp, "bytes");
    v.name = requireString(requireKey(s, sp, "name"), namePtr);
    const std::string& kind = requireString(requireKey(s, sp, "kind"), kindPtr);
    if (kind != "tensor" && kind != "symint") fail(kindPtr, "expected \"tensor\" or \"symint\"");
    v.isSymInt = kind == "symint";
    v.bytes = readInt(requireKey(s, sp, "bytes"), bytesPtr);
    auto node = fwd.find(v.name);
    if (!node) fail(namePtr, "saved value '" + v.name + "' is not a node of graph '" + p->forward + "'");
    auto placeholder = bwd.find(v.name);
    if (!placeholder || bwd.node(*placeholder).kind != NodeKind::Placeholder)
      fail(namePtr, "saved value '" + v.name + "' is not a placeholder of graph '" + p->backward + "'");
    const Value& val = fwd.node(*node).val;
    if (v.isSymInt) {
      if (!val.isInt()) fail(kindPtr, "saved value '" + v.name + "' is not a SymInt in graph '" + p->forward + "'");
      v.value = val.as<SymInt>();
    } else {
      if (!val.is<TensorMeta>()) fail(kindPtr, "saved value '" + v.name + "' is not a tensor in graph '" + p->forward + "'");
      v.meta = val.as<TensorMeta>();
    }
    p->saved.push_back(std::move(v));
  }
  if (auto* out = fwd.outputNode()) {
    size_t n = 0;
    forEachNodeRef(*out, [&](NodeRef) { ++n; });
    const size_t want = p->mutatedInputs.size() + static_cast<size_t>(p->numForwardOutputs) + p->saved.size();
    if (n < want)
      fail(outPtr, "graph '" + p->forward + "' returns " + std::to_string(n) + " values but the partition needs " +
                       std::to_string(want));
  }
  return p;
}

}  // namespace fathom::dumpread
