// ShapeEnv [torch.fx.experimental.symbolic_shapes.ShapeEnv]: the symbols of one trace and
// everything decided about them.
//
// A symbol stands for an input dimension; it has a hint (the example value), a value range and
// the sources it was read from (`x.size(0)`). SymInts made by createSize() carry expressions
// over these symbols; arithmetic on them stays symbolic, and every *decision* (symEq, symLt, ...)
// is answered with the hints. A decision the value ranges settle costs nothing; any other is
// recorded as a guard with its provenance (the context set by the tracer before each op), and an
// equality that holds becomes a replacement: a symbol unified with another, or specialized to a
// constant.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/SymInt.h"
#include "engine/symbolic/Expr.h"
#include "engine/symbolic/ValueRange.h"

namespace fathom::sym {

// Where a decision was taken. The tracer sets it before each op runs its meta function.
struct GuardContext {
  std::string stage = "trace";  // trace, aot-forward, aot-backward, partition, compile, infer-meta
  std::string node;             // "add_3"
  std::string op;               // "aten.add.Tensor"
  std::string source;           // "samples/models/BertModel.cpp:84" - the model code
  std::string module;           // "encoder.layer.3.attention"
  std::vector<std::string> argNames;  // names of the op's tensor arguments, for reasons
};

struct SymbolInfo {
  std::string name;                  // "s0"
  int64_t hint = 0;
  ValueRange range;
  std::vector<std::string> sources;  // "x.size(0)"; more than one under duck sizing
};

struct Guard {
  Relation expr;        // simplified, e.g. Eq(s1, s0), Ne(Mod(s0, 2), 0)
  GuardContext where;
  std::string reason;   // "broadcast: dim 1 of %mask (s1) vs dim 1 of %scores (128)"
  int64_t count = 1;    // how often the same guard was asked again
  // The decision as it was asked, before the replacements known then applied: `s3 < 512`
  // where expr reads `s1 < 512` after s3 -> s1. `fathom guards --check` proves the simplified
  // set accepts what these accept. Unset in dumps written before it was recorded.
  std::optional<Relation> raw;
};

// A symbol pinned to a constant or unified with another: `s2 -> s0`, `s1 -> 128`.
struct Specialization {
  std::string symbol;   // "s1"
  Expr value;
  std::string kind;     // "constant", "unified", "expression", "zero-one" (0/1 hint, never a symbol)
  std::string source;   // the input dimension, when the kind is zero-one
  GuardContext where;
  std::string reason;
};

struct ShapeEnvOptions {
  bool duckSizing = true;          // equal hints share one symbol, as in PyTorch
  bool specializeZeroOne = true;   // sizes 0 and 1 never become symbols
};

class ShapeEnv : public std::enable_shared_from_this<ShapeEnv> {
 public:
  static std::shared_ptr<ShapeEnv> create(ShapeEnvOptions options = {});

  // An input dimension read from `source`. Returns a constant for 0/1 (recorded as a
  // specialization), the existing symbol under duck sizing, else a new symbol with range
  // [2, inf).
  SymInt createSize(int64_t hint, const std::string& source);
  // A SymInt for an expression over this env's symbols (used when reading dumps).
  SymInt fromExpr(const Expr& e);

  void setContext(GuardContext context) { context_ = std::move(context); }
  const GuardContext& context() const { return context_; }

  // The decision behind symDecide(): answered by ranges (no guard) or by the hints (a guard).
  bool decide(SymRel rel, const Expr& lhs, int64_t lhsHint, const Expr& rhs, int64_t rhsHint,
              std::string_view reason);

  // Told of every symbol, guard and specialization as it is born (the trace log listens).
  enum class Event { SymbolCreated, GuardAdded, GuardRepeated, Specialized };
  using Listener = std::function<void(Event, size_t index)>;  // index into symbols/guards/...
  void setListener(Listener l) { listener_ = std::move(l); }

  // `e` with every replacement applied, simplified.
  Expr canonical(const Expr& e) const;
  int64_t hintOf(const Expr& e) const;
  ValueRange rangeOf(const Expr& e) const;

  const std::vector<SymbolInfo>& symbols() const { return symbols_; }
  const std::vector<Guard>& guards() const { return guards_; }
  const std::vector<Specialization>& specializations() const { return specializations_; }
  const std::map<int32_t, Expr>& replacements() const { return replacements_; }
  const ShapeEnvOptions& options() const { return options_; }
  // Bumped on every new replacement, so expressions know when to re-canonicalize.
  uint64_t generation() const { return generation_; }

  // Restores a recorded env (dump reading): symbols, replacements, guards, specializations.
  void addSymbol(SymbolInfo info);
  void addReplacement(int32_t symbol, Expr value);
  void addGuard(Guard g) { guards_.push_back(std::move(g)); }
  void addSpecialization(Specialization s) { specializations_.push_back(std::move(s)); }
  // The symbol index for "s3", if it exists.
  std::optional<int32_t> symbolIndex(std::string_view name) const;

 private:
  explicit ShapeEnv(ShapeEnvOptions options) : options_(options) {}
  SymInt wrap(Expr e, int64_t hint);
  std::string describe(std::string_view reason, const Expr& lhs, const Expr& rhs) const;
  void maybeReplace(const Relation& holds, const std::string& reason);
  void notify(Event e, size_t index) const {
    if (listener_) listener_(e, index);
  }

  ShapeEnvOptions options_;
  GuardContext context_;
  std::vector<SymbolInfo> symbols_;
  std::map<int64_t, int32_t> symbolByHint_;  // duck sizing
  std::map<int32_t, Expr> replacements_;
  std::vector<Guard> guards_;
  std::map<std::string, size_t, std::less<>> guardIndex_;  // printed guard -> index
  std::vector<Specialization> specializations_;
  uint64_t generation_ = 0;
  Listener listener_;
};

// The env behind a symbolic SymInt, or null for a concrete one.
std::shared_ptr<ShapeEnv> shapeEnvOf(const SymInt& s);
// The expression of a SymInt (a constant for a concrete one), with the env's replacements
// applied unless `canonical` is false.
Expr exprOf(const SymInt& s, bool canonical = true);

}  // namespace fathom::sym
