// Result<T>: the return type of every fallible engine API (std::expected is C++23; this is the
// small subset we need). An Error says what is wrong, where (file, JSON pointer or node name)
// and, in the message, how to fix it. Errors of kind InvalidInput are the user's (CLI exit 2), as
// is OutOfMemory (the memory limit refused an allocation); Internal ones are ours (exit 3).
//
// Inside op meta functions and kernels, checks throw OpError (see Error.h) because argument
// checking is deep and repetitive there; the registry's call wrappers turn it back into a Result,
// so no exception crosses a public API.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace fathom {

enum class ErrorCode { InvalidInput, OutOfMemory, Internal };

struct Error {
  ErrorCode code = ErrorCode::InvalidInput;
  std::string message;  // what is wrong, and how to fix it when we know
  std::string where;    // "file.json: /graphs/forward/nodes/3" or "%add_3"; may be empty

  // "where: message", or just the message.
  std::string str() const { return where.empty() ? message : where + ": " + message; }
  // Adds an outer location: "outer: inner".
  Error& within(const std::string& outer) {
    where = where.empty() ? outer : outer + ": " + where;
    return *this;
  }
};

inline Error invalidInput(std::string message, std::string where = {}) {
  return Error{ErrorCode::InvalidInput, std::move(message), std::move(where)};
}
inline Error internalError(std::string message, std::string where = {}) {
  return Error{ErrorCode::Internal, std::move(message), std::move(where)};
}

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { assert(ok()); return std::get<0>(v_); }
  const T& value() const& { assert(ok()); return std::get<0>(v_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { assert(!ok()); return std::get<1>(v_); }
  Error& error() { assert(!ok()); return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { assert(!ok_); return error_; }
  Error& error() { assert(!ok_); return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

using Status = Result<void>;

}  // namespace fathom

// Returns the error of a failed Result from the enclosing function.
#define FATHOM_TRY(expr)                          \
  do {                                            \
    auto&& fathom_try_r_ = (expr);                \
    if (!fathom_try_r_.ok())                      \
      return std::move(fathom_try_r_.error());    \
  } while (0)
