// Builds a Node from SAX events: see NodeEventBuilder.h. Each accepted shape mirrors a reader in
// DumpValueReader.cpp (readNode, readMeta, readVal, readArg, readTensorMeta); the result must be
// exactly what that reader returns, and whatever that reader would reject returns false here.
#include "engine/dump/NodeEventBuilder.h"

#include <cmath>
#include <string_view>
#include <utility>

namespace fathom::dumpread {
namespace {

struct KeySlot {
  std::string_view key;
  int slot;
};

// The keys of the fixed-shape objects, as readNode, readMeta and readTensorMeta allow them.
template <class Slot>
struct KeyTable {
  static constexpr KeySlot node[] = {{"name", int(Slot::Name)}, {"kind", int(Slot::NodeKind)},
                                     {"op", int(Slot::Op)},     {"args", int(Slot::Args)},
                                     {"kwargs", int(Slot::Kwargs)}, {"meta", int(Slot::Meta)}};
  static constexpr KeySlot meta[] = {{"val", int(Slot::Val)}, {"source", int(Slot::Source)},
                                     {"module", int(Slot::Module)}, {"stage", int(Slot::Stage)}};
  static constexpr KeySlot tensor[] = {{"dtype", int(Slot::DType)},   {"sizes", int(Slot::SizesArr)},
                                       {"strides", int(Slot::StridesArr)}, {"offset", int(Slot::Offset)},
                                       {"device", int(Slot::Device)}, {"requires_grad", int(Slot::RequiresGrad)}};
};

}  // namespace

void NodeEventBuilder::begin(const Graph& graph) {
  graph_ = &graph;
  node_ = Node{};
  hasName_ = hasKind_ = hasOp_ = false;
  frames_.clear();
  push(Kind::Node);
}

bool NodeEventBuilder::push(Kind kind) {
  frames_.emplace_back();
  frames_.back().kind = kind;
  return true;
}

NodeEventBuilder::Slot NodeEventBuilder::expected() const {
  const Frame& f = frames_.back();
  switch (f.kind) {
    case Kind::Args:
    case Kind::ArgList: return Slot::Arg;
    case Kind::ValList: return Slot::Val;
    case Kind::Sizes:
    case Kind::Strides: return Slot::NonNegInt;
    default: return f.slot;  // an object: what its pending key holds
  }
}

// Puts a finished argument or val where the parser is; the caller checked expected().
bool NodeEventBuilder::deliver(Value v) {
  Frame& f = frames_.back();
  if (f.kind == Kind::Kwargs) node_.kwargs.emplace_back(std::move(f.text), std::move(v));
  else if (f.kind == Kind::Meta) node_.val = std::move(v);
  else f.items.push_back(std::move(v));
  f.slot = Slot::None;
  return true;
}

bool NodeEventBuilder::fixedKey(Frame& f, const std::string& k) {
  using Table = KeyTable<Slot>;
  const KeySlot* begin = nullptr;
  size_t n = 0;
  if (f.kind == Kind::Node) begin = Table::node, n = std::size(Table::node);
  else if (f.kind == Kind::Meta) begin = Table::meta, n = std::size(Table::meta);
  else begin = Table::tensor, n = std::size(Table::tensor);
  for (size_t i = 0; i < n; ++i) {
    if (begin[i].key != k) continue;
    // A repeated key: the DOM keeps its last value in its first place; leave that to it.
    if (f.seen & (1u << i)) return false;
    f.seen |= 1u << i;
    f.slot = static_cast<Slot>(begin[i].slot);
    return true;
  }
  return false;  // unknown key: readNode reports it
}

bool NodeEventBuilder::key(std::string& k) {
  Frame& f = frames_.back();
  switch (f.kind) {
    case Kind::Node:
    case Kind::Meta:
    case Kind::Tensor: return fixedKey(f, k);
    case Kind::Kwargs:
      for (const auto& kv : node_.kwargs)
        if (kv.first == k) return false;  // repeated kwarg: the DOM keeps the last value
      f.text = std::move(k);
      f.slot = Slot::Arg;
      return true;
    case Kind::Tagged:
      if (f.seen) return false;  // a tagged argument has exactly one key
      f.seen = 1;
      f.text = std::move(k);
      f.slot = Slot::TagText;
      return true;
    default: return false;
  }
}

bool NodeEventBuilder::null() {
  const Slot s = expected();
  return (s == Slot::Arg || s == Slot::Val) && deliver(None{});
}

bool NodeEventBuilder::boolean(bool v) {
  const Slot s = expected();
  if (s == Slot::Arg) return deliver(v);
  if (s != Slot::RequiresGrad) return false;
  meta_.requiresGrad = v;
  frames_.back().slot = Slot::None;
  return true;
}

bool NodeEventBuilder::integer(int64_t v) {
  const Slot s = expected();
  if (s == Slot::Arg || s == Slot::Val) return deliver(v);
  if (v < 0) return false;  // sizes, strides and offsets must not be negative
  Frame& f = frames_.back();
  if (s == Slot::NonNegInt) {
    (f.kind == Kind::Sizes ? meta_.sizes : meta_.strides).push_back(SymInt(v));
    return true;
  }
  if (s != Slot::Offset) return false;
  meta_.storageOffset = SymInt(v);
  f.slot = Slot::None;
  return true;
}

bool NodeEventBuilder::unsignedInteger(uint64_t v) {
  if (v > static_cast<uint64_t>(INT64_MAX)) return false;  // readInt: does not fit in 64 bits
  return integer(static_cast<int64_t>(v));
}

bool NodeEventBuilder::number(double v) { return expected() == Slot::Arg && deliver(v); }

bool NodeEventBuilder::string(std::string& v) {
  const Slot s = expected();
  if (s == Slot::Arg) return deliver(std::move(v));
  if (s == Slot::TagText) {
    Frame& f = frames_.back();
    f.value = std::move(v);
    f.hasValue = true;
    f.slot = Slot::None;
    return true;
  }
  return setString(s, v);
}

// A string field of a node, its meta or a tensor meta.
bool NodeEventBuilder::setString(Slot slot, std::string& v) {
  switch (slot) {
    case Slot::Name: node_.name = std::move(v); hasName_ = true; break;
    case Slot::NodeKind:
      if (v == "placeholder") node_.kind = NodeKind::Placeholder;
      else if (v == "call") node_.kind = NodeKind::Call;
      else if (v == "output") node_.kind = NodeKind::Output;
      else return false;
      hasKind_ = true;
      break;
    case Slot::Op: node_.target = std::move(v); hasOp_ = true; break;
    case Slot::Source: node_.provenance.source = std::move(v); break;
    case Slot::Module: node_.provenance.module = std::move(v); break;
    case Slot::Stage: node_.stage = std::move(v); break;
    case Slot::DType: {
      auto t = parseDType(v);
      if (!t) return false;
      meta_.dtype = *t;
      hasDType_ = true;
      break;
    }
    case Slot::Device: meta_.device = std::move(v); break;
    default: return false;
  }
  frames_.back().slot = Slot::None;
  return true;
}

bool NodeEventBuilder::startObject() {
  switch (expected()) {
    case Slot::Arg: return push(Kind::Tagged);
    case Slot::Val:
      meta_ = TensorMeta{};
      hasDType_ = hasSizes_ = hasStrides_ = false;
      return push(Kind::Tensor);
    case Slot::Kwargs: return push(Kind::Kwargs);
    case Slot::Meta: return push(Kind::Meta);
    default: return false;
  }
}

bool NodeEventBuilder::startArray() {
  switch (expected()) {
    case Slot::Arg: return push(Kind::ArgList);
    case Slot::Val: return push(Kind::ValList);
    case Slot::Args: return push(Kind::Args);
    case Slot::SizesArr: return push(Kind::Sizes);
    case Slot::StridesArr: return push(Kind::Strides);
    default: return false;
  }
}

bool NodeEventBuilder::endArray() {
  Frame& f = frames_.back();
  const Kind kind = f.kind;
  ValueList items = std::move(f.items);
  frames_.pop_back();
  switch (kind) {
    case Kind::Args: node_.args = std::move(items); break;
    case Kind::ArgList:
    case Kind::ValList: return deliver(std::move(items));
    case Kind::Sizes: hasSizes_ = true; break;
    case Kind::Strides: hasStrides_ = true; break;
    default: return false;
  }
  frames_.back().slot = Slot::None;
  return true;
}

bool NodeEventBuilder::endObject() {
  Frame& f = frames_.back();
  switch (f.kind) {
    case Kind::Node:
      if (!finishNode()) return false;
      frames_.pop_back();
      return true;
    case Kind::Kwargs:
    case Kind::Meta:
      frames_.pop_back();
      frames_.back().slot = Slot::None;
      return true;
    case Kind::Tagged: {
      Value v;
      if (!finishTagged(f, v)) return false;
      frames_.pop_back();
      return deliver(std::move(v));
    }
    case Kind::Tensor:
      if (!finishTensor()) return false;
      frames_.pop_back();
      return deliver(std::move(meta_));
    default: return false;
  }
}

// readNode's checks that need the whole node (the name's uniqueness is the caller's).
bool NodeEventBuilder::finishNode() {
  if (!hasName_ || node_.name.empty() || !hasKind_) return false;
  if (node_.kind != NodeKind::Call) return !hasOp_;
  if (!hasOp_) return false;
  node_.op = OpRegistry::global().find(node_.target);
  return node_.op != nullptr;
}

// readArg's tagged objects: {"node" | "dtype" | "memory_format" | "layout" | "device" | "float": string}.
bool NodeEventBuilder::finishTagged(Frame& f, Value& out) {
  if (!f.seen || !f.hasValue) return false;
  const std::string& tag = f.text;
  const std::string& text = f.value;
  if (tag == "node") {
    auto ref = graph_->find(text);
    if (!ref) return false;  // unknown, or a later node: the DOM path decides
    out = *ref;
  } else if (tag == "dtype") {
    auto t = parseDType(text);
    if (!t) return false;
    out = *t;
  } else if (tag == "memory_format") {
    MemoryFormat m;
    if (!parseMemoryFormat(text, &m)) return false;
    out = m;
  } else if (tag == "layout") {
    if (text != "strided") return false;
    out = Layout::Strided;
  } else if (tag == "device") {
    out = Device{text};
  } else if (tag == "float") {
    if (text == "inf") out = INFINITY;
    else if (text == "-inf") out = -INFINITY;
    else if (text == "nan") out = NAN;
    else return false;
  } else {
    return false;
  }
  return true;
}

// readTensorMeta's checks after its keys are read; a failed check throws ReadError, which the
// streaming reader takes as giving up.
bool NodeEventBuilder::finishTensor() {
  if (!hasDType_ || !hasSizes_) return false;
  const Ptr unused = "";
  checkNumelFits(meta_.sizes, unused);
  if (hasStrides_) {
    if (meta_.strides.size() != meta_.sizes.size()) return false;
  } else {
    meta_.strides = contiguousStrides(meta_.sizes);  // OpError: also giving up
  }
  checkLayoutFits(meta_, unused);
  return true;
}

}  // namespace fathom::dumpread
