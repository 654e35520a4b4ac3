// The byte form: fixed-size fields in this machine's byte order (both ends are the same binary on
// the same machine), strings and lists prefixed with their length, values tagged by kind.
#include "minifier/WireTask.h"

#include <cstring>
#include <type_traits>

namespace fathom::minify {
namespace {

class Writer {
 public:
  template <class T> void pod(T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    out_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void str(std::string_view s) {
    pod<uint64_t>(s.size());
    out_.append(s);
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

// Reads what Writer wrote; a read past the end makes ok() false (and returns zeros).
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  template <class T> T pod() {
    T v{};
    if (in_.size() < sizeof v) return fail(v);
    std::memcpy(&v, in_.data(), sizeof v);
    in_.remove_prefix(sizeof v);
    return v;
  }
  std::string_view bytes(uint64_t n) {
    if (n > in_.size()) return fail(std::string_view{});
    std::string_view out = in_.substr(0, n);
    in_.remove_prefix(n);
    return out;
  }
  std::string str() { return std::string(bytes(pod<uint64_t>())); }
  bool ok() const { return ok_; }
  bool atEnd() const { return in_.empty(); }

 private:
  template <class T> T fail(T v) {
    ok_ = false;
    in_ = {};
    return v;
  }
  std::string_view in_;
  bool ok_ = true;
};

enum class Tag : uint8_t { None, Bool, Int, Double, String, Node, List, DType };

bool putValue(Writer& w, const Value& v) {
  if (const auto* l = v.tryAs<ValueList>()) {
    w.pod(Tag::List);
    w.pod<uint64_t>(l->size());
    for (const auto& e : *l)
      if (!putValue(w, e)) return false;
    return true;
  }
  if (const auto* i = v.tryAs<SymInt>()) {
    if (!i->maybeConcrete()) return false;
    w.pod(Tag::Int);
    w.pod(i->hint());
    return true;
  }
  if (v.isNone()) {
    w.pod(Tag::None);
  } else if (const auto* b = v.tryAs<bool>()) {
    w.pod(Tag::Bool);
    w.pod<uint8_t>(*b);
  } else if (const auto* d = v.tryAs<double>()) {
    w.pod(Tag::Double);
    w.pod(*d);
  } else if (const auto* s = v.tryAs<std::string>()) {
    w.pod(Tag::String);
    w.str(*s);
  } else if (const auto* r = v.tryAs<NodeRef>()) {
    w.pod(Tag::Node);
    w.pod(r->index);
  } else if (const auto* t = v.tryAs<DType>()) {
    w.pod(Tag::DType);
    w.pod(*t);
  } else {
    return false;  // a tensor, a device, a layout: never in a cut's outputs
  }
  return true;
}

Value getValue(Reader& r) {
  switch (r.pod<Tag>()) {
    case Tag::None: return Value();
    case Tag::Bool: return Value(r.pod<uint8_t>() != 0);
    case Tag::Int: return Value(r.pod<int64_t>());
    case Tag::Double: return Value(r.pod<double>());
    case Tag::String: return Value(r.str());
    case Tag::Node: return Value(NodeRef{r.pod<int32_t>()});
    case Tag::DType: return Value(r.pod<DType>());
    case Tag::List: {
      ValueList l;
      for (uint64_t n = r.pod<uint64_t>(); n > 0 && r.ok(); --n) l.push_back(getValue(r));
      return Value(std::move(l));
    }
  }
  r.bytes(~uint64_t{0});  // an unknown tag: not our bytes
  return Value();
}

bool putSizes(Writer& w, const SymIntList& sizes) {
  w.pod<uint64_t>(sizes.size());
  for (const auto& s : sizes) {
    if (!s.maybeConcrete()) return false;
    w.pod(s.hint());
  }
  return true;
}

SymIntList getSizes(Reader& r) {
  SymIntList out;
  for (uint64_t n = r.pod<uint64_t>(); n > 0 && r.ok(); --n) out.push_back(SymInt(r.pod<int64_t>()));
  return out;
}

template <class T> void putOptional(Writer& w, const std::optional<T>& v) {
  w.pod<uint8_t>(v.has_value());
  if (v) w.pod(*v);
}

template <class T> std::optional<T> getOptional(Reader& r) {
  if (!r.pod<uint8_t>()) return std::nullopt;
  return r.pod<T>();
}

bool putInput(Writer& w, const ExampleInput& in) {
  w.str(in.name);
  w.pod(in.meta.dtype);
  w.str(in.meta.device);
  if (!putSizes(w, in.meta.sizes) || !putSizes(w, in.meta.strides) || !in.meta.storageOffset.maybeConcrete()) return false;
  w.pod(in.meta.storageOffset.hint());
  w.pod<uint8_t>(in.meta.requiresGrad);
  putOptional(w, in.seed);
  w.pod<uint8_t>(in.range.has_value());
  if (in.range) {
    w.pod(in.range->first);
    w.pod(in.range->second);
  }
  putOptional(w, in.integer);
  w.str(std::string_view(reinterpret_cast<const char*>(in.data.data()), in.data.size() * sizeof(double)));
  w.str(in.file.name);
  w.str(in.file.path);
  w.pod(in.file.offset);
  return true;
}

ExampleInput getInput(Reader& r) {
  ExampleInput in;
  in.name = r.str();
  in.meta.dtype = r.pod<DType>();
  in.meta.device = r.str();
  in.meta.sizes = getSizes(r);
  in.meta.strides = getSizes(r);
  in.meta.storageOffset = SymInt(r.pod<int64_t>());
  in.meta.requiresGrad = r.pod<uint8_t>() != 0;
  in.seed = getOptional<uint64_t>(r);
  if (r.pod<uint8_t>()) {
    const double low = r.pod<double>();
    in.range = std::pair(low, r.pod<double>());
  }
  in.integer = getOptional<int64_t>(r);
  const std::string_view data = r.bytes(r.pod<uint64_t>());
  in.data.resize(data.size() / sizeof(double));
  if (!data.empty()) std::memcpy(in.data.data(), data.data(), in.data.size() * sizeof(double));
  in.file.name = r.str();
  in.file.path = r.str();
  in.file.offset = r.pod<uint64_t>();
  return in;
}

}  // namespace

std::optional<std::string> encodeWireTask(const Cut& cut, const std::function<const ExampleInput*(int32_t)>& valueOf) {
  Writer w;
  w.pod<uint64_t>(cut.inputs.size());
  for (int32_t i : cut.inputs) w.pod(i);
  if (!putValue(w, Value(cut.outputs))) return std::nullopt;
  w.pod<uint64_t>(cut.sizes.size());
  for (const auto& [name, v] : cut.sizes) {
    w.str(name);
    w.pod(v);
  }
  w.pod<uint64_t>(cut.constants.size());
  for (const auto& [at, v] : cut.constants) {
    w.pod(at.first);
    w.pod<uint64_t>(at.second);
    w.pod(v);
  }
  w.pod<uint64_t>(cut.merged.size());
  for (const auto& [from, to] : cut.merged) {
    w.pod(from);
    w.pod(to);
  }
  for (int32_t i : cut.inputs) {
    const ExampleInput* v = valueOf(i);
    w.pod<uint8_t>(v != nullptr);
    if (v && !putInput(w, *v)) return std::nullopt;
  }
  return w.take();
}

std::optional<WireTask> decodeWireTask(std::string_view bytes) {
  Reader r(bytes);
  WireTask t;
  for (uint64_t n = r.pod<uint64_t>(); n > 0 && r.ok(); --n) t.cut.inputs.push_back(r.pod<int32_t>());
  Value outputs = getValue(r);
  if (auto* l = outputs.tryAs<ValueList>()) t.cut.outputs = std::move(*l);
  else return std::nullopt;
  for (uint64_t n = r.pod<uint64_t>(); n > 0 && r.ok(); --n) {
    std::string name = r.str();
    t.cut.sizes[name] = r.pod<int64_t>();
  }
  for (uint64_t n = r.pod<uint64_t>(); n > 0 && r.ok(); --n) {
    const int32_t node = r.pod<int32_t>();
    const size_t arg = r.pod<uint64_t>();
    t.cut.constants[{node, arg}] = r.pod<double>();
  }
  for (uint64_t n = r.pod<uint64_t>(); n > 0 && r.ok(); --n) {
    const int32_t from = r.pod<int32_t>();
    t.cut.merged[from] = r.pod<int32_t>();
  }
  for (int32_t i : t.cut.inputs)
    if (r.pod<uint8_t>() && r.ok()) t.values.emplace_back(i, getInput(r));
  if (!r.ok() || !r.atEnd()) return std::nullopt;
  return t;
}

}  // namespace fathom::minify
