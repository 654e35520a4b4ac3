// GuardSet: the guards of one compiled entry, compiled into a flat program that checks them
// against the real input sizes of a call - the cache's question "can this entry run these
// inputs?" - in well under a microsecond for a BERT-sized set.
//
// It checks, in order: each input's rank; each input dimension against what the trace recorded
// for it (the first dimension that is exactly a symbol binds that symbol; a constant dimension
// must match; under duck sizing a second dimension with the same symbol must agree); each
// symbol's value range (`s0 >= 2`: sizes 0 and 1 were specialized away); every guard the trace
// recorded. check() answers yes/no fast; failures() lists *every* failing check with its
// provenance, for the recompile event.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::sym {

// One traced input: its name and recorded sizes (symbolic or concrete).
struct GuardedInput {
  std::string name;
  std::vector<SymInt> sizes;
};

struct GuardFailure {
  std::string kind;     // "rank", "static", "duck", "range", "guard", "specialization"
  std::string expr;     // "Eq(s1, 128)", "x.size(1) == 768", "s0 >= 2"
  std::string reason;   // the guard's recorded reason, or what the check stands for
  GuardContext where;   // provenance (empty for rank/static/duck/range checks)
  std::string actual;   // "s0 = 4, s1 = 64" or "x.size(1) = 512"
  // The input (placeholder) a check without provenance is about: the one whose dimension a
  // static, duck or specialization check reads, or the one that binds a range check's symbol
  // (s0 >= 2: input_ids, where s0 is input_ids.size(0)). Empty for rank checks and guards.
  std::string input;
};

// A recorded guard as the cache checks it: with the env's final replacements applied. Nothing
// when that settles it (a later replacement made it constant; the dimension checks cover it).
std::optional<Relation> checkedGuard(const ShapeEnv& env, const Guard& g);

class GuardSet {
 public:
  // Compiles the env's guards and the inputs' recorded sizes. Fails when an input size is an
  // expression of symbols no input binds (the set could never be checked).
  static Result<GuardSet> compile(const ShapeEnv& env, const std::vector<GuardedInput>& inputs);

  // sizes[i] are the real sizes of input i.
  bool check(const std::vector<std::vector<int64_t>>& sizes) const;
  std::vector<GuardFailure> failures(const std::vector<std::vector<int64_t>>& sizes) const;

  size_t guardCount() const;    // checks in the program (all kinds)
  size_t symbolCount() const;

  GuardSet(GuardSet&&) noexcept;
  GuardSet& operator=(GuardSet&&) noexcept;
  ~GuardSet();

 private:
  struct Program;
  explicit GuardSet(std::unique_ptr<Program> p);
  std::unique_ptr<Program> program_;
};

}  // namespace fathom::sym
