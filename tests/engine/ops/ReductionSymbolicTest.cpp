// Reduction and normalization meta functions over symbolic sizes: results keep the symbol (not
// its hint), and the decisions they take on it (is the input empty?) come with a reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

// A symbol that answers decisions with its hint and remembers each decision's reason.
class Symbol : public SymNodeImpl {
 public:
  Symbol(std::string text, int64_t hint, std::shared_ptr<std::vector<std::string>> reasons)
      : text_(std::move(text)), hint_(hint), reasons_(std::move(reasons)) {}
  int64_t hint() const override { return hint_; }
  std::string str() const override { return text_; }
  SymInt apply(SymOp op, const SymInt& other, bool selfOnLeft) const override {
    const int64_t a = selfOnLeft ? hint_ : other.hint(), b = selfOnLeft ? other.hint() : hint_;
    const std::string l = selfOnLeft ? text_ : other.str(), r = selfOnLeft ? other.str() : text_;
    switch (op) {
      case SymOp::Add: return make("(" + l + "+" + r + ")", a + b);
      case SymOp::Mul: return make("(" + l + "*" + r + ")", a * b);
      case SymOp::Max: return make("max(" + l + ", " + r + ")", std::max(a, b));
      default: return make("(" + l + "?" + r + ")", 0);
    }
  }
  bool decide(SymRel rel, const SymInt& other, std::string_view reason) const override {
    reasons_->emplace_back(reason);
    const int64_t o = other.hint();
    return compareInts(rel, hint_, o);
  }

 private:
  SymInt make(std::string text, int64_t hint) const { return SymInt(std::make_shared<Symbol>(text, hint, reasons_)); }
  std::string text_;
  int64_t hint_;
  std::shared_ptr<std::vector<std::string>> reasons_;
};

TensorMeta fake(SymIntList sizes) {
  TensorMeta m;
  m.strides = contiguousStrides(sizes);
  m.sizes = std::move(sizes);
  return m;
}

std::string sizesOf(const TensorMeta& m) {
  std::string s;
  for (const auto& d : m.sizes) s += (s.empty() ? "" : ",") + d.str();
  return s;
}

struct SymbolicCase {
  const char* op;
  ValueList args;
  Kwargs kwargs;
  std::vector<std::string> sizes;  // of each result
};

// Each row: the op's meta function on a [s0, 8] input keeps s0 in every result.
TEST(ReductionSymbolicTest, ResultsKeepTheSymbol) {
  auto reasons = std::make_shared<std::vector<std::string>>();
  const SymInt s0(std::make_shared<Symbol>("s0", 5, reasons));
  const TensorMeta x = fake({s0, 8});
  const SymbolicCase cases[] = {
      {"aten.sum.dim_IntList", {x, ValueList{1}, true}, {}, {"s0,1"}},
      {"aten.mean.dim", {x, ValueList{-1}}, {}, {"s0"}},
      {"aten.var.correction", {x, ValueList{1}}, {{"correction", 0}}, {"s0"}},
      {"aten.amax.default", {x, ValueList{1}}, {}, {"s0"}},
      {"aten.max.dim", {x, 1, true}, {}, {"s0,1", "s0,1"}},
      {"aten.argmax.default", {x, 1}, {}, {"s0"}},
      {"aten.cumsum.default", {x, 0}, {}, {"s0,8"}},
      {"aten._softmax.default", {x, 1, false}, {}, {"s0,8"}},
      {"aten._log_softmax_backward_data.default", {x, x, 1, DType::Float32}, {}, {"s0,8"}},
      {"aten.native_layer_norm.default", {x, ValueList{8}, None{}, None{}, 1e-5}, {}, {"s0,8", "s0,1", "s0,1"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.op);
    const OpDef* op = OpRegistry::global().find(c.op);
    ASSERT_NE(op, nullptr);
    auto bound = bindArguments(op->schema, c.args, c.kwargs);
    ASSERT_TRUE(bound.ok()) << bound.error().str();
    auto out = callMeta(*op, *bound);
    ASSERT_TRUE(out.ok()) << out.error().str();
    ASSERT_EQ(out->size(), c.sizes.size());
    for (size_t i = 0; i < c.sizes.size(); ++i) EXPECT_EQ(sizesOf((*out)[i].as<TensorMeta>()), c.sizes[i]);
  }
  for (const auto& r : *reasons) EXPECT_FALSE(r.empty()) << "every decision carries a reason";
}

// amax must know whether its input is empty (max has no identity): that is a recorded decision.
TEST(ReductionSymbolicTest, AmaxAsksWhetherTheInputIsEmpty) {
  auto reasons = std::make_shared<std::vector<std::string>>();
  const SymInt s0(std::make_shared<Symbol>("s0", 5, reasons));
  const OpDef* op = OpRegistry::global().find("aten.amax.default");
  auto bound = bindArguments(op->schema, {fake({s0, 8}), ValueList{0}}, {});
  ASSERT_TRUE(bound.ok());
  ASSERT_TRUE(callMeta(*op, *bound).ok());
  EXPECT_NE(std::find(reasons->begin(), reasons->end(), "amax: is the input empty"), reasons->end());
}

}  // namespace
}  // namespace fathom
