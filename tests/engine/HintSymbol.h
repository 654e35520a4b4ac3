// A test symbol for meta functions without a ShapeEnv: it answers every decision with its hint
// and prints the expressions built over it ("(s0+2)", "max(s0, 1)"), so tests can drive the
// symbolic paths of ops and see what they compute. Shared by the op and frontend tests.
#pragma once

#include <algorithm>
#include <memory>
#include <string>

#include "engine/core/SymInt.h"

namespace fathom::testing {

inline SymInt hintSymbol(const std::string& name, int64_t hint);

class HintSymbol : public SymNodeImpl {
 public:
  HintSymbol(std::string text, int64_t hint) : text_(std::move(text)), hint_(hint) {}
  int64_t hint() const override { return hint_; }
  std::string str() const override { return text_; }
  SymInt apply(SymOp op, const SymInt& other, bool selfOnLeft) const override {
    const int64_t a = selfOnLeft ? hint_ : other.hint(), b = selfOnLeft ? other.hint() : hint_;
    const std::string l = selfOnLeft ? text_ : other.str(), r = selfOnLeft ? other.str() : text_;
    int64_t v = 0;
    const char* name = "?";
    switch (op) {
      case SymOp::Add: v = a + b, name = "+"; break;
      case SymOp::Sub: v = a - b, name = "-"; break;
      case SymOp::Mul: v = a * b, name = "*"; break;
      case SymOp::FloorDiv: v = b ? a / b : 0, name = "//"; break;
      case SymOp::Mod: v = b ? a % b : 0, name = "%"; break;
      case SymOp::Max: return hintSymbol("max(" + l + ", " + r + ")", std::max(a, b));
      case SymOp::Min: return hintSymbol("min(" + l + ", " + r + ")", std::min(a, b));
    }
    return hintSymbol("(" + l + name + r + ")", v);
  }
  bool decide(SymRel rel, const SymInt& other, std::string_view) const override {
    return compareInts(rel, hint_, other.hint());
  }

 private:
  std::string text_;
  int64_t hint_;
};

inline SymInt hintSymbol(const std::string& name, int64_t hint) {
  return SymInt(std::make_shared<HintSymbol>(name, hint));
}

}  // namespace fathom::testing
