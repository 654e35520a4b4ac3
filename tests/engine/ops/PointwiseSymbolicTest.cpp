// Meta functions over symbolic sizes: a tiny SymNodeImpl records every decision the layout
// helpers ask, so we can see that broadcasting guards on the symbolic size with a reason, and
// that the result keeps the symbol instead of its hint.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

struct Decision {
  std::string lhs, rhs;
  SymRel rel;
  std::string reason;
};

class RecordingNode : public SymNodeImpl, public std::enable_shared_from_this<RecordingNode> {
 public:
  RecordingNode(std::string text, int64_t hint, std::shared_ptr<std::vector<Decision>> log)
      : text_(std::move(text)), hint_(hint), log_(std::move(log)) {}
  int64_t hint() const override { return hint_; }
  std::string str() const override { return text_; }
  SymInt apply(SymOp op, const SymInt& other, bool selfOnLeft) const override {
    const int64_t a = selfOnLeft ? hint_ : other.hint(), b = selfOnLeft ? other.hint() : hint_;
    const std::string l = selfOnLeft ? text_ : other.str(), r = selfOnLeft ? other.str() : text_;
    int64_t v = 0;
    std::string sym;
    switch (op) {
      case SymOp::Add: v = a + b; sym = "+"; break;
      case SymOp::Sub: v = a - b; sym = "-"; break;
      case SymOp::Mul: v = a * b; sym = "*"; break;
      case SymOp::FloorDiv: v = b ? a / b : 0; sym = "//"; break;
      case SymOp::Mod: v = b ? a % b : 0; sym = "%"; break;
      case SymOp::Max: v = std::max(a, b); sym = " max "; break;
      case SymOp::Min: v = std::min(a, b); sym = " min "; break;
    }
    return SymInt(std::make_shared<RecordingNode>("(" + l + sym + r + ")", v, log_));
  }
  bool decide(SymRel rel, const SymInt& other, std::string_view reason) const override {
    log_->push_back({text_, other.str(), rel, std::string(reason)});
    const int64_t o = other.hint();
    return compareInts(rel, hint_, o);
  }

 private:
  std::string text_;
  int64_t hint_;
  std::shared_ptr<std::vector<Decision>> log_;
};

TensorMeta fake(DType dtype, SymIntList sizes) {
  TensorMeta m;
  m.dtype = dtype;
  m.strides = contiguousStrides(sizes);
  m.sizes = std::move(sizes);
  return m;
}

// add([s0, 3], [1, 3]): the output is [s0, 3] (the symbol, not its hint 5), and broadcasting
// asked "is s0 == 1?" for dim 0 with a reason naming the dim.
TEST(PointwiseSymbolicTest, BroadcastingRecordsGuardsWithReasons) {
  auto log = std::make_shared<std::vector<Decision>>();
  SymInt s0(std::make_shared<RecordingNode>("s0", 5, log));
  const OpDef* add = OpRegistry::global().find("aten.add.Tensor");
  ASSERT_NE(add, nullptr);
  auto bound = bindArguments(add->schema, {fake(DType::Float32, {s0, 3}), fake(DType::Float32, {1, 3})}, {});
  ASSERT_TRUE(bound.ok());
  auto out = callMeta(*add, *bound);
  ASSERT_TRUE(out.ok()) << out.error().str();
  const TensorMeta& m = (*out)[0].as<TensorMeta>();
  ASSERT_EQ(m.sizes.size(), 2u);
  EXPECT_TRUE(m.sizes[0].isSymbolic());
  EXPECT_EQ(m.sizes[0].str(), "s0");
  EXPECT_EQ(m.sizes[1].hint(), 3);
  EXPECT_EQ(m.strides[0].hint(), 3);  // contiguous: (3, 1)
  EXPECT_EQ(m.strides[1].hint(), 1);
  bool sawBroadcastGuard = false;
  for (const auto& d : *log) {
    EXPECT_FALSE(d.reason.empty()) << "every decision carries a reason";
    if (d.lhs == "s0" && d.rel == SymRel::Eq && d.rhs == "1" && d.reason == "broadcast: dim 0 of {arg0} (s0) vs dim 0 of {arg1} (1)")
      sawBroadcastGuard = true;
  }
  EXPECT_TRUE(sawBroadcastGuard);
}

// A mismatch that is only visible through the hints is still an error (with a guard recorded).
TEST(PointwiseSymbolicTest, SymbolicMismatchIsAnError) {
  auto log = std::make_shared<std::vector<Decision>>();
  SymInt s0(std::make_shared<RecordingNode>("s0", 5, log));
  const OpDef* add = OpRegistry::global().find("aten.add.Tensor");
  auto bound = bindArguments(add->schema, {fake(DType::Float32, {s0}), fake(DType::Float32, {4})}, {});
  ASSERT_TRUE(bound.ok());
  auto out = callMeta(*add, *bound);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().message, "The size of tensor a (s0) must match the size of tensor b (4) at non-singleton dimension 0");
  EXPECT_FALSE(log->empty());
}

}  // namespace
}  // namespace fathom
