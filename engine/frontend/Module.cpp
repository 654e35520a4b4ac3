#include "engine/frontend/Module.h"

#include "engine/frontend/AutogradMeta.h"
#include "engine/frontend/OpCall.h"
#include "engine/frontend/TraceContext.h"
#include "engine/interp/ExampleInputs.h"

namespace fathom::frontend {

std::string Parameter::path() const {
  const std::string owner = owner_ ? owner_->path() : std::string();
  return owner.empty() ? name_ : owner + "." + name_;
}

ExampleInput Parameter::spec() const {
  ExampleInput in;
  in.name = path();
  in.meta = meta_;
  in.range = init_.range;
  if (init_.isInline) in.data = init_.data;
  else in.seed = seed_.value_or(0);
  return in;
}

void Parameter::setSeed(uint64_t seed) {
  if (seed_ != seed) {
    real_ = fathom::Tensor();
    autograd_.reset();
  }
  seed_ = seed;
}

Tensor Parameter::grad() const { return autograd_ ? autograd_->grad : Tensor{}; }

void Parameter::zeroGrad() const {
  if (autograd_) autograd_->grad = Tensor{};
}

Tensor Parameter::tensor(std::source_location loc) const {
  if (TraceContext* ctx = TraceContext::current()) {
    NodeRef r = ctx->bound(this);
    if (r.index < 0) fail("parameter '" + path() + "' is not an input of this trace", loc);
    Tensor t = Tensor::traced(ctx, r);
    t.setAutograd(ctx->boundGrad(this));
    return t;
  }
  if (!real_.defined()) {
    if (!seed_ && !init_.isInline) fail("parameter '" + path() + "' has no seed: run the model with runEager()", loc);
    auto values = materializeInputs({spec()});
    if (!values.ok()) throw FrontendError(values.error().within("parameter '" + path() + "'"));
    real_ = (*values)[0].as<fathom::Tensor>();
  }
  Tensor t = Tensor::eager(real_);
  if (!buffer_) {
    if (!autograd_) {
      autograd_ = std::make_shared<autograd::AutogradMeta>();
      autograd_->requiresGrad = true;
      autograd_->name = path();
    }
    t.setAutograd(autograd_);
  }
  return t;
}

std::string Module::path() const {
  if (!parent_) return name_;
  const std::string parent = parent_->path();
  return parent.empty() ? name_ : parent + "." + name_;
}

void Module::train(bool on) {
  training_ = on;
  for (auto& c : children_) c->train(on);
}

Module::Scope::Scope(const Module& m) {
  TraceContext* ctx = TraceContext::current();
  if (ctx && !m.name_.empty()) scope_.emplace(ctx->builder(), m.name_);
}

Parameter& Module::addParameter(std::string name, const IntList& sizes, Init init, DType dtype) {
  params_.push_back(std::make_unique<Parameter>(this, std::move(name), fakeTensor(dtype, {sizes.begin(), sizes.end()}),
                                                std::move(init), /*buffer=*/false));
  return *params_.back();
}

Parameter& Module::addBuffer(std::string name, const IntList& sizes, Init init, DType dtype) {
  params_.push_back(std::make_unique<Parameter>(this, std::move(name), fakeTensor(dtype, {sizes.begin(), sizes.end()}),
                                                std::move(init), /*buffer=*/true));
  return *params_.back();
}

void Module::adopt(std::unique_ptr<Module> child, std::string name) {
  child->parent_ = this;
  child->name_ = std::move(name);
  child->train(training_);
  children_.push_back(std::move(child));
}

std::vector<Parameter*> Module::collect(bool buffers) {
  std::vector<Parameter*> out;
  for (auto& p : params_)
    if (p->isBuffer() == buffers) out.push_back(p.get());
  for (auto& c : children_) {
    auto sub = c->collect(buffers);
    out.insert(out.end(), sub.begin(), sub.end());
  }
  return out;
}

}  // namespace fathom::frontend
