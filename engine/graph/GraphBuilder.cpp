#include "engine/graph/GraphBuilder.h"


namespace fathom {

TensorMeta fakeTensor(DType dtype, const SymIntList& sizes) {
  TensorMeta m;
  m.dtype = dtype;
  m.sizes = sizes;
  m.strides = contiguousStrides(sizes);
  return m;
}

NodeRef GraphBuilder::input(std::string name, TensorMeta meta) {
  if (error_) return NodeRef{};
  Node n;
  n.name = graph_.uniqueName(name);
  n.kind = NodeKind::Placeholder;
  n.val = std::move(meta);
  n.provenance.module = module_;
  n.stage = stage_;
  return graph_.append(std::move(n));
}

// Replaces node references by the fake values recorded on those nodes.
Value GraphBuilder::fakeArgument(const Value& v) const {
  if (auto* r = v.tryAs<NodeRef>()) return graph_.node(*r).val;
  if (auto* l = v.tryAs<ValueList>()) {
    ValueList out;
    out.reserve(l->size());
    for (const auto& e : *l) out.push_back(fakeArgument(e));
    return out;
  }
  return v;
}

// File names come relative to the checkout: absolute ones are mapped by -ffile-prefix-map, and
// ccache's base_dir hands the compiler paths relative to the build directory ("../engine/x.cpp"
// from build/), whose leading "../" go here (cmake/Toolchain.cmake). A build without either
// strips FATHOM_SOURCE_DIR when it defines one.
std::string sourceLocationText(const std::source_location& loc) {
  std::string_view file = loc.file_name();
  while (file.starts_with("../")) file.remove_prefix(3);
#ifdef FATHOM_SOURCE_DIR
  constexpr std::string_view root = FATHOM_SOURCE_DIR;
  if (file.starts_with(root)) file.remove_prefix(root.size());
#endif
  return std::string(file) + ":" + std::to_string(loc.line());
}

std::string GraphBuilder::sourceOf(const std::source_location& loc) const { return sourceLocationText(loc); }

NodeRef GraphBuilder::call(std::string_view opName, ValueList args, Kwargs kwargs, std::string name,
                           std::source_location loc) {
  if (error_) return NodeRef{};
  for (const auto& a : args) {
    bool bad = false;
    forEachNodeRef(a, [&](NodeRef r) { bad |= r.index < 0; });
    if (bad) {
      error_ = invalidInput("an argument of " + std::string(opName) + " is an invalid node", sourceOf(loc));
      return NodeRef{};
    }
  }
  const OpDef* op = OpRegistry::global().find(opName);
  Node n;
  n.name = graph_.uniqueName(name.empty() ? (op ? op->schema.name : std::string("call")) : name);
  if (!op) {
    error_ = invalidInput("unknown op '" + std::string(opName) + "'", sourceOf(loc));
    return NodeRef{};
  }
  n.kind = NodeKind::Call;
  n.target = op->name;
  n.op = op;
  n.args = std::move(args);
  n.kwargs = std::move(kwargs);
  n.provenance = {sourceOf(loc), module_};
  n.stage = stage_;
  auto bound = bindArguments(op->schema, n.args, n.kwargs);
  if (bound.ok()) {
    if (beforeMeta_) beforeMeta_(n);
    ValueList fake;
    fake.reserve(bound->size());
    for (const auto& a : *bound) fake.push_back(fakeArgument(a));
    auto out = callMeta(*op, fake);
    if (out.ok()) {
      n.val = out->size() == 1 ? std::move((*out)[0]) : Value(std::move(*out));
      return graph_.append(std::move(n));
    }
    bound = std::move(out.error());
  }
  error_ = bound.error();
  error_->where = "%" + n.name + " (" + sourceOf(loc) + ")";
  return NodeRef{};
}

NodeRef GraphBuilder::getitem(NodeRef multi, int64_t index, std::source_location loc) {
  if (error_) return NodeRef{};
  return call("getitem", {multi, index}, {}, "getitem", loc);
}

void GraphBuilder::output(ValueList values) {
  if (error_) return;
  Node n;
  n.name = graph_.uniqueName("output");
  n.kind = NodeKind::Output;
  n.args = {Value(std::move(values))};
  n.stage = stage_;
  graph_.append(std::move(n));
}

Result<Graph> GraphBuilder::finish() {
  if (error_) return *error_;
  FATHOM_TRY(graph_.verify());
  return std::move(graph_);
}

GraphBuilder::ModuleScope::ModuleScope(GraphBuilder& b, const std::string& name)
    : b_(b), previousLength_(b.module_.size()) {
  b_.module_ += (b_.module_.empty() ? "" : ".") + name;
}

GraphBuilder::ModuleScope::~ModuleScope() { b_.module_.resize(previousLength_); }

}  // namespace fathom
