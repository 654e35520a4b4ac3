// Module: torch.nn.Module for the frontend - a tree of named submodules owning parameters and
// buffers, with a train/eval flag.
//
//   class Block : public Module {
//    public:
//     Block() : fc_(addModule<Linear>("fc", 768, 768)) {}
//     Tensor forward(const Tensor& x) {
//       auto scope = enter();               // ops below get module path "...block.fc" etc.
//       return relu(fc_.forward(x));
//     }
//    private:
//     Linear& fc_;
//   };
//
// Paths are computed from the tree ("encoder.layer.3.attention.self.query"), so a parameter's
// name is the placeholder's name when traced. A parameter's values are drawn from a seed the
// model assigns (Model.h): the eager tensor and the traced graph's example input are the same
// draw, so the two modes compute on identical numbers.
#pragma once

#include <memory>
#include <optional>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

#include "engine/frontend/TensorHandle.h"
#include "engine/graph/ExampleInput.h"
#include "engine/graph/GraphBuilder.h"

namespace fathom::frontend {

class Module;

// How a parameter's example values are drawn (ExampleInput's conventions).
struct Init {
  std::optional<std::pair<double, double>> range;  // floats: uniform; ints: [lo, hi); none: N(0, 1)
  std::vector<double> data;                        // inline values instead of a seed (small buffers)
  bool isInline = false;

  static Init normal() { return {}; }
  static Init uniform(double lo, double hi) { return {std::pair{lo, hi}, {}, false}; }
  static Init values(std::vector<double> data) { return {std::nullopt, std::move(data), true}; }
};

class Parameter {
 public:
  Parameter(const Module* owner, std::string name, TensorMeta meta, Init init, bool buffer)
      : owner_(owner), name_(std::move(name)), meta_(std::move(meta)), init_(std::move(init)), buffer_(buffer) {}

  std::string path() const;  // "encoder.layer.0.attention.self.query.weight"
  const TensorMeta& meta() const { return meta_; }
  bool isBuffer() const { return buffer_; }
  // Its example input: name = path, the layout, and its seed (or inline data).
  ExampleInput spec() const;
  void setSeed(uint64_t seed);

  // The tensor in the current mode: the trace's placeholder while tracing, else the real
  // tensor (drawn on first use; a buffer updated in place keeps its new values). A parameter
  // (not a buffer) is a leaf that requires grad: eagerly its gradient accumulates in grad();
  // traced, the trace decides (TraceContext::bindGrad).
  Tensor tensor(std::source_location loc = std::source_location::current()) const;
  // The gradient accumulated by the eager autograd engine (undefined before any backward).
  Tensor grad() const;
  void zeroGrad() const;

 private:
  const Module* owner_;
  std::string name_;
  TensorMeta meta_;
  Init init_;
  bool buffer_;
  std::optional<uint64_t> seed_;
  mutable fathom::Tensor real_;
  mutable std::shared_ptr<autograd::AutogradMeta> autograd_;
};

class Module {
 public:
  Module() = default;
  virtual ~Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  const std::string& name() const { return name_; }  // in the parent: "query", "layer.0"
  std::string path() const;                          // from the root; empty for the root
  bool training() const { return training_; }
  void train(bool on = true);  // this module and every submodule
  void eval() { train(false); }

  // The whole tree's parameters, then its buffers, in PyTorch's named_parameters() /
  // named_buffers() order (a module's own before its submodules', registration order).
  std::vector<Parameter*> parameters() { return collect(false); }
  std::vector<Parameter*> buffers() { return collect(true); }

  // The module path scope of one forward call; it records nothing in eager mode.
  class Scope {
   public:
    explicit Scope(const Module& m);
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    std::optional<GraphBuilder::ModuleScope> scope_;
  };

 protected:
  // Enter at the top of forward(): nodes recorded until the scope ends get this module's path.
  Scope enter() const { return Scope(*this); }

  template <class M, class... A>
  M& addModule(std::string name, A&&... args) {
    auto m = std::make_unique<M>(std::forward<A>(args)...);
    M& ref = *m;
    adopt(std::move(m), std::move(name));
    return ref;
  }
  Parameter& addParameter(std::string name, const IntList& sizes, Init init, DType dtype = DType::Float32);
  Parameter& addBuffer(std::string name, const IntList& sizes, Init init, DType dtype = DType::Float32);

 private:
  void adopt(std::unique_ptr<Module> child, std::string name);
  std::vector<Parameter*> collect(bool buffers);

  const Module* parent_ = nullptr;
  std::string name_;
  bool training_ = true;
  std::vector<std::unique_ptr<Module>> children_;
  std::vector<std::unique_ptr<Parameter>> params_;
};

}  // namespace fathom::frontend
