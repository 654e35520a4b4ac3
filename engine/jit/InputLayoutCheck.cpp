#include "engine/jit/InputLayoutCheck.h"

#include "engine/tensor/Tensor.h"
#include "engine/tensor/TensorMeta.h"

namespace fathom {
namespace {

// "[s0, 8] = [4, 8]", or "[4, 8]" when nothing is symbolic.
std::string recorded(const SymIntList& list, const SymbolBinding& binding) {
  std::string text = "[", values = "[";
  bool symbolic = false;
  for (size_t i = 0; i < list.size(); ++i) {
    text += (i ? ", " : "") + list[i].str();
    auto v = binding.eval(list[i]);
    values += (i ? ", " : "") + (v ? std::to_string(*v) : std::string("?"));
    symbolic = symbolic || list[i].isSymbolic();
  }
  return symbolic ? text + "] = " + values + "]" : values + "]";
}

}  // namespace

std::vector<InputTrust> inputTrust(const Graph& ordered, const std::vector<CompiledKernel>& kernels) {
  std::vector<InputTrust> out;
  for (NodeRef p : ordered.placeholders()) {
    InputTrust t;
    const std::string& name = ordered.node(p).name;
    for (const auto& k : kernels) {
      if (!k.fn || !t.kernel.empty()) continue;
      for (const auto& b : k.lowered->buffers)
        if (!b.output && b.value == name) {
          t.kernel = k.lowered->name;
          t.nodes = k.lowered->nodes;
          break;
        }
    }
    out.push_back(std::move(t));
  }
  return out;
}

Status checkInputLayout(const Node& placeholder, const Value& real, const SymbolBinding& binding,
                        const InputTrust& trust) {
  const auto* m = placeholder.val.tryAs<TensorMeta>();
  const auto* t = real.tryAs<Tensor>();
  if (!m || !t || !t->defined()) return {};
  bool same = m->dim() == t->dim() && m->strides.size() == m->sizes.size();
  for (int64_t d = 0; same && d < t->dim(); ++d) {
    const auto size = binding.eval(m->sizes[static_cast<size_t>(d)]);
    const auto stride = binding.eval(m->strides[static_cast<size_t>(d)]);
    same = size == t->size(d) && (t->size(d) <= 1 || stride == t->stride(d));
  }
  if (same) return {};
  std::string who = "no generated kernel reads it directly, but the kernels after it were built on its meta";
  if (!trust.kernel.empty()) {
    who = "kernel " + trust.kernel + " (";
    for (size_t i = 0; i < trust.nodes.size() && i < 4; ++i) who += (i ? ", %" : "%") + trust.nodes[i];
    who += trust.nodes.size() > 4 ? ", ...)" : ")";
    who += " reads it with the recorded strides";
  }
  return invalidInput("input %" + placeholder.name + " does not have the layout the compiled kernels assume: recorded sizes " +
                          recorded(m->sizes, binding) + " strides " + recorded(m->strides, binding) +
                          ", the tensor has sizes " + intListText(t->sizes()) + " strides " + intListText(t->strides()) + "; " + who +
                          " (--unchecked runs anyway)",
                      "%" + placeholder.name);
}

}  // namespace fathom
