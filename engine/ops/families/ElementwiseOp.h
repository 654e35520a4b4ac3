// Registering an elementwise op from its parts: the schema, which arguments are its
// TensorIterator operands (in ATen's operand order, which decides the output layout when
// inputs disagree), an ElementwiseRule (promotion, argument check, output dtype), and a functor
// maker. addElementwise() turns them into the meta function and the CPU kernel; both run
// computeElementwiseLayout on the same operands, so they agree on sizes, strides and dtype.
//
// A functor maker is called per dtype as makeFn(TypeTag<T>, args) and returns a callable over
// OpMath<T> values (bool for bool operands and results, see ElementwiseKernel.h).
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "engine/ops/cpu/ElementwiseKernel.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {

using ElementwiseOperands = std::vector<ElementwiseOperand>;

// Where the output's strides come from. Most ops are TensorIterator ops; a few ATen ops
// allocate their result first and then run the loop into it.
enum class OutputStrides {
  TensorIterator,    // computeElementwiseLayout's rules
  Contiguous,        // masked_fill: a contiguous clone of the (broadcast) input
  LikeFirstOperand,  // hardtanh: empty_like(self) (preserve_format)
};

struct ElementwiseRule {
  ElementwisePromotion promotion = ElementwisePromotion::Common;
  // Throws (FATHOM_CHECK) on arguments PyTorch rejects; sees the operands and the raw arguments.
  void (*check)(const ElementwiseOperands& ops, const ValueList& args) = nullptr;
  std::optional<DType> outputDtype = std::nullopt;  // bool for comparisons; default: the common dtype
  // Builds the operands from meta arguments when the default (tensors as they are, Python
  // numbers as wrapped numbers) does not fit: one operand per position, in the same order.
  ElementwiseOperands (*operands)(const ValueList& margs) = nullptr;
  OutputStrides outputStrides = OutputStrides::TensorIterator;
};

template <class Tag> using MathOf = OpMath<typename Tag::type>;

// The inputs of an op as TensorIterator operands: tensors, and Python numbers as wrapped
// zero-dim tensors. Works on meta arguments (kernels pass metaArgs(args)).
template <size_t N>
ElementwiseOperands operandsOf(const ValueList& margs, const std::array<size_t, N>& positions) {
  ElementwiseOperands ops;
  for (size_t pos : positions) {
    if (margs.at(pos).is<TensorMeta>()) ops.push_back({margs[pos].as<TensorMeta>()});
    else ops.push_back({wrappedNumberMeta(scalarArg(margs[pos]).dtype), true});
  }
  return ops;
}

// The real tensors behind the operands (Python numbers as wrapped-number tensors).
template <size_t N>
std::array<Tensor, N> inputsOf(const ValueList& args, const std::array<size_t, N>& positions) {
  std::array<Tensor, N> ins;
  for (size_t k = 0; k < N; ++k) {
    const Value& v = args.at(positions[k]);
    ins[k] = v.is<Tensor>() ? tensorArg(args, positions[k]) : wrappedNumberTensor(scalarArg(v));
  }
  return ins;
}

// The layout of an elementwise op over these (meta) arguments, checks included.
template <size_t N>
ElementwiseLayout elementwiseLayoutOf(const ValueList& margs, const ValueList& args,
                                      const std::array<size_t, N>& positions, const ElementwiseRule& rule) {
  const ElementwiseOperands ops = rule.operands ? rule.operands(margs) : operandsOf(margs, positions);
  if (rule.check) rule.check(ops, args);
  ElementwiseLayout layout = computeElementwiseLayout(ops, rule.promotion, rule.outputDtype);
  if (rule.outputStrides == OutputStrides::Contiguous) layout.output.strides = contiguousStrides(layout.output.sizes);
  if (rule.outputStrides == OutputStrides::LikeFirstOperand) layout.output.strides = likeStrides(ops[0].meta, std::nullopt);
  return layout;
}

template <size_t N, class MakeFn>
void addElementwise(OpRegistry& registry, const char* schema, std::array<size_t, N> positions,
                    ElementwiseRule rule, MakeFn makeFn) {
  OpFn meta = [=](const ValueList& args) {
    return ValueList{elementwiseLayoutOf(args, args, positions, rule).output};
  };
  OpFn kernel = [=](const ValueList& args) {
    const ElementwiseLayout layout = elementwiseLayoutOf(metaArgs(args), args, positions, rule);
    return ValueList{runElementwise<N>(layout, inputsOf(args, positions),
                                       [&](auto tag) { return makeFn(tag, args); })};
  };
  (void)registry.add(schema, std::move(meta), std::move(kernel));
}

// A one-tensor op whose functor does not depend on the other arguments: fn(x) over OpMath values.
template <class Fn>
void addUnary(OpRegistry& registry, const char* schema, ElementwiseRule rule, Fn fn) {
  addElementwise(registry, schema, std::array<size_t, 1>{0}, rule, [fn](auto tag, const ValueList&) {
    using C = MathOf<decltype(tag)>;
    return [fn](C x) { return static_cast<C>(fn(x)); };
  });
}

}  // namespace fathom
