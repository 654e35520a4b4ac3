// Type promotion must agree with torch.promote_types / torch.result_type.
#include "engine/core/DType.h"

#include <gtest/gtest.h>

namespace fathom {
namespace {

using D = DType;

struct PromoteCase {
  D a, b, expected;
};

// Values from torch.promote_types in PyTorch 1.13.
TEST(DTypeTest, PromoteTypesMatchesPyTorch) {
  const PromoteCase cases[] = {
      {D::Bool, D::Bool, D::Bool},          {D::Bool, D::UInt8, D::UInt8},
      {D::UInt8, D::Int8, D::Int16},        {D::UInt8, D::Int32, D::Int32},
      {D::Int8, D::Int64, D::Int64},        {D::Int32, D::Float16, D::Float16},
      {D::Int64, D::BFloat16, D::BFloat16}, {D::Float16, D::BFloat16, D::Float32},
      {D::Float16, D::Float32, D::Float32}, {D::Float32, D::Float64, D::Float64},
      {D::Bool, D::Float64, D::Float64},    {D::Int64, D::Float32, D::Float32},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(promoteTypes(c.a, c.b), c.expected) << dtypeName(c.a) << " + " << dtypeName(c.b);
    EXPECT_EQ(promoteTypes(c.b, c.a), c.expected) << "promotion must be symmetric";
  }
}

// torch.result_type: dimensioned tensors beat zero-dim tensors beat Python scalars, unless the
// lower category is floating and the higher is not.
TEST(DTypeTest, ResultTypeCategories) {
  {  // int tensor + float scalar -> default float dtype
    ResultTypeState s;
    s.addTensor(D::Int64, 2);
    s.addScalar(D::Float64);
    EXPECT_EQ(s.result(), D::Float32);
  }
  {  // float16 tensor + float64 scalar stays float16
    ResultTypeState s;
    s.addTensor(D::Float16, 1);
    s.addScalar(D::Float64);
    EXPECT_EQ(s.result(), D::Float16);
  }
  {  // float32 tensor + zero-dim float64 tensor stays float32
    ResultTypeState s;
    s.addTensor(D::Float32, 3);
    s.addTensor(D::Float64, 0);
    EXPECT_EQ(s.result(), D::Float32);
  }
  {  // int32 tensor + zero-dim int64 tensor stays int32
    ResultTypeState s;
    s.addTensor(D::Int32, 1);
    s.addTensor(D::Int64, 0);
    EXPECT_EQ(s.result(), D::Int32);
  }
  {  // bool tensor + int scalar -> int64
    ResultTypeState s;
    s.addTensor(D::Bool, 1);
    s.addScalar(D::Int64);
    EXPECT_EQ(s.result(), D::Int64);
  }
  {  // uint8 tensor + int scalar stays uint8
    ResultTypeState s;
    s.addTensor(D::UInt8, 1);
    s.addScalar(D::Int64);
    EXPECT_EQ(s.result(), D::UInt8);
  }
  {  // int zero-dim tensor + float zero-dim... + int dimensioned: float from the lower category
    ResultTypeState s;
    s.addTensor(D::Int64, 2);
    s.addTensor(D::Float64, 0);
    EXPECT_EQ(s.result(), D::Float64);
  }
}

TEST(DTypeTest, NamesRoundTrip) {
  for (int i = 0; i < kNumDTypes; ++i) {
    auto t = static_cast<D>(i);
    EXPECT_EQ(parseDType(dtypeName(t)), t);
    EXPECT_EQ(parseDType("torch." + std::string(dtypeName(t))), t);
  }
  EXPECT_FALSE(parseDType("float128").has_value());
  EXPECT_EQ(elementSize(D::BFloat16), 2u);
  EXPECT_EQ(elementSize(D::Int64), 8u);
}

}  // namespace
}  // namespace fathom
