// Value: what flows along graph edges and into ops - None, bool, int (SymInt), float, string,
// dtype, memory format, device, a reference to another graph node, a real tensor, a fake tensor
// (TensorMeta), or a list of values (also used for the tuple a multi-output op returns).
//
// One type serves graph arguments (constants + NodeRefs), meta-function inputs (TensorMeta),
// and kernel inputs (Tensor), so the binding and printing code exists once.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "engine/core/DType.h"
#include "engine/core/SymInt.h"
#include "engine/tensor/Tensor.h"
#include "engine/tensor/TensorMeta.h"

namespace fathom {

struct None {
  bool operator==(const None&) const = default;
};

// A reference to node `index` of the enclosing graph.
struct NodeRef {
  int32_t index = -1;
  bool operator==(const NodeRef&) const = default;
};

struct Device {
  std::string name = "cpu";  // "cpu", "meta", "cuda:0"
  bool operator==(const Device&) const = default;
};

enum class Layout { Strided };

struct Value;
using ValueList = std::vector<Value>;

struct Value {
  using Storage = std::variant<None, bool, SymInt, double, std::string, DType, MemoryFormat, Layout,
                               Device, NodeRef, Tensor, TensorMeta, ValueList>;
  Storage v;

  Value() = default;
  Value(None) {}
  Value(bool b) : v(b) {}
  Value(int64_t i) : v(SymInt(i)) {}
  Value(int i) : v(SymInt(int64_t{i})) {}
  Value(SymInt i) : v(std::move(i)) {}
  Value(double d) : v(d) {}
  Value(std::string s) : v(std::move(s)) {}
  Value(const char* s) : v(std::string(s)) {}
  Value(DType t) : v(t) {}
  Value(MemoryFormat f) : v(f) {}
  Value(Layout l) : v(l) {}
  Value(Device d) : v(std::move(d)) {}
  Value(NodeRef r) : v(r) {}
  Value(Tensor t) : v(std::move(t)) {}
  Value(TensorMeta m) : v(std::move(m)) {}
  Value(ValueList l) : v(std::move(l)) {}

  template <class T> bool is() const { return std::holds_alternative<T>(v); }
  template <class T> const T& as() const { return std::get<T>(v); }
  template <class T> T& as() { return std::get<T>(v); }
  template <class T> const T* tryAs() const { return std::get_if<T>(&v); }

  bool isNone() const { return is<None>(); }
  bool isInt() const { return is<SymInt>(); }
  // Python-number view: an int, float or bool as double.
  bool isNumber() const { return is<SymInt>() || is<double>() || is<bool>(); }
  double toDouble() const;
  // Kind name for messages: "int", "Tensor", "list", ...
  std::string kindName() const;
};

// A list of ints (or SymInts) from a Value, as int[] arguments are given.
SymIntList toSymIntList(const Value& v);
IntList toIntList(const Value& v);  // throws OpError on symbolic or non-int entries

}  // namespace fathom
