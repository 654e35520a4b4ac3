#include "engine/interp/SymbolBinding.h"

#include "engine/symbolic/ShapeEnv.h"
#include "engine/tensor/Tensor.h"
#include "engine/tensor/TensorMeta.h"

namespace fathom {

void SymbolBinding::bindFrom(const Value& recorded, const Value& real) {
  auto bind = [&](const SymInt& s, int64_t actual) {
    if (!s.isSymbolic()) return;
    if (auto sym = sym::exprOf(s).asSymbol(); sym && !values_.count(*sym)) values_[*sym] = actual;
  };
  if (const auto* m = recorded.tryAs<TensorMeta>()) {
    // Sizes, strides and the storage offset: an input that is a slice of a larger tensor is
    // recorded with symbols in its strides and offset ([s3, s4, 1] at s5) that only these bind.
    const auto* t = real.tryAs<Tensor>();
    if (!t || !t->defined() || t->dim() != m->dim()) return;
    for (int64_t d = 0; d < t->dim(); ++d) bind(m->sizes[static_cast<size_t>(d)], t->size(d));
    if (m->strides.size() == m->sizes.size())
      for (int64_t d = 0; d < t->dim(); ++d) bind(m->strides[static_cast<size_t>(d)], t->stride(d));
    bind(m->storageOffset, t->storageOffset());
  } else if (recorded.isInt() && real.isInt()) {
    bind(recorded.as<SymInt>(), real.as<SymInt>().hint());
  }
}

std::optional<int64_t> SymbolBinding::value(int32_t symbol) const {
  auto it = values_.find(symbol);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::optional<int64_t> SymbolBinding::eval(const SymInt& s) const {
  if (!s.isSymbolic()) return s.hint();
  auto v = sym::evaluate(sym::exprOf(s), [this](int32_t i) { return value(i); });
  if (!v.ok()) return std::nullopt;
  return *v;
}

}  // namespace fathom
