// The frontend's tensor handle and size handle. Model code is written once against these; the
// same code runs eagerly or records a Graph:
//
//   Tensor y = linear(x, w, b);            // eager: runs aten kernels now
//                                          // traced: appends t, view, addmm, view to the graph
//   SymValue n = x.size(0) * x.size(1);    // traced + symbolic: sym_size, sym_size, operator.mul
//
// A Tensor is either eager (it holds a real fathom::Tensor) or traced (it names a node of the
// graph its TraceContext is building; its layout is that node's recorded fake value).
// A SymValue is a size: a SymInt plus, while tracing with symbolic sizes, where it comes from -
// a node computing it, or the tensor and dim it was read from (the sym_size node is emitted
// lazily, when the size is first used, as FX does).
#pragma once

#include <cstdint>
#include <memory>
#include <source_location>
#include <vector>

#include "engine/ops/Value.h"

namespace fathom::autograd {
struct AutogradMeta;
}

namespace fathom::frontend {

class TraceContext;

class SymValue {
 public:
  SymValue(int64_t v = 0) : value_(v) {}  // NOLINT: implicit, sizes are usually plain ints
  SymValue(int v) : value_(int64_t{v}) {}  // NOLINT
  // A size computed by graph node `node` (invalid NodeRef: none).
  SymValue(SymInt value, NodeRef node, std::source_location loc = std::source_location::current())
      : value_(std::move(value)), node_(node), loc_(loc) {}
  // Size `dim` of traced tensor node `tensor`.
  static SymValue fromTensor(SymInt value, NodeRef tensor, int64_t dim, std::source_location loc);

  const SymInt& sym() const { return value_; }
  int64_t hint() const { return value_.hint(); }
  bool isSymbolic() const { return value_.isSymbolic(); }
  NodeRef node() const { return node_; }
  NodeRef tensor() const { return tensor_; }
  int64_t dim() const { return dim_; }
  // Where the size was read: operator nodes on it get this as their source location.
  const std::source_location& location() const { return loc_; }

 private:
  SymInt value_;
  NodeRef node_;
  NodeRef tensor_;
  int64_t dim_ = 0;
  std::source_location loc_;
};

using SymValues = std::vector<SymValue>;

// Size arithmetic. Concrete operands give plain ints; symbolic ones append operator.add /
// sub / mul / floordiv nodes to the graph being traced.
SymValue operator+(const SymValue& a, const SymValue& b);
SymValue operator-(const SymValue& a, const SymValue& b);
SymValue operator*(const SymValue& a, const SymValue& b);
SymValue floorDiv(const SymValue& a, const SymValue& b);
// The product of `sizes` as C++ code computes it (c10::multiply_integers): factors that are a
// concrete 1 are skipped, so no "1 * s0" node is recorded. 1 for an empty list.
SymValue product(const SymValues& sizes);

class Tensor {
 public:
  Tensor() = default;  // undefined (an absent optional tensor, e.g. a Linear without bias)
  static Tensor eager(fathom::Tensor real);
  static Tensor traced(TraceContext* context, NodeRef node);

  bool defined() const { return real_.defined() || context_ != nullptr; }
  bool isTraced() const { return context_ != nullptr; }
  const fathom::Tensor& real() const { return real_; }  // eager tensors only
  NodeRef node() const { return node_; }                // traced tensors only
  TraceContext* context() const { return context_; }

  // The layout: the real tensor's, or the fake value recorded on the traced node.
  TensorMeta meta() const;
  DType dtype() const;
  int64_t dim() const;
  bool isContiguous() const;
  // Size `d` (negative counts from the end).
  SymValue size(int64_t d, std::source_location loc = std::source_location::current()) const;
  SymValues sizes(std::source_location loc = std::source_location::current()) const;

  // Autograd state (engine/autograd/Autograd.h): shared by every copy of this handle, null for
  // a tensor no gradient flows to.
  const std::shared_ptr<autograd::AutogradMeta>& autograd() const { return autograd_; }
  void setAutograd(std::shared_ptr<autograd::AutogradMeta> meta) { autograd_ = std::move(meta); }
  // This tensor's data without its autograd history (what a saved tensor holds).
  Tensor detached() const {
    Tensor t = *this;
    t.autograd_.reset();
    return t;
  }

 private:
  fathom::Tensor real_;
  TraceContext* context_ = nullptr;
  NodeRef node_;
  std::shared_ptr<autograd::AutogradMeta> autograd_;
};

}  // namespace fathom::frontend
