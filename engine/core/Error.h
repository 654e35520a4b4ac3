// OpError and FATHOM_CHECK: how op meta functions and kernels reject bad arguments, in the
// spirit of TORCH_CHECK. They throw; OpRegistry's call wrappers catch and return a Result,
// so the exception never crosses a public API. Assertions are for internal invariants only.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

#include "engine/core/Result.h"

namespace fathom {

class OpError : public std::runtime_error {
 public:
  explicit OpError(std::string message, ErrorCode code = ErrorCode::InvalidInput)
      : std::runtime_error(std::move(message)), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

namespace detail {
template <class... Args>
std::string concat(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}
}  // namespace detail

[[noreturn]] inline void throwOpError(std::string message) { throw OpError(std::move(message)); }

}  // namespace fathom

// FATHOM_CHECK(cond, parts...): throws OpError with the concatenated message when cond is false.
#define FATHOM_CHECK(cond, ...)                                      \
  do {                                                               \
    if (!(cond)) ::fathom::throwOpError(::fathom::detail::concat(__VA_ARGS__)); \
  } while (0)
