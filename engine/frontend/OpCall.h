// How a frontend op runs: callOp("aten.addmm.default", {bias, x, wt}) looks at its tensor
// arguments - any traced tensor makes it a graph node in that tensor's trace (a factory op with
// no tensor arguments records into the current trace, if one is live), otherwise the op's CPU
// kernel runs now on the real tensors. Arguments are bound to the op's schema either way, so
// both modes accept and reject the same calls.
//
// Errors: ops throw FrontendError (an Error naming the op and the model's source line) deep in
// model code, as ATen's checks do; runEager() and trace() (Model.h) catch it and return a
// Result, so no exception leaves the frontend's public entry points. catchErrors() does the
// same for code that calls ops directly.
#pragma once

#include <exception>
#include <source_location>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "engine/core/Error.h"
#include "engine/frontend/TensorHandle.h"

namespace fathom::frontend {

class FrontendError : public std::exception {
 public:
  explicit FrontendError(Error error) : error_(std::move(error)) {}
  const Error& error() const { return error_; }
  const char* what() const noexcept override { return error_.message.c_str(); }

 private:
  Error error_;
};

// "samples/models/BertModel.cpp:57" for provenance and messages (relative to the checkout).
std::string sourceLine(const std::source_location& loc);
[[noreturn]] void fail(std::string message, const std::source_location& loc);

// Runs `body`, returning its value or the error a frontend op threw.
template <class F>
auto catchErrors(F&& body) -> Result<std::invoke_result_t<F>> {
  try {
    if constexpr (std::is_void_v<std::invoke_result_t<F>>) {
      body();
      return {};
    } else {
      return body();
    }
  } catch (const FrontendError& e) {
    return e.error();
  } catch (const OpError& e) {
    return Error{e.code(), e.what(), {}};
  }
}

// One argument of an op call: a tensor (undefined = None), a size, a list of either, or a
// constant (number, bool, dtype, memory format, None, string, int list).
struct Arg {
  Arg(const Tensor& t) : v(t) {}            // NOLINT: implicit, call sites read like ATen calls
  Arg(const SymValue& s) : v(s) {}          // NOLINT
  Arg(SymValues l) : v(std::move(l)) {}     // NOLINT
  Arg(std::vector<Tensor> l) : v(std::move(l)) {}  // NOLINT
  Arg(Value c) : v(std::move(c)) {}         // NOLINT
  Arg(int64_t i) : v(Value(i)) {}           // NOLINT
  Arg(int i) : v(Value(i)) {}               // NOLINT
  Arg(double d) : v(Value(d)) {}            // NOLINT
  Arg(bool b) : v(Value(b)) {}              // NOLINT
  Arg(DType t) : v(Value(t)) {}             // NOLINT
  Arg(MemoryFormat f) : v(Value(f)) {}      // NOLINT
  Arg(None) : v(Value(None{})) {}           // NOLINT
  Arg(const char* s) : v(Value(s)) {}       // NOLINT
  Arg(const IntList& l);                    // NOLINT: an int[] constant

  std::variant<Value, Tensor, SymValue, SymValues, std::vector<Tensor>> v;
};
using Args = std::vector<Arg>;
using KwArgs = std::vector<std::pair<std::string, Arg>>;

// While it lives, ops called on this thread take `loc` as their source line instead of their
// caller's: derivative formulas run under the forward op's location, so the backward's nodes
// point at the model line that created them.
class SourceOverride {
 public:
  explicit SourceOverride(const std::source_location& loc);
  ~SourceOverride();
  SourceOverride(const SourceOverride&) = delete;
  SourceOverride& operator=(const SourceOverride&) = delete;

 private:
  std::source_location loc_;
  const std::source_location* previous_;
};

// Runs or records `op`. Returns its tensor outputs: one for a single-output op; for a
// multi-output op one per output (traced: a getitem node each, as make_fx records them).
std::vector<Tensor> callOp(std::string_view op, Args args, KwArgs kwargs = {},
                           std::source_location loc = std::source_location::current());
// callOp for a single-output op.
Tensor callOp1(std::string_view op, Args args, KwArgs kwargs = {},
               std::source_location loc = std::source_location::current());

}  // namespace fathom::frontend
