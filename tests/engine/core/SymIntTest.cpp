// SymInt: concrete arithmetic is exact and overflow-checked; symbolic values defer to their
// node, so decisions on them reach the shape environment with a reason.
#include "engine/core/SymInt.h"

#include <gtest/gtest.h>

#include "engine/core/Error.h"

namespace fathom {
namespace {

TEST(SymIntTest, ConcreteArithmetic) {
  SymInt a = 7, b = 2;
  EXPECT_EQ((a + b).hint(), 9);
  EXPECT_EQ((a - b).hint(), 5);
  EXPECT_EQ((a * b).hint(), 14);
  EXPECT_EQ(floorDiv(a, b).hint(), 3);
  EXPECT_EQ(floorDiv(SymInt(-7), b).hint(), -4);  // Python floor division
  EXPECT_EQ(mod(SymInt(-7), b).hint(), 1);        // Python modulo: sign of the divisor
  EXPECT_EQ(symMax(a, b).hint(), 7);
  EXPECT_EQ(symMin(a, b).hint(), 2);
  EXPECT_FALSE((a + b).isSymbolic());
}

TEST(SymIntTest, OverflowAndDivisionByZeroAreErrors) {
  EXPECT_THROW(SymInt(INT64_MAX) + SymInt(1), OpError);
  EXPECT_THROW(SymInt(INT64_MAX / 2) * SymInt(3), OpError);
  EXPECT_THROW(floorDiv(SymInt(1), SymInt(0)), OpError);
  EXPECT_THROW(mod(SymInt(1), SymInt(0)), OpError);
}

// A symbol that records every decision made on it, as a shape environment would.
class RecordingSymbol : public SymNodeImpl, public std::enable_shared_from_this<RecordingSymbol> {
 public:
  RecordingSymbol(std::string name, int64_t hint, std::vector<std::string>* log)
      : name_(std::move(name)), hint_(hint), log_(log) {}
  int64_t hint() const override { return hint_; }
  std::string str() const override { return name_; }
  SymInt apply(SymOp op, const SymInt& other, bool selfOnLeft) const override {
    const char* sym = op == SymOp::Add ? "+" : op == SymOp::Mul ? "*" : "?";
    SymInt concrete = SymInt::combine(op, selfOnLeft ? SymInt(hint_) : SymInt(other.hint()),
                                      selfOnLeft ? SymInt(other.hint()) : SymInt(hint_));
    std::string text = selfOnLeft ? name_ + sym + other.str() : other.str() + sym + name_;
    return SymInt(std::make_shared<RecordingSymbol>(text, concrete.hint(), log_));
  }
  bool decide(SymRel rel, const SymInt& other, std::string_view reason) const override {
    log_->push_back(name_ + (rel == SymRel::Eq ? "==" : "?") + other.str() + " (" + std::string(reason) + ")");
    return rel == SymRel::Eq ? hint_ == other.hint() : false;
  }

 private:
  std::string name_;
  int64_t hint_;
  std::vector<std::string>* log_;
};

TEST(SymIntTest, SymbolicValuesDeferToTheirNode) {
  std::vector<std::string> log;
  SymInt s0(std::make_shared<RecordingSymbol>("s0", 8, &log));
  EXPECT_TRUE(s0.isSymbolic());
  EXPECT_EQ(s0.hint(), 8);
  SymInt sum = s0 + 2;
  EXPECT_EQ(sum.str(), "s0+2");
  EXPECT_EQ(sum.hint(), 10);
  EXPECT_EQ((SymInt(3) * s0).str(), "3*s0");
  EXPECT_TRUE(symEq(s0, 8, "broadcast of dim 0"));
  EXPECT_TRUE(symEq(8, s0, "mirrored"));
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0], "s0==8 (broadcast of dim 0)");
}

TEST(SymIntTest, IdenticalIsStructuralNotADecision) {
  std::vector<std::string> log;
  SymInt s0(std::make_shared<RecordingSymbol>("s0", 8, &log));
  EXPECT_TRUE(SymInt(4).identical(SymInt(4)));
  EXPECT_FALSE(s0.identical(SymInt(8)));
  EXPECT_TRUE(s0.identical(s0));
  EXPECT_TRUE(log.empty());
}

}  // namespace
}  // namespace fathom
